import type { RateRow, RegressionsResponse, RegressionVerdict, SideFigures } from '../../shared/api-schemas';
import { fisherExact, perThousand } from '../../shared/statistics';
import type { Db } from '../store/database';
import { getRates, selectedCodes } from './get-rates';
import type { RateFilters } from './rate-filters';

export const ALPHA = 0.05;
/** Below this many tool-use turns a version, or either side of a day split, is not tested. */
export const MIN_TOOL_USE_TURNS = 200;

export const REGRESSION_METHOD =
  `Versions in semantic order; each version with at least ${MIN_TOOL_USE_TURNS} tool-use turns, after the first, is tested ` +
  `against the pooled figures of all earlier versions with a one-sided Fisher exact test (findings against tool-use turns ` +
  `without one). The first version whose p-value is below ${ALPHA} divided by the number of versions tested (Bonferroni) ` +
  `is named. On days: every split with at least ${MIN_TOOL_USE_TURNS} tool-use turns on each side is tested the same way ` +
  `(later days against earlier ones); the split with the smallest p-value is named when it beats ${ALPHA} divided by the number of splits.`;

interface Cell {
  key: string;
  k: number;
  n: number;
}

function figures(k: number, n: number): SideFigures {
  return { count: k, tool_use_turns: n, per_1000_tool_use_turns: perThousand(k, n) };
}

function cellsOf(rows: RateRow[], code: string): Cell[] {
  return rows
    .filter((r) => r.key !== null && r.tool_use_turns > 0)
    .map((r) => ({ key: r.key!, k: r.codes.find((c) => c.code === code)?.count ?? 0, n: r.tool_use_turns }));
}

const fmtRate = (f: SideFigures) => `${((f.count / Math.max(1, f.tool_use_turns)) * 1000).toFixed(1)}‰`;
const fmtP = (p: number) => (p < 1e-4 ? p.toExponential(1) : p.toPrecision(2));
const sum = (cells: Cell[]) => cells.reduce((acc, c) => ({ k: acc.k + c.k, n: acc.n + c.n }), { k: 0, n: 0 });

function empty(code: string, model: string | null, dimension: 'version' | 'day'): RegressionVerdict {
  return {
    code,
    model,
    dimension,
    status: 'insufficient_data',
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

/** The first version significantly above all earlier ones, or why none can be named. */
export function versionVerdict(code: string, model: string | null, cells: Cell[]): RegressionVerdict {
  const verdict = empty(code, model, 'version');
  const testable = cells.map((c, i) => ({ c, i })).filter(({ c, i }) => i > 0 && c.n >= MIN_TOOL_USE_TURNS && sum(cells.slice(0, i)).n >= MIN_TOOL_USE_TURNS);
  verdict.tests = testable.length;
  if (testable.length === 0) {
    verdict.summary = `${code}${model ? ` (${model})` : ''}: no claim — no version after the first has ${MIN_TOOL_USE_TURNS} tool-use turns with as many before it (${cells.length} version${cells.length === 1 ? '' : 's'} seen).`;
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
        before: figures(before.k, before.n),
        after: figures(after.k, after.n),
        p_value: p,
      });
      verdict.summary = `${code}${model ? ` (${model})` : ''}: ${fmtRate(verdict.before!)} up to ${verdict.last_good} (n=${before.n}), ${fmtRate(verdict.after!)} from ${c.key} (n=${after.n}), p=${fmtP(p)} (one-sided Fisher exact, Bonferroni threshold ${fmtP(threshold)}).`;
      return verdict;
    }
  }
  verdict.status = 'no_regression';
  verdict.summary = `${code}${model ? ` (${model})` : ''}: no version is significantly above all earlier ones (${testable.length} tested, Bonferroni threshold ${fmtP(threshold)}).`;
  return verdict;
}

/** The day split with the strongest sustained rise (later days against earlier ones), or why none. */
export function dayVerdict(code: string, model: string | null, cells: Cell[]): RegressionVerdict {
  const verdict = empty(code, model, 'day');
  const total = sum(cells);
  const splits: Array<{ i: number; p: number; before: { k: number; n: number } }> = [];
  let before = { k: 0, n: 0 };
  for (let i = 1; i < cells.length; i++) {
    before = { k: before.k + cells[i - 1]!.k, n: before.n + cells[i - 1]!.n };
    const after = { k: total.k - before.k, n: total.n - before.n };
    if (before.n < MIN_TOOL_USE_TURNS || after.n < MIN_TOOL_USE_TURNS) continue;
    splits.push({ i, before: { ...before }, p: fisherExact(after.k, after.n - after.k, before.k, before.n - before.k).greater });
  }
  verdict.tests = splits.length;
  if (splits.length === 0) {
    verdict.summary = `${code}${model ? ` (${model})` : ''}: no claim on days — fewer than ${MIN_TOOL_USE_TURNS} tool-use turns on one side of every split.`;
    return verdict;
  }
  const threshold = ALPHA / splits.length;
  verdict.threshold = threshold;
  const best = splits.reduce((a, b) => (b.p < a.p ? b : a));
  if (best.p >= threshold) {
    verdict.status = 'no_regression';
    verdict.summary = `${code}${model ? ` (${model})` : ''}: no day starts a significant rise (${splits.length} splits tested, Bonferroni threshold ${fmtP(threshold)}).`;
    return verdict;
  }
  const after = { k: total.k - best.before.k, n: total.n - best.before.n };
  Object.assign(verdict, {
    status: 'regression',
    last_good: cells[best.i - 1]!.key,
    first_bad: cells[best.i]!.key,
    before: figures(best.before.k, best.before.n),
    after: figures(after.k, after.n),
    p_value: best.p,
  });
  verdict.summary = `${code}${model ? ` (${model})` : ''}: ${fmtRate(verdict.before!)} up to ${verdict.last_good} (n=${best.before.n}), ${fmtRate(verdict.after!)} from ${verdict.first_bad} (n=${after.n}), p=${fmtP(best.p)} (one-sided Fisher exact, Bonferroni threshold ${fmtP(threshold)}).`;
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
      verdicts.push(versionVerdict(code, model, cellsOf(versions, code)));
      verdicts.push(dayVerdict(code, model, cellsOf(days, code)));
    }
  }
  return { method: REGRESSION_METHOD, alpha: ALPHA, min_tool_use_turns: MIN_TOOL_USE_TURNS, verdicts };
}
