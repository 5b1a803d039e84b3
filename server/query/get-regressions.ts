import type { CardCode, CardSide, RateRow, RegressionsResponse, RegressionVerdict, SideFigures, VerdictCard } from '../../shared/api-schemas';
import { FINDING_OPPORTUNITY, type FindingCode } from '../../shared/finding-codes';
import { opportunityWords } from '../../shared/opportunity-words';
import { fisherExact, perThousand, rateRatio } from '../../shared/statistics';
import type { Db } from '../store/database';
import { getRates, selectedCodes } from './get-rates';
import { cellFilterSql, type FilterParams, filterParams, type RateFilters } from './rate-filters';

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
  return { method: REGRESSION_METHOD, alpha: ALPHA, min_tool_use_turns: MIN_TOOL_USE_TURNS, verdicts, ...getVerdictCards(db, filters) };
}

/** Most findings one session (file) may add per code and version or day, so a looping session cannot make a regression alone. */
export const SESSION_CAP = 3;
/** A regression is "strong evidence" when it passes the corrected threshold with at least this many sessions and findings after it. */
export const STRONG_MIN_SESSIONS = 3;
export const STRONG_MIN_FINDINGS = 5;

export const CARD_TEST =
  `Findings are counted at most ${SESSION_CAP} per session (file) per code and version or day, over each code's own opportunities. ` +
  `By version: each version with at least ${MIN_TOOL_USE_TURNS} opportunities, after the first, against all earlier versions pooled, one-sided Fisher exact test, ` +
  `Bonferroni correction over the versions tested; the first version below the corrected threshold is named. By day: every split with ${MIN_TOOL_USE_TURNS} ` +
  `opportunities on each side, the smallest p-value, Bonferroni over the splits. "Strong evidence": below the threshold with at least ${STRONG_MIN_SESSIONS} ` +
  `sessions and ${STRONG_MIN_FINDINGS} findings after; "suggestive": below the threshold with fewer.`;

interface CardCell {
  key: string;
  k: number;
  events: number;
  files: Set<number>;
  n: number;
}

const CARD_KEY_SQL = { version: 'c.version', day: 'c.day' } as const;

function prepareSessionCounts(db: Db, dimension: 'version' | 'day') {
  return db.prepare<FilterParams, { key: string; code: string; file: number; n: number }>(`
    SELECT ${CARD_KEY_SQL[dimension]} AS key, fi.code AS code, fi.file_id AS file, count(*) AS n
    FROM findings fi JOIN cells c ON c.id = fi.cell_id JOIN files f ON f.id = fi.file_id
    WHERE fi.counted = 1 AND ${cellFilterSql('f.root_id')}
      AND (@codes IS NULL OR fi.code IN (SELECT value FROM json_each(@codes)))
    GROUP BY 1, 2, 3`);
}

const sessionStatements = new WeakMap<Db, { version: ReturnType<typeof prepareSessionCounts>; day: ReturnType<typeof prepareSessionCounts> }>();

/** Per key (version or day) and code: capped findings, raw events, the sessions holding them, and the code's opportunities. */
function cardCells(db: Db, dimension: 'version' | 'day', rows: RateRow[], filters: RateFilters): Map<string, CardCell[]> {
  let st = sessionStatements.get(db);
  if (!st) sessionStatements.set(db, (st = { version: prepareSessionCounts(db, 'version'), day: prepareSessionCounts(db, 'day') }));
  const perKey = new Map<string, { k: number; events: number; files: Set<number> }>();
  for (const r of st[dimension].all(filterParams(filters))) {
    const id = `${r.key}\u0000${r.code}`;
    let e = perKey.get(id);
    if (!e) perKey.set(id, (e = { k: 0, events: 0, files: new Set() }));
    e.k += Math.min(r.n, SESSION_CAP);
    e.events += r.n;
    e.files.add(r.file);
  }
  const out = new Map<string, CardCell[]>();
  for (const code of selectedCodes(filters)) {
    out.set(
      code,
      rows.flatMap((r) => {
        const c = r.codes.find((x) => x.code === code);
        if (r.key === null || !c || c.opportunities <= 0) return [];
        const e = perKey.get(`${r.key}\u0000${code}`);
        return [{ key: r.key, k: e?.k ?? 0, events: e?.events ?? 0, files: e?.files ?? new Set<number>(), n: c.opportunities }];
      }),
    );
  }
  return out;
}

