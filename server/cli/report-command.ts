import type { RateRow } from '../../shared/api-schemas';
import { formatCodeFigure, formatCoverage } from '../query/format-rate';
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

function table(title: string, keyName: string, rows: RateRow[], codes: readonly string[]): string {
  // Each code per 1,000 of its own opportunities; "not measurable (…)" where it has none, never 0‰.
  const header = [keyName, 'assistant msgs', 'tool-use turns', 'stop reason known', ...codes.map((c) => `${c} (per 1,000 opportunities)`)];
  const body = rows.map((r) => [
    r.key ?? 'unknown',
    String(r.assistant_messages),
    String(r.tool_use_turns),
    formatCoverage(r.stop_known_messages, r.assistant_messages),
    ...codes.map((c) => {
      const x = r.codes.find((y) => y.code === c);
      return x ? formatCodeFigure(x) : '0';
    }),
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
