import type { KeyedRow as RateRow } from './keyed-rows';

/** RFC 4180 CSV: every field quoted when it holds a comma, quote or line break. */
export function toCsv(rows: ReadonlyArray<Record<string, string | number | null>>): string {
  if (rows.length === 0) return '';
  const heads = Object.keys(rows[0]!);
  const cell = (v: string | number | null) => {
    const s = v === null ? '' : String(v);
    return /[",\r\n]/.test(s) ? `"${s.replaceAll('"', '""')}"` : s;
  };
  return `${[heads.map(cell).join(','), ...rows.map((r) => heads.map((h) => cell(r[h] ?? null)).join(','))].join('\r\n')}\r\n`;
}

/** Rate rows flattened: one column per code's count, opportunities and rate (empty when not measurable). */
export function rateRowsCsv(rows: readonly RateRow[], keyName: string): Array<Record<string, string | number | null>> {
  return rows.map((r) => {
    const o: Record<string, string | number | null> = {
      [keyName]: r.key ?? 'unknown',
      assistant_messages: r.assistant_messages,
      tool_use_turns: r.tool_use_turns,
    };
    for (const c of r.codes) {
      o[`${c.code}_count`] = c.count;
      o[`${c.code}_opportunities`] = c.opportunities;
      o[`${c.code}_per_1000`] = c.per_1000_opportunities?.rate ?? null;
    }
    return o;
  });
}
