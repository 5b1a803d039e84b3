import type { CodeRate, QuietCode, RateFigures } from './api-schemas';
import { codeFigures, type Denominators } from './denominators';
import { type FindingCode, isFindingCode } from './finding-codes';

/**
 * Rate answers sized to what is drawn (issue 32). /api/timeline, /api/versions and /api/version-models
 * send, in each row, only the codes the row counts findings of: a code with no finding in a row has
 * count 0, and its rate and interval follow from the row's own denominators (the code's opportunity is
 * one of them), so sending it repeated it ~20 times per row. The answer names, once, every code its
 * rows were figured for (`codes`, in order) and, of those, the ones with no finding anywhere in the
 * answer with their opportunities summed (`quiet_codes`: what the page lists as "no findings").
 * The page rebuilds the full rows with expandRates, identical to what the query layer made.
 */
export interface SparseRates<R> {
  rows: R[];
  codes: string[];
  quiet_codes: QuietCode[];
}

/** A code's figures in a row where it has no finding: what the query layer's codeRate gives for a count of 0. */
export function zeroCodeRate(code: FindingCode, d: Denominators): CodeRate {
  return codeFigures(code, 0, d);
}

/** Rows with every code (as the query layer makes them) → the sparse answer. */
export function sparseRates<R extends RateFigures>(rows: readonly R[]): SparseRates<R> {
  const codes = rows[0]?.codes.map((c) => c.code) ?? [];
  const totals = new Map(codes.map((code) => [code, { count: 0, opportunities: 0, opportunity: '' }]));
  for (const row of rows) {
    for (const c of row.codes) {
      const t = totals.get(c.code)!;
      t.count += c.count;
      t.opportunities += c.opportunities;
      t.opportunity = c.opportunity;
    }
  }
  return {
    rows: rows.map((row) => ({ ...row, codes: row.codes.filter((c) => c.count > 0) })),
    codes,
    quiet_codes: codes
      .filter((code) => totals.get(code)!.count === 0)
      .map((code) => ({ code, opportunity: totals.get(code)!.opportunity, opportunities: totals.get(code)!.opportunities })),
  };
}

/**
 * The sparse answer → rows with every code of `codes`, in that order (the page's tables and charts read
 * these). An answer without `codes` is whole already (rows as the query layer makes them): kept as it is.
 */
export function expandRates<R extends RateFigures>(answer: { rows: readonly R[]; codes?: readonly string[] }): R[] {
  if (answer.codes === undefined) return [...answer.rows];
  const codes = answer.codes.filter(isFindingCode);
  return answer.rows.map((row) => {
    const sent = new Map(row.codes.map((c) => [c.code, c]));
    return { ...row, codes: codes.map((code) => sent.get(code) ?? zeroCodeRate(code, row)) };
  });
}
