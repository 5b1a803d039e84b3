import type { CodeRate } from '../../shared/api-schemas';
import { NOT_MEASURABLE_TEXT, opportunityOf } from '../../shared/denominators';
import { opportunityWords } from '../../shared/format/opportunity-words';
import { middleTruncate } from '../../shared/middle-truncate';
import { SALVAGE_ADVICE } from '../../shared/salvage-advice';
import { formatCoverage } from '../query/format-rate';
import { type FileCounts, getFileCounts } from '../query/get-file-counts';
import { getAgentVersionRows, getRates, type RateRow, selectedCodes } from '../query/get-rates';
import { filterParams, type RateFilters } from '../query/rate-filters';
import type { Db } from '../store/database';
import { PLAIN, paint, type Terminal, wrapText } from './terminal';

/** A version row names its agent: versions are per agent (issue 34), so two agents' same version string are two rows. */
export type AgentVersionRateRow = RateRow & { agent?: string };

export interface ReportJson {
  by_version: AgentVersionRateRow[];
  by_day: RateRow[];
}

export function buildReport(db: Db, filters: RateFilters): ReportJson {
  const byVersion = getAgentVersionRows(db, filters).map(({ agent, version, ...figures }) => ({ agent, key: version, ...figures }));
  return { by_version: byVersion, by_day: getRates(db, 'day', filters) };
}

/** What the terminal report shows besides the JSON's rows (--json stays as it was). */
export interface TextReport extends ReportJson {
  by_week: RateRow[];
  by_model: RateRow[];
  /** Files read per format, empty, refused per code (issue 37), salvaged and being written. Optional: callers that only format rates omit it. */
  files?: FileCounts;
}

export function buildTextReport(db: Db, filters: RateFilters): TextReport {
  return {
    ...buildReport(db, filters),
    by_week: getRates(db, 'week', filters),
    by_model: getRates(db, 'model', filters),
    files: getFileCounts(db, filterParams(filters).roots),
  };
}

const listCounts = (byName: Record<string, number>) => {
  const items = Object.keys(byName)
    .sort()
    .map((k) => `${k} ${byName[k]}`);
  return items.length > 0 ? items : ['none'];
};

/**
 * What was read and what was left out, always (zeros included), so a report over files nothing
 * read never looks clean: salvaged files are counted, failed and unfinished ones are not.
 */
function filesLines(files: FileCounts | undefined, width: number): string[] {
  if (!files) return [];
  const read = Object.values(files.files_by_format).reduce((n, k) => n + k, 0);
  const failed = Object.values(files.files_refused_by_code).reduce((n, k) => n + k, 0);
  return [
    ...wrapText(
      `Files: ${read} read, ${files.files_salvaged} of them salvaged (read around damaged lines); ${files.files_empty} empty (zero bytes or blank lines); ` +
        `left out: ${failed} failed, ${files.files_in_progress} being written.`,
      width,
    ),
    ...wrapList('Files read by format:', listCounts(files.files_by_format), width),
    ...wrapList('Files refused by code:', listCounts(files.files_refused_by_code), width),
    ...(files.files_refused_by_code.concatenated_rows
      ? wrapText(
          `concatenated_rows (two rows on one line): ${SALVAGE_ADVICE.index.replace('its folder', 'their folders').replace('its complete', 'their complete')}.`,
          width,
        )
      : []),
  ];
}

/** More days than this are shown as ISO weeks (unless --wide). */
export const MAX_DAY_ROWS = 30;

const GAP = '  ';

/** A rate per 1,000 with as many digits as it needs to be read (never 0.0 for a non-zero rate). */
export function formatPerThousand(rate: number): string {
  if (rate === 0) return '0';
  if (rate >= 100) return rate.toFixed(0);
  if (rate >= 10) return rate.toFixed(1);
  if (rate >= 1) return rate.toFixed(2);
  return rate.toPrecision(2);
}

/** Monday's date (YYYY-MM-DD) to its ISO week, e.g. 2026-W18. */
export function isoWeekOf(monday: string): string {
  const thursday = new Date(Date.parse(`${monday}T00:00:00Z`) + 3 * 86_400_000);
  const year = thursday.getUTCFullYear();
  const week = 1 + Math.floor((thursday.getTime() - Date.UTC(year, 0, 1)) / (7 * 86_400_000));
  return `${year}-W${String(week).padStart(2, '0')}`;
}

