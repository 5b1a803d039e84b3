import type { KeyedRow as RateRow } from '../lib/keyed-rows';
import type { ChartMarker } from './markers';
import { dayMs, nextBucket, type TimeBucket } from './scale';

/** One point of the timeline: the bucket, its denominator, and per code the rate, its interval band, its count and its opportunities. */
export interface TimelinePoint {
  key: string;
  tool_use_turns: number;
  assistant_messages: number;
  [series: string]: string | number | [number, number] | null;
}

/** Each code's rate per 1,000 of its own opportunities; a bucket where it is not measurable has no rate (a gap, not a zero). */
export function timelineSeries(rows: readonly RateRow[], codes: readonly string[]): TimelinePoint[] {
  return rows
    .filter((r) => r.key !== null)
    .map((r) => {
      const point: TimelinePoint = { key: r.key!, tool_use_turns: r.tool_use_turns, assistant_messages: r.assistant_messages };
      for (const code of codes) {
        const c = r.codes.find((x) => x.code === code);
        const i = c?.per_1000_opportunities ?? null; // null: not measurable, a gap (never 0)
        point[code] = i === null ? null : i.rate;
        point[`${code}__band`] = i === null ? null : [i.low, i.high];
        point[`${code}__count`] = c?.count ?? 0;
        point[`${code}__n`] = c?.opportunities ?? 0;
      }
      return point;
    });
}

/** A point of the time chart: a bucket on the real time axis, or a gap (key null) where a line breaks. */
export interface TimePoint {
  t: number;
  key: string | null;
  tool_use_turns: number | null;
  [series: string]: number | string | null | [number, number];
}

/**
 * Points on a real time axis: one per bucket (timelineSeries), and a null point in each gap so
 * lines break there. A band only for the codes in `bands`, and only where the code has findings:
 * a zero draws none.
 */
export function timePoints(rows: readonly RateRow[], codes: readonly string[], bucket: TimeBucket, bands: readonly string[]): TimePoint[] {
  const out: TimePoint[] = [];
  const series = timelineSeries(rows, codes);
  series.forEach((s, i) => {
    const p: TimePoint = { ...s, t: dayMs(s.key) };
    for (const code of codes) {
      const band = s[`${code}__band`] as [number, number] | null;
      p[`${code}__high`] = band?.[1] ?? null;
      p[`${code}__band`] = bands.includes(code) && band !== null && (s[`${code}__count`] as number) > 0 ? band : null;
    }
    out.push(p);
    const next = series[i + 1];
    if (next && next.key > nextBucket(s.key, bucket)) {
      const gap: TimePoint = { t: dayMs(nextBucket(s.key, bucket)), key: null, tool_use_turns: null };
      for (const code of codes) gap[code] = null;
      out.push(gap);
    }
  });
  return out;
}

/** The y-axis top: fits the observed rates (not the intervals), rounded up. */
export function rateDomainTop(points: readonly TimePoint[], codes: readonly string[]): number {
  let max = 0;
  for (const p of points) for (const c of codes) if (typeof p[c] === 'number') max = Math.max(max, p[c] as number);
  if (max <= 0) return 1;
  const mag = 10 ** Math.floor(Math.log10(max * 1.15));
  return Math.ceil((max * 1.15) / mag) * mag;
}

/** Each drawn band that runs past the axis top gets a mark at the top (`<code>__clipped`); returns how many. */
export function markClipped(points: TimePoint[], codes: readonly string[], top: number): number {
  let clipped = 0;
  for (const p of points)
    for (const code of codes) {
      const band = p[`${code}__band`] as [number, number] | null | undefined;
      p[`${code}__clipped`] = band && band[1] > top ? top : null;
      if (p[`${code}__clipped`] !== null) clipped++;
    }
  return clipped;
}

/**
 * Markers whose labels stand at least `gap` pixels apart (`x` gives a day's position): the ones
 * labelled in `keep` first, then the others in order; returned by day, so neighbours alternate rows.
 */
