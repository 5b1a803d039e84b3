/**
 * Pure helpers that keep views honest at real scale: versions folded into ranges, days folded
 * into weeks or months, time ticks that never crowd, and the words for a zero.
 */
import type { CodeRate, Interval } from '../../../shared/api-schemas';
import { NOT_MEASURABLE_TEXT } from '../../../shared/denominators';
import { perThousand } from '../../../shared/statistics';
import { formatCount, formatPerMille } from '../lib/format';
import type { KeyedRow as RateRow } from '../lib/keyed-rows';

/** A column of a folded version axis: one version, or a range of neighbours pooled. */
export interface FoldedColumn {
  key: string;
  label: string;
  versions: string[];
  folded: boolean;
  row: RateRow;
}

/** Sums rows into one: denominators and counts add; rates are recomputed from the sums. */
export function poolRows(key: string | null, rows: readonly RateRow[]): RateRow {
  const sum = (f: (r: RateRow) => number) => rows.reduce((n, r) => n + f(r), 0);
  const first = rows[0];
  const codes: CodeRate[] = (first?.codes ?? []).map((c0) => {
    const all = rows.map((r) => r.codes.find((c) => c.code === c0.code)).filter((c): c is CodeRate => c !== undefined);
    const count = all.reduce((n, c) => n + c.count, 0);
    const opportunities = all.reduce((n, c) => n + c.opportunities, 0);
    return {
      code: c0.code,
      count,
      opportunity: c0.opportunity,
      opportunities,
      per_1000_opportunities: opportunities > 0 ? perThousand(count, opportunities) : null,
      not_measurable: opportunities > 0 ? null : (all.find((c) => c.not_measurable)?.not_measurable ?? c0.not_measurable),
    };
  });
  return {
    key,
    assistant_messages: sum((r) => r.assistant_messages),
    tool_use_turns: sum((r) => r.tool_use_turns),
    stop_known_messages: sum((r) => r.stop_known_messages),
    capture_messages: sum((r) => r.capture_messages),
    codes,
  };
}

const findings = (r: RateRow) => r.codes.reduce((n, c) => n + c.count, 0);

/**
 * At most `maxColumns` version columns: versions with findings, the ones in `keep`, and the
 * busiest ones (at least `minTurns` tool-use turns) stand alone; the versions between them are
 * pooled into one range each ("2.1.43–2.1.52").
 */
export function foldVersions(rows: readonly RateRow[], options: { maxColumns?: number; minTurns?: number; keep?: readonly string[] } = {}): FoldedColumn[] {
  const maxColumns = options.maxColumns ?? 30;
  const minTurns = options.minTurns ?? 200;
  const keep = new Set(options.keep ?? []);
  if (rows.length <= maxColumns)
    return rows.map((r) => ({ key: r.key ?? 'unknown', label: r.key ?? 'unknown', versions: [r.key ?? 'unknown'], folded: false, row: r }));
  // Standalone: at most half the columns, so the ranges between them fit in the rest.
  const budget = Math.floor(maxColumns / 2);
  const alone = new Set<RateRow>();
  const byPriority = [...rows].sort((a, b) => {
    const pa = (keep.has(a.key ?? '') ? 2 : 0) + (findings(a) > 0 ? 1 : 0);
    const pb = (keep.has(b.key ?? '') ? 2 : 0) + (findings(b) > 0 ? 1 : 0);
    return pb - pa || b.tool_use_turns - a.tool_use_turns;
  });
  for (const r of byPriority) {
    if (keep.has(r.key ?? '')) {
      alone.add(r);
      continue;
    }
    if (alone.size >= budget) break;
    if (keep.has(r.key ?? '') || findings(r) > 0 || r.tool_use_turns >= minTurns || r.key === null) alone.add(r);
  }
  const columns: FoldedColumn[] = [];
  let run: RateRow[] = [];
  const flush = () => {
    if (run.length === 0) return;
    if (run.length === 1) {
      const r = run[0]!;
      columns.push({ key: r.key ?? 'unknown', label: r.key ?? 'unknown', versions: [r.key ?? 'unknown'], folded: false, row: r });
    } else {
      const versions = run.map((r) => r.key ?? 'unknown');
      const label = `${versions[0]}–${versions[versions.length - 1]}`;
      columns.push({ key: label, label, versions, folded: true, row: poolRows(label, run) });
    }
    run = [];
  };
  for (const r of rows) {
    if (alone.has(r)) {
      flush();
      columns.push({ key: r.key ?? 'unknown', label: r.key ?? 'unknown', versions: [r.key ?? 'unknown'], folded: false, row: r });
    } else run.push(r);
  }
  flush();
  return columns;
}