/** Splits a code name at underscores into lines of at most `width` characters. */
function wrapName(name: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const part of name.split(/(?<=_)/)) {
    if (line.length + part.length > width && line !== '') {
      lines.push(line);
      line = '';
    }
    line += part;
    while (line.length > width) {
      lines.push(line.slice(0, width));
      line = line.slice(width);
    }
  }
  if (line !== '') lines.push(line);
  return lines;
}

/** Wraps "label: a, b, c" at `width`, continuing lines indented. */
function wrapList(label: string, items: readonly string[], width: number): string[] {
  const lines: string[] = [];
  let line = label;
  items.forEach((item, i) => {
    const piece = item + (i < items.length - 1 ? ',' : '');
    if (line.length + 1 + piece.length > width && line.trim() !== '') {
      lines.push(line);
      line = '   ';
    }
    line += ` ${piece}`;
  });
  lines.push(line);
  return lines;
}

interface Column {
  header: string[];
  cells: string[];
  align: 'left' | 'right';
}

interface Dimension {
  title: string;
  keyName: string;
  /** What a row is, in the plural (for the pooled row's note). */
  plural: string;
  rows: RateRow[];
  label: (key: string | null) => string;
}

/** The totals of a dimension's rows: denominators summed, each code's rate over its summed opportunities. */
function totalRow(rows: readonly RateRow[], codes: readonly string[]): RateRow {
  const sum = (f: (r: RateRow) => number) => rows.reduce((n, r) => n + f(r), 0);
  return {
    key: 'total',
    assistant_messages: sum((r) => r.assistant_messages),
    tool_use_turns: sum((r) => r.tool_use_turns),
    stop_known_messages: sum((r) => r.stop_known_messages),
    capture_messages: sum((r) => r.capture_messages),
    codes: codes.map((code) => {
      const of = (r: RateRow) => r.codes.find((c) => c.code === code);
      const count = sum((r) => of(r)?.count ?? 0);
      const opportunities = sum((r) => of(r)?.opportunities ?? 0);
      const first = rows.map(of).find((c) => c !== undefined);
      return {
        code,
        count,
        opportunity: opportunityOf(code),
        opportunities,
        per_1000_opportunities: opportunities > 0 ? { rate: (count / opportunities) * 1000, low: 0, high: 0 } : null,
        not_measurable: opportunities > 0 ? null : (first?.not_measurable ?? null),
      } as CodeRate;
    }),
  };
}

/**
 * One aligned table (or several, each repeating the key columns, when the codes do not fit the
 * width). Without `all`, only the rows with findings of the shown codes, and one pooled `other`
 * row summing the rest (its denominators added, its rates over them); the total is over every row.
 */