function side(cells: CardCell[]): CardSide {
  const files = new Set<number>();
  let k = 0;
  let events = 0;
  let n = 0;
  for (const c of cells) {
    k += c.k;
    events += c.events;
    n += c.n;
    for (const f of c.files) files.add(f);
  }
  return { count: k, events, sessions: files.size, opportunities: n, per_1000_opportunities: perThousand(k, n) };
}

interface ChangePoint {
  i: number;
  p: number;
  threshold: number;
  tests: number;
}

/** Version order: the first version significantly above all earlier ones pooled (Bonferroni). */
function versionChange(cells: CardCell[]): { change: ChangePoint | null; tests: number } {
  const prefix: number[] = [];
  cells.reduce((n, c, i) => (prefix[i] = n) + c.n, 0);
  const testable = cells.map((c, i) => ({ c, i })).filter(({ c, i }) => i > 0 && c.n >= MIN_TOOL_USE_TURNS && prefix[i]! >= MIN_TOOL_USE_TURNS);
  if (testable.length === 0) return { change: null, tests: 0 };
  const threshold = ALPHA / testable.length;
  for (const { c, i } of testable) {
    const before = side(cells.slice(0, i));
    const p = fisherExact(c.k, c.n - c.k, before.count, before.opportunities - before.count).greater;
    if (p < threshold) return { change: { i, p, threshold, tests: testable.length }, tests: testable.length };
  }
  return { change: null, tests: testable.length };
}

/** Day order: the split (later days against earlier) with the smallest p-value, when it beats ALPHA over the number of splits. */
function dayChange(cells: CardCell[]): { change: ChangePoint | null; tests: number } {
  const total = side(cells);
  let best: { i: number; p: number } | null = null;
  let tests = 0;
  let bk = 0;
  let bn = 0;
  for (let i = 1; i < cells.length; i++) {
    bk += cells[i - 1]!.k;
    bn += cells[i - 1]!.n;
    const ak = total.count - bk;
    const an = total.opportunities - bn;
    if (bn < MIN_TOOL_USE_TURNS || an < MIN_TOOL_USE_TURNS) continue;
    tests++;
    if (total.count === 0) continue;
    const p = fisherExact(ak, an - ak, bk, bn - bk).greater;
    if (best === null || p < best.p) best = { i, p };
  }
  if (best === null || tests === 0) return { change: null, tests };
  const threshold = ALPHA / tests;
  return { change: best.p < threshold ? { ...best, threshold, tests } : null, tests };
}

function cardCode(code: string, cells: CardCell[], change: ChangePoint): CardCode {
  const before = side(cells.slice(0, change.i));
  const after = side(cells.slice(change.i));
  return {
    code,
    opportunity: FINDING_OPPORTUNITY[code as FindingCode],
    before,
    after,
    rate_ratio: before.count + after.count === 0 ? null : rateRatio(after.count, after.opportunities, before.count, before.opportunities),
    p_value: change.p,
    threshold: change.threshold,
    tests: change.tests,
  };
}

/**
 * Verdict cards for one dimension: codes stepping up at the same version (or day) grouped into
 * one card; codes with findings that could not be tested get a "not enough data" card naming
 * how many more opportunities the place holding them needs. `noClaim` says in one line why
 * nothing is named, when no card names a change.
 */