/** "2.1.43–2.1.52, 7 versions, 412 turns". */
export function describeFold(c: FoldedColumn): string {
  return c.folded ? `${c.label}, ${c.versions.length} versions, ${formatCount(c.row.tool_use_turns)} tool-use turns` : c.label;
}

export type TimeBucket = 'day' | 'week' | 'month';

const DAY_MS = 86_400_000;
export const dayMs = (day: string) => Date.parse(`${day}T00:00:00Z`);

/** The bucket a long range of days is best read in: days up to ~3 months, weeks up to ~2 years, then months. */
export function autoBucket(firstDay: string | null, lastDay: string | null): TimeBucket {
  if (!firstDay || !lastDay) return 'day';
  const span = (dayMs(lastDay) - dayMs(firstDay)) / DAY_MS;
  return span <= 92 ? 'day' : span <= 730 ? 'week' : 'month';
}

/** The Monday of a day's week, or the first of its month. */
export function bucketOf(day: string, bucket: TimeBucket): string {
  if (bucket === 'day') return day;
  if (bucket === 'month') return `${day.slice(0, 7)}-01`;
  const d = new Date(dayMs(day));
  const back = (d.getUTCDay() + 6) % 7;
  return new Date(dayMs(day) - back * DAY_MS).toISOString().slice(0, 10);
}

/** Day rows (or week rows) pooled into weeks or months. */
export function foldDays(rows: readonly RateRow[], bucket: TimeBucket): RateRow[] {
  if (bucket === 'day') return rows.filter((r) => r.key !== null);
  const groups = new Map<string, RateRow[]>();
  for (const r of rows) {
    if (r.key === null) continue;
    const k = bucketOf(r.key, bucket);
    const g = groups.get(k);
    if (g) g.push(r);
    else groups.set(k, [r]);
  }
  return [...groups].sort(([a], [b]) => (a < b ? -1 : 1)).map(([k, g]) => poolRows(k, g));
}

/** The next bucket's start, to tell a gap (a missing bucket) from a neighbour. */
export function nextBucket(day: string, bucket: TimeBucket): string {
  if (bucket === 'day') return new Date(dayMs(day) + DAY_MS).toISOString().slice(0, 10);
  if (bucket === 'week') return new Date(dayMs(day) + 7 * DAY_MS).toISOString().slice(0, 10);
  const d = new Date(dayMs(day));
  return new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1)).toISOString().slice(0, 10);
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/**
 * Ticks for a real time axis from t0 to t1 (ms) on `width` pixels: whole days, weeks, months,
 * quarters or years, never closer than `minGap` pixels. Labels carry the year where it changes.
 */
