import type { KeyedRow as RateRow } from '../lib/keyed-rows';

/** One point of the timeline: the bucket, its denominator, and per code the rate and its interval band. */
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
      }
      return point;
    });
}

export interface WhiskerPoint {
  key: string;
  rate: number;
  /** Distances below and above the rate to the 95% interval's ends, as Recharts' ErrorBar wants them. */
  error: [number, number] | null;
  /** A folded range's description ("2.1.43–2.1.52, 7 versions, 412 turns"). */
  label?: string;
  low: number;
  high: number;
  count: number;
  tool_use_turns: number;
}

/**
 * Rate per 1,000 of one code's own opportunities per row (versions, ranges or models), with
 * whiskers where it has findings; rows where the code is not measurable are left out (a gap).
 */
export function whiskerSeries(rows: readonly RateRow[], code: string, labels?: ReadonlyMap<string, string>): WhiskerPoint[] {
  return rows.flatMap((r) => {
    const c = r.codes.find((x) => x.code === code);
    const i = c?.per_1000_opportunities ?? null;
    if (i === null || !c) return [];
    const key = r.key ?? 'unknown';
    return [
      {
        key,
        rate: i.rate,
        error: c.count > 0 ? ([i.rate - i.low, i.high - i.rate] as [number, number]) : null,
        low: i.low,
        high: i.high,
        count: c.count,
        tool_use_turns: c.opportunities,
        ...(labels?.has(key) ? { label: labels.get(key) } : {}),
      },
    ];
  });
}
