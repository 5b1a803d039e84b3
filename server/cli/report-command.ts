import type { RateRow } from '../../shared/api-schemas';
import { getRates, selectedCodes } from '../query/get-rates';
import type { RateFilters } from '../query/rate-filters';
import type { Db } from '../store/database';

export interface ReportJson {
  by_version: RateRow[];
  by_day: RateRow[];
}

export function buildReport(db: Db, filters: RateFilters): ReportJson {
  return { by_version: getRates(db, 'version', filters), by_day: getRates(db, 'day', filters) };
}

function fmtRate(k: number, n: number): string {
  return n > 0 ? `${k} (${((k / n) * 1000).toFixed(2)}‰)` : `${k}`;
}

function table(title: string, keyName: string, rows: RateRow[], codes: readonly string[]): string {
  const header = [keyName, 'assistant msgs', 'tool-use turns', ...codes.map((c) => `${c} (per tool-use turn)`)];
  const body = rows.map((r) => [
    r.key ?? 'unknown',
    String(r.assistant_messages),
    String(r.tool_use_turns),
    ...codes.map((c) => fmtRate(r.codes.find((x) => x.code === c)?.count ?? 0, r.tool_use_turns)),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((b) => b[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  return [title, line(header), ...body.map(line)].join('\n');
}

export function formatReport(report: ReportJson, filters: RateFilters): string {
  const codes = selectedCodes(filters);
  if (report.by_version.length === 0) return 'The index holds no assistant messages yet: run `index <dir>` first.\n';
  return `${table('Per version', 'version', report.by_version, codes)}\n\n${table('Per day (UTC)', 'day', report.by_day, codes)}\n`;
}