export function buildCards(
  dimension: 'version' | 'day',
  cellsByCode: Map<string, CardCell[]>,
  toolUseTurns: number,
): { cards: VerdictCard[]; noClaim: string | null } {
  const groups = new Map<string, { lastGood: string; firstBad: string; codes: CardCode[] }>();
  const thin = new Map<string, { key: string; need: number; opportunity: string; codes: CardCode[] }>();
  let tests = 0;
  let anyFindings = false;
  const keys = new Set<string>();
  for (const [code, cells] of cellsByCode) {
    const found = cells.reduce((n, c) => n + c.events, 0);
    anyFindings ||= found > 0;
    for (const c of cells) keys.add(c.key);
    const { change, tests: t } = dimension === 'version' ? versionChange(cells) : dayChange(cells);
    tests += t;
    if (change) {
      const id = `${cells[change.i - 1]!.key}→${cells[change.i]!.key}`;
      let g = groups.get(id);
      if (!g) groups.set(id, (g = { lastGood: cells[change.i - 1]!.key, firstBad: cells[change.i]!.key, codes: [] }));
      g.codes.push(cardCode(code, cells, change));
      continue;
    }
    if (found === 0) continue;
    // Findings, but no change could be named: where are they, and could that place be tested at all?
    const holding = cells.filter((c) => c.events > 0).sort((a, b) => b.k / b.n - a.k / a.n)[0]!;
    const idx = cells.indexOf(holding);
    const beforeN = cells.slice(0, idx).reduce((n, c) => n + c.n, 0);
    if (holding.n >= MIN_TOOL_USE_TURNS && (dimension === 'day' || beforeN >= MIN_TOOL_USE_TURNS)) continue; // tested: no regression
    const need = Math.max(MIN_TOOL_USE_TURNS - holding.n, idx === 0 || dimension === 'day' ? 0 : MIN_TOOL_USE_TURNS - beforeN, 1);
    const opportunity = FINDING_OPPORTUNITY[code as FindingCode];
    const id = `${holding.key}|${opportunity}`;
    let g = thin.get(id);
    if (!g) thin.set(id, (g = { key: holding.key, need, opportunity, codes: [] }));
    g.need = Math.max(g.need, need);
    const before = side(cells.slice(0, idx));
    const after = side([holding]);
    g.codes.push({
      code,
      opportunity,
      before,
      after,
      rate_ratio: null,
      p_value: null,
      threshold: null,
      tests: t,
    });
  }
  const cards: VerdictCard[] = [];
  for (const [id, g] of groups) {
    const strong = g.codes.some((c) => c.after.sessions >= STRONG_MIN_SESSIONS && c.after.count >= STRONG_MIN_FINDINGS);
    cards.push({
      id: `${dimension}:${id}`,
      dimension,
      strength: strong ? 'strong' : 'suggestive',
      strength_text: strong
        ? 'strong evidence'
        : `suggestive: significant, but from fewer than ${STRONG_MIN_SESSIONS} sessions or ${STRONG_MIN_FINDINGS} findings after the change`,
      last_good: g.lastGood,
      first_bad: g.firstBad,
      codes: g.codes.sort((a, b) => b.after.count - a.after.count),
      test: CARD_TEST,
    });
  }
  cards.sort((a, b) =>
    a.strength === b.strength
      ? Math.min(...a.codes.map((c) => c.p_value ?? 1)) - Math.min(...b.codes.map((c) => c.p_value ?? 1))
      : a.strength === 'strong'
        ? -1
        : 1,
  );
  for (const [, g] of thin) {
    cards.push({
      id: `${dimension}:thin:${g.key}:${g.opportunity}`,
      dimension,
      strength: 'insufficient',
      strength_text: `not enough data: needs ~${g.need} more ${opportunityWords(g.opportunity)} on ${g.key}`,
      last_good: null,
      first_bad: g.key,
      codes: g.codes,
      test: CARD_TEST,
    });
  }
  let noClaim: string | null = null;
  if (groups.size === 0) {
    const where = dimension === 'version' ? `${keys.size} version${keys.size === 1 ? '' : 's'}` : `${keys.size} day${keys.size === 1 ? '' : 's'}`;
    noClaim = !anyFindings
      ? `No regression: no findings in ${toolUseTurns.toLocaleString('en-US')} tool-use turns across ${where}.`
      : tests === 0
        ? `No regression can be named: no ${dimension} has ${MIN_TOOL_USE_TURNS} opportunities with as many before it (${where}).`
        : `No regression: no ${dimension === 'version' ? 'version' : 'day'} is significantly above the ones before it (${tests} tests across ${where}, Bonferroni-corrected).`;
  }
  return { cards, noClaim };
}

/** The verdict cards for both dimensions, over every model together. */
export function getVerdictCards(db: Db, filters: RateFilters = {}): Pick<RegressionsResponse, 'cards' | 'no_claim' | 'session_cap'> {
  const versions = getRates(db, 'version', filters);
  const days = getRates(db, 'day', filters);
  const turns = versions.reduce((n, r) => n + r.tool_use_turns, 0);
  const version = buildCards('version', cardCells(db, 'version', versions, filters), turns);
  const day = buildCards('day', cardCells(db, 'day', days, filters), turns);
  return { cards: [...version.cards, ...day.cards], no_claim: { version: version.noClaim, day: day.noClaim }, session_cap: SESSION_CAP };
}