export function thinMarkers(markers: readonly ChartMarker[], x: (day: string) => number, gap: number, keep: readonly string[]): ChartMarker[] {
  const placed: number[] = [];
  const out: ChartMarker[] = [];
  const ordered = [...markers.filter((m) => keep.includes(m.label)), ...markers.filter((m) => !keep.includes(m.label))];
  for (const m of ordered) {
    const at = x(m.day);
    if (placed.some((p) => Math.abs(p - at) < gap)) continue;
    placed.push(at);
    out.push(m);
  }
  return out.sort((a, b) => (a.day < b.day ? -1 : a.day > b.day ? 1 : 0));
}

export interface WhiskerPoint {
  key: string;
  /** Null where the code is not measurable (no opportunities): drawn as a hatched column, never as 0. */
  rate: number | null;
  /** Distances below and above the rate to the 95% interval's ends, as Recharts' ErrorBar wants them. */
  error: [number, number] | null;
  /** A folded range's description ("2.1.43–2.1.52, 7 versions, 412 turns"). */
  label?: string;
  low: number;
  high: number;
  count: number;
  tool_use_turns: number;
  /** Why the code has no rate here (a NOT_MEASURABLE_REASON code), else null. */
  not_measurable: string | null;
}

/** One whisker point from a code's figures; `interval` null (or a reason given) means not measurable. */
export function whiskerPoint(
  key: string,
  figures: { count: number; opportunities: number; interval: { rate: number; low: number; high: number } | null; not_measurable: string | null },
  label?: string,
): WhiskerPoint {
  const i = figures.interval;
  const base = { key, count: figures.count, tool_use_turns: figures.opportunities, ...(label === undefined ? {} : { label }) };
  if (i === null) return { ...base, rate: null, error: null, low: 0, high: 0, not_measurable: figures.not_measurable ?? 'no_opportunities' };
  return {
    ...base,
    rate: i.rate,
    error: figures.count > 0 ? [i.rate - i.low, i.high - i.rate] : null,
    low: i.low,
    high: i.high,
    not_measurable: null,
  };
}

/**
 * Rate per 1,000 of one code's own opportunities per row (versions, ranges or models), with
 * whiskers where it has findings; rows where the code is not measurable are kept, flagged with
 * the reason and without a rate (the chart draws them unlike a zero).
 */
export function whiskerSeries(rows: readonly RateRow[], code: string, labels?: ReadonlyMap<string, string>): WhiskerPoint[] {
  return rows.map((r) => {
    const c = r.codes.find((x) => x.code === code);
    const key = r.key ?? 'unknown';
    return whiskerPoint(
      key,
      {
        count: c?.count ?? 0,
        opportunities: c?.opportunities ?? 0,
        interval: c?.per_1000_opportunities ?? null,
        not_measurable: c?.not_measurable ?? null,
      },
      labels?.get(key),
    );
  });
}

/** The y-axis top from the observed rates, not their intervals: a whisker may run past it (and is marked clipped). */
export function whiskerTop(points: readonly WhiskerPoint[]): number {
  const max = Math.max(0, ...points.map((p) => p.rate ?? 0));
  if (max <= 0) return 1;
  const mag = 10 ** Math.floor(Math.log10(max * 1.15));
  return Math.ceil((max * 1.15) / mag) * mag;
}

/** A whisker point as the chart draws it against an axis topped at `top`. */
export interface WhiskerRow extends WhiskerPoint {
  /** `top` where the code is not measurable (a full-height hatched column), else null. */
  not_measurable_mark: number | null;
  /** `top` where the interval runs past the axis (a mark at the top; `high` is its real end), else null. */
  clipped: number | null;
}

/** Flags each point against the axis top: not-measurable columns and whiskers clipped at the top. */
export function whiskerRows(points: readonly WhiskerPoint[], top: number): WhiskerRow[] {
  return points.map((p) => ({
    ...p,
    not_measurable_mark: p.not_measurable !== null ? top : null,
    clipped: p.error !== null && p.high > top ? top : null,
  }));
}
