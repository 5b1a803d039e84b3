import type { RateRow, RegressionsResponse, RegressionVerdict, SideFigures } from '../../shared/api-schemas';
import { FINDING_OPPORTUNITY, isFindingCode, NOT_MEASURABLE_REASON, type Opportunity } from '../../shared/finding-codes';
import { fisherExact } from '../../shared/statistics';
import type { Db } from '../store/database';
import { notMeasurableText, opportunityLabel } from './format-rate';
import { getRates, selectedCodes, sideFigures } from './get-rates';
import type { RateFilters } from './rate-filters';

export const ALPHA = 0.05;
/** Below this many opportunities (of the code's own kind) a version, or either side of a day split, is not tested. */
export const MIN_OPPORTUNITIES = 200;

export const REGRESSION_METHOD =
  `Each code over its own opportunities (the messages where it could fire: tool-use turns, messages with a recorded stop ` +
  `reason, model messages or stream-capture messages); versions or days where a code has none are not measurable and left out. ` +
  `Versions in semantic order; each version with at least ${MIN_OPPORTUNITIES} opportunities, after the first, is tested ` +
  `against the pooled figures of all earlier versions with a one-sided Fisher exact test (findings against opportunities ` +
  `without one). The first version whose p-value is below ${ALPHA} divided by the number of versions tested (Bonferroni) ` +
  `is named. On days: every split with at least ${MIN_OPPORTUNITIES} opportunities on each side is tested the same way ` +
  `(later days against earlier ones); the split with the smallest p-value is named when it beats ${ALPHA} divided by the number of splits.`;

/** One version or day for one code: k findings over n opportunities (t tool-use turns, n when absent). */
export interface Cell {
  key: string;
  k: number;
  n: number;
  t?: number;
}

/** Measurable cells of one code (in the rows' order), and the keys where it had no opportunities. */
export function cellsOf(rows: RateRow[], code: string): { cells: Cell[]; notMeasurable: string[] } {
  const cells: Cell[] = [];
  const notMeasurable: string[] = [];
  for (const r of rows) {
    if (r.key === null) continue;
    const c = r.codes.find((x) => x.code === code);
    if (!c || c.opportunities <= 0) notMeasurable.push(r.key);
    else cells.push({ key: r.key, k: c.count, n: c.opportunities, t: r.tool_use_turns });
  }
  return { cells, notMeasurable };
}

const opportunityOf = (code: string): Opportunity => (isFindingCode(code) ? FINDING_OPPORTUNITY[code] : 'tool_use_turns');
const fmtRate = (f: SideFigures) => `${((f.count / Math.max(1, f.opportunities)) * 1000).toFixed(1)}‰`;
const fmtP = (p: number) => (p < 1e-4 ? p.toExponential(1) : p.toPrecision(2));
const sum = (cells: Cell[]) => cells.reduce((acc, c) => ({ k: acc.k + c.k, n: acc.n + c.n, t: acc.t + (c.t ?? c.n) }), { k: 0, n: 0, t: 0 });
const who = (code: string, model: string | null) => `${code}${model ? ` (${model})` : ''}`;

function empty(code: string, model: string | null, dimension: 'version' | 'day', notMeasurable: string[]): RegressionVerdict {
  return {
    code,
    model,
    dimension,
    status: 'insufficient_data',
    opportunity: opportunityOf(code),
    not_measurable: null,
    not_measurable_keys: notMeasurable,
    last_good: null,
    first_bad: null,
    before: null,
    after: null,
    p_value: null,
    threshold: null,
    tests: 0,
    summary: '',
  };
}

/** Where nothing was measurable: the verdict says so; otherwise a note on what was left out (or ''). */
function notMeasurableNote(verdict: RegressionVerdict, measured: number, noun: string): string {
  const keys = verdict.not_measurable_keys;
  const reason = NOT_MEASURABLE_REASON[verdict.opportunity as Opportunity] ?? 'no_tool_use_turns';
  if (measured === 0) {
    verdict.status = 'not_measurable';
    verdict.not_measurable = reason;
    const where = keys.length === 0 ? '' : ` in every ${noun} seen (${keys.length}: ${keys[0]}${keys.length > 1 ? `–${keys[keys.length - 1]}` : ''})`;
    return `${who(verdict.code, verdict.model)}: ${notMeasurableText(reason)}${where}; no claim.`;
  }
  if (keys.length === 0) return '';
  const list = keys.length <= 4 ? keys.join(', ') : `${keys[0]}, …, ${keys[keys.length - 1]}`;
  return ` Left out, ${notMeasurableText(reason)}: ${keys.length} ${noun}${keys.length === 1 ? '' : 's'} (${list}).`;
}