export function timeTicks(t0: number, t1: number, width: number, minGap = 72): { ticks: number[]; label: (t: number) => string } {
  const span = Math.max(t1 - t0, DAY_MS);
  const maxTicks = Math.max(2, Math.floor(width / minGap));
  const steps: Array<{ days?: number; months?: number }> = [
    { days: 1 },
    { days: 2 },
    { days: 7 },
    { days: 14 },
    { months: 1 },
    { months: 2 },
    { months: 3 },
    { months: 6 },
    { months: 12 },
  ];
  const perTick = (s: { days?: number; months?: number }) => (s.days ? s.days * DAY_MS : s.months! * 30.4 * DAY_MS);
  const step = steps.find((s) => span / perTick(s) <= maxTicks) ?? steps[steps.length - 1]!;
  const ticks: number[] = [];
  if (step.days) {
    const start = Math.ceil(t0 / DAY_MS) * DAY_MS;
    const aligned = step.days === 7 || step.days === 14 ? start + ((8 - new Date(start).getUTCDay()) % 7) * DAY_MS : start;
    for (let t = aligned; t <= t1; t += step.days * DAY_MS) ticks.push(t);
  } else {
    const d = new Date(t0);
    const y = d.getUTCFullYear();
    let m = d.getUTCMonth() + (d.getUTCDate() === 1 ? 0 : 1);
    m = Math.ceil(m / step.months!) * step.months!;
    for (;;) {
      const t = Date.UTC(y + Math.floor(m / 12), m % 12, 1);
      if (t > t1) break;
      ticks.push(t);
      m += step.months!;
    }
  }
  // A label centred on a tick near either end would run into the axes: keep ticks half a label in.
  const edge = (minGap / 2) * ((t1 - t0) / Math.max(1, width));
  const inner = ticks.filter((t) => t - t0 >= edge && t1 - t >= edge);
  if (inner.length >= 2 || ticks.length < 2) ticks.splice(0, ticks.length, ...inner);
  const years = new Set(ticks.map((t) => new Date(t).getUTCFullYear()));
  const label = (t: number) => {
    const d = new Date(t);
    const i = ticks.indexOf(t);
    const prev = i > 0 ? new Date(ticks[i - 1]!) : null;
    const newYear = prev === null || prev.getUTCFullYear() !== d.getUTCFullYear();
    if (!step.days) return d.getUTCMonth() === 0 || newYear ? `${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()}` : MONTHS[d.getUTCMonth()]!;
    const base = `${MONTHS[d.getUTCMonth()]} ${d.getUTCDate()}`;
    return newYear && (years.size > 1 || i === 0) ? `${base}, ${d.getUTCFullYear()}` : base;
  };
  return { ticks, label };
}

/** How many category labels to skip so that labels `labelPx` wide fit in `width` pixels (0: show all). */
export function thinInterval(count: number, width: number, labelPx: number): number {
  if (count <= 0) return 0;
  const fit = Math.max(1, Math.floor(width / labelPx));
  return count <= fit ? 0 : Math.ceil(count / fit) - 1;
}

/** "0 in 412 tool-use turns (≤ 8.9‰)": a zero with the bound it leaves, instead of a band. */
export function formatZero(opportunities: number, interval: Interval | null, words = 'tool-use turns'): string {
  return `0 in ${formatCount(opportunities)} ${words}${interval ? ` (≤ ${formatPerMille(interval.high)})` : ''}`;
}

/** A code's cell in words: count and rate, a bounded zero, or why there is no rate. */
export function formatCell(c: CodeRate, words = 'opportunities'): string {
  if (c.not_measurable !== null) return NOT_MEASURABLE_TEXT[c.not_measurable] ?? `not measurable (${c.not_measurable})`;
  if (c.count === 0) return formatZero(c.opportunities, c.per_1000_opportunities, words);
  const i = c.per_1000_opportunities;
  return i ? `${c.count} · ${formatPerMille(i.rate)} (95% CI ${formatPerMille(i.low).replace('‰', '')}–${formatPerMille(i.high)})` : String(c.count);
}

/** Codes with findings in any row, in the given order. */
export function codesWithFindings(rows: readonly RateRow[], codes: readonly string[]): string[] {
  return codes.filter((code) => rows.some((r) => (r.codes.find((c) => c.code === code)?.count ?? 0) > 0));
}

/** Codes that can be measured somewhere in these rows (some opportunities). */
export function measurableCodes(rows: readonly { codes: CodeRate[] }[], codes: readonly string[]): string[] {
  return codes.filter((code) => rows.some((r) => (r.codes.find((c) => c.code === code)?.opportunities ?? 0) > 0));
}