function tables(dim: Dimension, codes: readonly string[], width: number | null, all: boolean): string[] {
  const total = totalRow(dim.rows, codes);
  const hasFindings = (r: RateRow) => r.codes.some((c) => codes.includes(c.code) && c.count > 0);
  const rest = all ? [] : dim.rows.filter((r) => !hasFindings(r));
  const other = rest.length > 0 ? { ...totalRow(rest, codes), key: 'other' } : null;
  const rows = [...(all ? dim.rows : dim.rows.filter(hasFindings)), ...(other ? [other] : []), total];
  const reasons: string[] = [];
  const marker = (reason: string) => {
    if (!reasons.includes(reason)) reasons.push(reason);
    return `n/m${reasons.length > 1 || width === null ? `(${reasons.indexOf(reason) + 1})` : ''}`;
  };
  const keyLabel = (r: RateRow) => (r === total ? 'total' : r === other ? `other (${rest.length})` : dim.label(r.key));
  const keyColumn: Column = { header: [dim.keyName], cells: rows.map(keyLabel), align: 'left' };
  const fixed: Column[] = [
    keyColumn,
    { header: ['messages'], cells: rows.map((r) => String(r.assistant_messages)), align: 'right' },
    { header: ['tool-use', 'turns'], cells: rows.map((r) => String(r.tool_use_turns)), align: 'right' },
    // Coverage: the share of messages whose stop reason was recorded (codes over them are n/m where it is 0).
    { header: ['stop', 'known'], cells: rows.map((r) => formatCoverage(r.stop_known_messages, r.assistant_messages)), align: 'right' },
  ];
  // Each code: a count and a rate per 1,000 of its opportunities, under its wrapped name.
  const codeColumns = codes.map((code) => {
    const cellsOf = rows.map((r) => r.codes.find((c) => c.code === code));
    const counts = cellsOf.map((c) => String(c?.count ?? 0));
    const rates = cellsOf.map((c) =>
      c?.per_1000_opportunities ? formatPerThousand(c.per_1000_opportunities.rate) : c?.not_measurable ? marker(c.not_measurable) : '-',
    );
    const countWidth = Math.max(1, ...counts.map((s) => s.length));
    const rateWidth = Math.max(1, ...rates.map((s) => s.length));
    const cellWidth = countWidth + 2 + rateWidth;
    const nameWidth = width === null ? Math.max(cellWidth, code.length) : Math.max(cellWidth, 12);
    const inner = `${'n'.padStart(countWidth)}  ${'‰'.padStart(rateWidth)}`;
    return {
      header: [...wrapName(code, nameWidth), inner],
      cells: counts.map((n, i) => `${n.padStart(countWidth)}  ${rates[i]!.padStart(rateWidth)}`),
      align: 'right' as const,
    };
  });
  const widthOf = (c: Column) => Math.max(...c.header.map((h) => h.length), ...c.cells.map((s) => s.length));
  if (width !== null) {
    // A long key (a model id may have 64 characters) is cut in the middle so the key columns and the widest code column fit.
    const others = fixed.slice(1).reduce((n, c) => n + GAP.length + widthOf(c), 0) + codeColumns.reduce((w, c) => Math.max(w, GAP.length + widthOf(c)), 0);
    const room = Math.max(8, width - others);
    keyColumn.cells = keyColumn.cells.map((k) => middleTruncate(k, room));
  }
  const fixedWidth = fixed.reduce((n, c) => n + widthOf(c), 0) + GAP.length * (fixed.length - 1);
  const chunks: Column[][] = [];
  let chunk: Column[] = [];
  let used = fixedWidth;
  for (const c of codeColumns) {
    if (width !== null && chunk.length > 0 && used + GAP.length + widthOf(c) > width) {
      chunks.push(chunk);
      chunk = [];
      used = fixedWidth;
    }
    chunk.push(c);
    used += GAP.length + widthOf(c);
  }
  chunks.push(chunk);

  const out: string[] = [];
  chunks.forEach((codeCols, i) => {
    const columns = [...fixed, ...codeCols];
    const widths = columns.map(widthOf);
    const height = Math.max(...columns.map((c) => c.header.length));
    const line = (cells: string[]) =>
      cells
        .map((s, j) => (columns[j]!.align === 'left' ? s.padEnd(widths[j]!) : s.padStart(widths[j]!)))
        .join(GAP)
        .trimEnd();
    const title = chunks.length > 1 ? `${dim.title} (${i + 1} of ${chunks.length})` : dim.title;
    out.push(...(width === null ? [title] : wrapText(title, width)));
    for (let h = 0; h < height; h++) {
      out.push(line(columns.map((c) => c.header[h - (height - c.header.length)] ?? '')));
    }
    out.push(line(widths.map((w) => '-'.repeat(w))));
    for (let r = 0; r < rows.length; r++) {
      if (r === rows.length - 1) out.push(line(widths.map((w) => '-'.repeat(w))));
      out.push(line(columns.map((c) => c.cells[r]!)));
    }
    out.push('');
  });
  const notes: string[] = [];
  if (other) notes.push(`other (${rest.length}): ${dim.plural} without findings, pooled (--all lists each)`);
  reasons.forEach((reason, i) => {
    const tag = reasons.length > 1 || width === null ? `n/m(${i + 1})` : 'n/m';
    notes.push(`${tag}: ${NOT_MEASURABLE_TEXT[reason] ?? 'not measurable'}`);
  });
  out.splice(out.length - 1, 0, ...notes.flatMap((n) => (width === null ? [n] : wrapText(n, width))));
  return out;
}