/** The first version significantly above all earlier ones, or why none can be named. Cells: measurable versions only. */
export function versionVerdict(code: string, model: string | null, cells: Cell[], notMeasurable: string[] = []): RegressionVerdict {
  const verdict = empty(code, model, 'version', notMeasurable);
  const label = opportunityLabel(verdict.opportunity);
  const note = notMeasurableNote(verdict, cells.length, 'version');
  if (verdict.status === 'not_measurable') {
    verdict.summary = note;
    return verdict;
  }
  const testable = cells.map((c, i) => ({ c, i })).filter(({ c, i }) => i > 0 && c.n >= MIN_OPPORTUNITIES && sum(cells.slice(0, i)).n >= MIN_OPPORTUNITIES);
  verdict.tests = testable.length;
  if (testable.length === 0) {
    verdict.summary = `${who(code, model)}: no claim — no version after the first has ${MIN_OPPORTUNITIES} ${label} with as many before it (${cells.length} measurable version${cells.length === 1 ? '' : 's'} seen).${note}`;
    return verdict;
  }
  const threshold = ALPHA / testable.length;
  verdict.threshold = threshold;
  for (const { c, i } of testable) {
    const before = sum(cells.slice(0, i));
    const p = fisherExact(c.k, c.n - c.k, before.k, before.n - before.k).greater;
    if (p < threshold) {
      const after = sum(cells.slice(i));
      Object.assign(verdict, {
        status: 'regression',
        last_good: cells[i - 1]!.key,
        first_bad: c.key,
        before: sideFigures(verdict.opportunity as Opportunity, before.k, before.n, before.t),
        after: sideFigures(verdict.opportunity as Opportunity, after.k, after.n, after.t),
        p_value: p,
      });
      verdict.summary = `${who(code, model)}: ${fmtRate(verdict.before!)} up to ${verdict.last_good} (n=${before.n}), ${fmtRate(verdict.after!)} from ${c.key} (n=${after.n}), p=${fmtP(p)} (per 1,000 ${label}; one-sided Fisher exact, Bonferroni threshold ${fmtP(threshold)}).${note}`;
      return verdict;
    }
  }
  verdict.status = 'no_regression';
  verdict.summary = `${who(code, model)}: no version is significantly above all earlier ones (${testable.length} tested over ${label}, Bonferroni threshold ${fmtP(threshold)}).${note}`;
  return verdict;
}

/** The day split with the strongest sustained rise (later days against earlier ones), or why none. Cells: measurable days only. */
export function dayVerdict(code: string, model: string | null, cells: Cell[], notMeasurable: string[] = []): RegressionVerdict {
  const verdict = empty(code, model, 'day', notMeasurable);
  const label = opportunityLabel(verdict.opportunity);
  const note = notMeasurableNote(verdict, cells.length, 'day');
  if (verdict.status === 'not_measurable') {
    verdict.summary = note;
    return verdict;
  }
  const total = sum(cells);
  const splits: Array<{ i: number; p: number; before: { k: number; n: number; t: number } }> = [];
  let before = { k: 0, n: 0, t: 0 };
  for (let i = 1; i < cells.length; i++) {
    const c = cells[i - 1]!;
    before = { k: before.k + c.k, n: before.n + c.n, t: before.t + (c.t ?? c.n) };
    const after = { k: total.k - before.k, n: total.n - before.n };
    if (before.n < MIN_OPPORTUNITIES || after.n < MIN_OPPORTUNITIES) continue;
    splits.push({ i, before: { ...before }, p: fisherExact(after.k, after.n - after.k, before.k, before.n - before.k).greater });
  }
  verdict.tests = splits.length;
  if (splits.length === 0) {
    verdict.summary = `${who(code, model)}: no claim on days — fewer than ${MIN_OPPORTUNITIES} ${label} on one side of every split.${note}`;
    return verdict;
  }
  const threshold = ALPHA / splits.length;
  verdict.threshold = threshold;
  const best = splits.reduce((a, b) => (b.p < a.p ? b : a));
  if (best.p >= threshold) {
    verdict.status = 'no_regression';
    verdict.summary = `${who(code, model)}: no day starts a significant rise (${splits.length} splits tested over ${label}, Bonferroni threshold ${fmtP(threshold)}).${note}`;
    return verdict;
  }
  const after = { k: total.k - best.before.k, n: total.n - best.before.n, t: total.t - best.before.t };
  Object.assign(verdict, {
    status: 'regression',
    last_good: cells[best.i - 1]!.key,
    first_bad: cells[best.i]!.key,
    before: sideFigures(verdict.opportunity as Opportunity, best.before.k, best.before.n, best.before.t),
    after: sideFigures(verdict.opportunity as Opportunity, after.k, after.n, after.t),
    p_value: best.p,
  });
  verdict.summary = `${who(code, model)}: ${fmtRate(verdict.before!)} up to ${verdict.last_good} (n=${best.before.n}), ${fmtRate(verdict.after!)} from ${verdict.first_bad} (n=${after.n}), p=${fmtP(best.p)} (per 1,000 ${label}; one-sided Fisher exact, Bonferroni threshold ${fmtP(threshold)}).${note}`;
  return verdict;
}

/** Regression verdicts per finding code, for every model together and for each model. */
export function getRegressions(db: Db, filters: RateFilters = {}): RegressionsResponse {
  const models = [null, ...getRates(db, 'model', { ...filters, codes: [] }).flatMap((r) => (r.key ? [r.key] : []))].filter(
    (m) => m === null || !filters.models?.length || filters.models.includes(m),
  );
  const verdicts: RegressionVerdict[] = [];
  for (const model of models) {
    const scoped: RateFilters = model === null ? filters : { ...filters, models: [model] };
    const versions = getRates(db, 'version', scoped);
    const days = getRates(db, 'day', scoped);
    for (const code of selectedCodes(filters)) {
      const v = cellsOf(versions, code);
      const d = cellsOf(days, code);
      verdicts.push(versionVerdict(code, model, v.cells, v.notMeasurable));
      verdicts.push(dayVerdict(code, model, d.cells, d.notMeasurable));
    }
  }
  return { method: REGRESSION_METHOD, alpha: ALPHA, min_opportunities: MIN_OPPORTUNITIES, min_tool_use_turns: MIN_OPPORTUNITIES, verdicts };
}
