import type { CodeRate } from '../../shared/api-schemas';
import { FINDING_OPPORTUNITY, NOT_MEASURABLE_TEXT, type Opportunity } from '../../shared/finding-codes';
import { formatCoverage } from '../query/format-rate';
import { type FileCounts, getFileCounts } from '../query/get-file-counts';
import { getRates, type RateRow, selectedCodes } from '../query/get-rates';
import { filterParams, type RateFilters } from '../query/rate-filters';
import type { Db } from '../store/database';

export interface ReportJson {
  by_version: RateRow[];
  by_day: RateRow[];
}

export function buildReport(db: Db, filters: RateFilters): ReportJson {
  return { by_version: getRates(db, 'version', filters), by_day: getRates(db, 'day', filters) };
}

/** What the terminal report shows besides the JSON's rows (--json stays as it was). */
export interface TextReport extends ReportJson {
  by_week: RateRow[];
  by_model: RateRow[];
  /** Files read per format, empty, and refused per code (issue 37). Optional: callers that only format rates omit it. */
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

/** What was read and what was refused, so a report over files nothing read never looks clean. */
function filesLine(files: FileCounts | undefined): string[] {
  if (!files) return [];
  return [
    ...wrapList('Files read by format:', listCounts(files.files_by_format), REPORT_WIDTH),
    `Files empty (zero bytes or blank lines): ${files.files_empty}`,
    ...wrapList('Files refused by code:', listCounts(files.files_refused_by_code), REPORT_WIDTH),
  ];
}

/** The terminal width the default report fits. */
export const REPORT_WIDTH = 100;
/** More days than this are shown as ISO weeks (unless --wide). */
export const MAX_DAY_ROWS = 30;

const OPPORTUNITY_TEXT: Record<Opportunity, string> = {
  tool_use_turns: 'tool-use turns',
  stop_known_messages: 'messages with a recorded stop reason',
  assistant_messages: 'model messages',
  capture_messages: 'messages read from stream captures',
};

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

/** Wraps "label: a, b, c" at the report width, continuing lines indented. */
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
        opportunity: FINDING_OPPORTUNITY[code as keyof typeof FINDING_OPPORTUNITY],
        opportunities,
        per_1000_opportunities: opportunities > 0 ? { rate: (count / opportunities) * 1000, low: 0, high: 0 } : null,
        not_measurable: opportunities > 0 ? null : (first?.not_measurable ?? null),
      } as CodeRate;
    }),
  };
}

/** One aligned table (or several, each repeating the key columns, when the codes do not fit the width). */
function tables(dim: Dimension, codes: readonly string[], width: number | null): string[] {
  const total = totalRow(dim.rows, codes);
  const rows = [...dim.rows, total];
  const reasons: string[] = [];
  const marker = (reason: string) => {
    if (!reasons.includes(reason)) reasons.push(reason);
    return `n/m${reasons.length > 1 || width === null ? `(${reasons.indexOf(reason) + 1})` : ''}`;
  };
  const keyColumn: Column = { header: [dim.keyName], cells: rows.map((r) => (r === total ? 'total' : dim.label(r.key))), align: 'left' };
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
    out.push(chunks.length > 1 ? `${dim.title} (${i + 1} of ${chunks.length})` : dim.title);
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
  reasons.forEach((reason, i) => {
    const tag = reasons.length > 1 || width === null ? `n/m(${i + 1})` : 'n/m';
    out.splice(out.length - 1, 0, `${tag}: ${NOT_MEASURABLE_TEXT[reason] ?? 'not measurable'}`);
  });
  return out;
}

/**
 * The terminal report. By default it fits REPORT_WIDTH columns: one table per dimension
 * (versions, days or ISO weeks past MAX_DAY_ROWS days, models) with only the codes that have
 * findings, each as a count and a rate per 1,000 of that code's opportunities, and one line
 * naming the codes with none. `wide`: every selected code and every day, however wide.
 */
export function formatReport(report: TextReport, filters: RateFilters, options: { wide?: boolean } = {}): string {
  if (report.by_version.length === 0) return ['The index holds no assistant messages yet: run `index <dir>` first.', ...filesLine(report.files), ''].join('\n');
  const wide = options.wide === true;
  const width = wide ? null : REPORT_WIDTH;
  const selected = selectedCodes(filters);
  const total = (code: string) => report.by_version.reduce((n, r) => n + (r.codes.find((c) => c.code === code)?.count ?? 0), 0);
  const withFindings = wide ? selected : selected.filter((c) => total(c) > 0);
  const without = selected.filter((c) => total(c) === 0);

  const days = report.by_day.filter((r) => r.key !== null).length;
  const byWeek = !wide && days > MAX_DAY_ROWS;
  const dims: Dimension[] = [
    { title: 'Per version', keyName: 'version', rows: report.by_version, label: (k) => k ?? 'unknown' },
    byWeek
      ? {
          title: `Per ISO week (UTC, Monday to Sunday; ${days} days folded into weeks, --wide for days)`,
          keyName: 'week',
          rows: report.by_week,
          label: (k) => (k === null ? 'unknown' : isoWeekOf(k)),
        }
      : { title: 'Per day (UTC)', keyName: 'day', rows: report.by_day, label: (k) => k ?? 'unknown' },
    { title: 'Per model', keyName: 'model', rows: report.by_model, label: (k) => k ?? 'unknown' },
  ];

  const out: string[] = [];
  if (withFindings.length > 0) {
    out.push("n: findings; ‰: per 1,000 of the code's opportunities (the messages where it can occur):");
    const nameWidth = Math.max(...withFindings.map((c) => c.length));
    for (const c of withFindings) out.push(`  ${c.padEnd(nameWidth)}  per 1,000 ${OPPORTUNITY_TEXT[FINDING_OPPORTUNITY[c]]}`);
  } else {
    out.push('No findings in this selection.');
  }
  if (!wide && without.length > 0) out.push(...wrapList('Codes with no findings:', without, REPORT_WIDTH));
  out.push('');
  for (const dim of dims) out.push(...tables(dim, withFindings, width));
  out.push(...filesLine(report.files), ...(report.files ? [''] : []));
  return out.join('\n');
}