/**
 * The terminal report. By default it fits the terminal (`t.width`, COLUMNS): one table per
 * dimension (versions, days or ISO weeks past MAX_DAY_ROWS days with findings, models), with only
 * the codes that have findings, each as a count and a rate per 1,000 of that code's opportunities,
 * only the rows with findings and one pooled `other` row (`all`: every row), and one line naming
 * the codes with none; then what was read and what was left out. `wide`: every selected code and
 * every day, however wide.
 */
export function formatReport(report: TextReport, filters: RateFilters, options: { wide?: boolean; all?: boolean; terminal?: Terminal } = {}): string {
  const t = options.terminal ?? PLAIN;
  const wide = options.wide === true;
  const all = options.all === true;
  const lineWidth = wide ? Number.POSITIVE_INFINITY : t.width;
  if (report.by_version.length === 0)
    return [...wrapText('The index holds no assistant messages yet: run `index <dir>` first.', lineWidth), ...filesLines(report.files, lineWidth), ''].join(
      '\n',
    );
  const width = wide ? null : t.width;
  const selected = selectedCodes(filters);
  const total = (code: string) => report.by_version.reduce((n, r) => n + (r.codes.find((c) => c.code === code)?.count ?? 0), 0);
  const withFindings = wide ? selected : selected.filter((c) => total(c) > 0);
  const without = selected.filter((c) => total(c) === 0);

  // Days shown: those with findings; more than MAX_DAY_ROWS of them fold into weeks (never with --all or --wide: every day).
  const shownDays = report.by_day.filter(
    (r) => r.key !== null && (all || r.codes.some((c) => (withFindings as readonly string[]).includes(c.code) && c.count > 0)),
  ).length;
  const byWeek = !wide && !all && shownDays > MAX_DAY_ROWS;
  const dims: Dimension[] = [
    // Several agents' versions: each named with its agent (`codex 0.146.0`), as the page names them.
    new Set(report.by_version.map((r) => r.agent)).size > 1
      ? {
          title: 'Per agent version',
          keyName: 'version',
          plural: 'versions',
          rows: report.by_version.map((r) => ({ ...r, key: `${r.agent} ${r.key ?? 'unknown'}` })),
          label: (k) => k ?? 'unknown',
        }
      : { title: 'Per version', keyName: 'version', plural: 'versions', rows: report.by_version, label: (k) => k ?? 'unknown' },
    byWeek
      ? {
          title: `Per ISO week (UTC, Monday to Sunday; ${shownDays} days folded into weeks, --wide for days)`,
          keyName: 'week',
          plural: 'weeks',
          rows: report.by_week,
          label: (k) => (k === null ? 'unknown' : isoWeekOf(k)),
        }
      : { title: 'Per day (UTC)', keyName: 'day', plural: 'days', rows: report.by_day, label: (k) => k ?? 'unknown' },
    { title: 'Per model', keyName: 'model', plural: 'models', rows: report.by_model, label: (k) => k ?? 'unknown' },
  ];

  const out: string[] = [];
  if (withFindings.length > 0) {
    out.push(...wrapText("n: findings; ‰: per 1,000 of the code's opportunities (the messages where it can occur):", lineWidth));
    const nameWidth = Math.max(...withFindings.map((c) => c.length));
    for (const c of withFindings) out.push(...wrapText(`  ${c.padEnd(nameWidth)}  per 1,000 ${opportunityWords(opportunityOf(c))}`, lineWidth, '      '));
  } else {
    out.push('No findings in this selection.');
  }
  if (!wide && without.length > 0) out.push(...wrapList('Codes with no findings:', without, t.width));
  out.push('');
  for (const dim of dims) out.push(...tables(dim, withFindings, width, all || wide).map((l) => (/^Per /.test(l) ? paint(t, 'bold', l) : l)));
  out.push(...filesLines(report.files, lineWidth), ...(report.files ? [''] : []));
  return out.join('\n');
}
