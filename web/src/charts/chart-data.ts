import type { KeyedRow as RateRow } from '../lib/keyed-rows';

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
