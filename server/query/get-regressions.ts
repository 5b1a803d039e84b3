import type { CardCode, CardSide, RegressionsResponse, RegressionVerdict, SideFigures, VerdictCard } from '../../shared/api-schemas';
import { NOT_MEASURABLE_REASON, type Opportunity, opportunityOf } from '../../shared/denominators';
import { opportunityWords } from '../../shared/format/opportunity-words';
import { formatP } from '../../shared/format/p-value';
import { fisherExact, perThousand, rateRatio } from '../../shared/statistics';
import { compareVersions } from '../../shared/version-order';
import type { Db } from '../store/database';
import { prepared } from '../store/prepared';
import { addCoincidences } from './card-confounds';
import { notMeasurableText, opportunityLabel } from './format-rate';
import { getRates, type RateRow, selectedCodes, sideFigures } from './get-rates';
import { cellFilterSql, type FilterParams, filterParams, type RateFilters } from './rate-filters';

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

const fmtRate = (f: SideFigures) => `${((f.count / Math.max(1, f.opportunities)) * 1000).toFixed(1)}‰`;
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
      verdict.summary = `${who(code, model)}: ${fmtRate(verdict.before!)} up to ${verdict.last_good} (n=${before.n}), ${fmtRate(verdict.after!)} from ${c.key} (n=${after.n}), p=${formatP(p)} (per 1,000 ${label}; one-sided Fisher exact, Bonferroni threshold ${formatP(threshold)}).${note}`;
      return verdict;
    }
  }
  verdict.status = 'no_regression';
  verdict.summary = `${who(code, model)}: no version is significantly above all earlier ones (${testable.length} tested over ${label}, Bonferroni threshold ${formatP(threshold)}).${note}`;
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
    verdict.summary = `${who(code, model)}: no day starts a significant rise (${splits.length} splits tested over ${label}, Bonferroni threshold ${formatP(threshold)}).${note}`;
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
  verdict.summary = `${who(code, model)}: ${fmtRate(verdict.before!)} up to ${verdict.last_good} (n=${best.before.n}), ${fmtRate(verdict.after!)} from ${verdict.first_bad} (n=${after.n}), p=${formatP(best.p)} (per 1,000 ${label}; one-sided Fisher exact, Bonferroni threshold ${formatP(threshold)}).${note}`;
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
  return {
    method: REGRESSION_METHOD,
    alpha: ALPHA,
    min_opportunities: MIN_OPPORTUNITIES,
    min_tool_use_turns: MIN_OPPORTUNITIES,
    verdicts,
    ...getVerdictCards(db, filters),
  };
}

/** Most findings one session (file) may add per code and version or day, so a looping session cannot make a regression alone. */
export const SESSION_CAP = 3;
/** A regression is "strong evidence" when it passes the corrected threshold with at least this many sessions and findings after it. */
export const STRONG_MIN_SESSIONS = 3;
export const STRONG_MIN_FINDINGS = 5;

export const CARD_TEST =
  `Findings are counted at most ${SESSION_CAP} per session (file) per code and version or day, over each code's own opportunities. ` +
  `By version: each version with at least ${MIN_OPPORTUNITIES} opportunities, after the first, against all earlier versions pooled, one-sided Fisher exact test, ` +
  `Bonferroni correction over the versions tested; the first version below the corrected threshold is named. By day: every split with ${MIN_OPPORTUNITIES} ` +
  `opportunities on each side, the smallest p-value, Bonferroni over the splits. "Strong evidence": below the threshold with at least ${STRONG_MIN_SESSIONS} ` +
  `sessions and ${STRONG_MIN_FINDINGS} findings after; "suggestive": below the threshold with fewer. ` +
  'Findings imported from other machines (import-aggregates) arrive capped per session and cell on their machine, with the number of sessions holding them per cell ' +
  '(a session whose findings of one code fall in two cells, e.g. across midnight, counts in each); machines imported from files before aggregate schema 2 count in full, as one session each.';

interface CardCell {
  key: string;
  k: number;
  events: number;
  /** Local sessions (file ids) and legacy team machines (negated ids): counted once per side however many keys they span. */
  files: Set<number>;
  /** Team sessions: counted per machine and cell on their machine, so they add up (their files never left it). */
  teamSessions?: number;
  n: number;
}

const CARD_KEY_SQL = { version: 'c.version', day: 'c.day' } as const;

/**
 * Findings per key, code and session (file), with imported team rows (migrations 009, 014) beside
 * them. A team row is one machine's count for a cell and code, exported (aggregate schema 2) with
 * the sessions holding it in that cell and its findings capped per session in that cell; its
 * sessions never left the machine, so they are a count (`sessions`), not ids. Rows imported from
 * schema-1 files (sessions NULL) count in full, and their machine as one session, as before.
 * Team rows have no folder, so a folder filter leaves them out (as in team-database.ts). `file` is the
 * file id for local rows and the negated machine id for team rows, so the two never collide.
 */
function prepareSessionCounts(db: Db, dimension: 'version' | 'day') {
  return db.prepare<FilterParams, { key: string; code: string; file: number; n: number; capped: number; sessions: number | null; team: 0 | 1 }>(`
    SELECT ${CARD_KEY_SQL[dimension]} AS key, fi.code AS code, fi.file_id AS file, count(*) AS n, min(count(*), ${SESSION_CAP}) AS capped,
           1 AS sessions, 0 AS team
    FROM findings fi JOIN cells c ON c.id = fi.cell_id JOIN files f ON f.id = fi.file_id
    WHERE fi.counted = 1 AND ${cellFilterSql('f.root_id')}
      AND (@codes IS NULL OR fi.code IN (SELECT value FROM json_each(@codes)))
    GROUP BY 1, 2, 3
    UNION ALL
    SELECT ${CARD_KEY_SQL[dimension]} AS key, tf.code AS code, -tf.machine_id AS file, sum(tf.findings) AS n,
           sum(coalesce(tf.capped_findings, tf.findings)) AS capped, sum(tf.sessions) AS sessions, 1 AS team
    FROM team_findings tf JOIN cells c ON c.id = tf.cell_id
    WHERE ${cellFilterSql('NULL')}
      AND (@codes IS NULL OR tf.code IN (SELECT value FROM json_each(@codes)))
    GROUP BY 1, 2, 3`);
}

const prepareCardStatements = (db: Db) => ({ version: prepareSessionCounts(db, 'version'), day: prepareSessionCounts(db, 'day') });

/** Per key (version or day) and code: capped findings, raw events, the sessions holding them, and the code's opportunities. */
function cardCells(db: Db, dimension: 'version' | 'day', rows: RateRow[], filters: RateFilters): Map<string, CardCell[]> {
  const st = prepared(db, prepareCardStatements);
  const perKey = new Map<string, { k: number; events: number; files: Set<number>; teamSessions: number }>();
  for (const r of st[dimension].all(filterParams(filters))) {
    const id = `${r.key}\u0000${r.code}`;
    let e = perKey.get(id);
    if (!e) perKey.set(id, (e = { k: 0, events: 0, files: new Set(), teamSessions: 0 }));
    e.k += r.capped;
    e.events += r.n;
    if (r.team && r.sessions !== null) e.teamSessions += r.sessions;
    else e.files.add(r.file);
  }
  const out = new Map<string, CardCell[]>();
  for (const code of selectedCodes(filters)) {
    out.set(
      code,
      rows.flatMap((r) => {
        const c = r.codes.find((x) => x.code === code);
        if (r.key === null || !c || c.opportunities <= 0) return [];
        const e = perKey.get(`${r.key}\u0000${code}`);
        return [
          { key: r.key, k: e?.k ?? 0, events: e?.events ?? 0, files: e?.files ?? new Set<number>(), teamSessions: e?.teamSessions ?? 0, n: c.opportunities },
        ];
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
  let teamSessions = 0;
  for (const c of cells) {
    k += c.k;
    events += c.events;
    n += c.n;
    teamSessions += c.teamSessions ?? 0;
    for (const f of c.files) files.add(f);
  }
  return { count: k, events, sessions: files.size + teamSessions, opportunities: n, per_1000_opportunities: perThousand(k, n) };
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
  const testable = cells.map((c, i) => ({ c, i })).filter(({ c, i }) => i > 0 && c.n >= MIN_OPPORTUNITIES && prefix[i]! >= MIN_OPPORTUNITIES);
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
    if (bn < MIN_OPPORTUNITIES || an < MIN_OPPORTUNITIES) continue;
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
    opportunity: opportunityOf(code),
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
  const groups = new Map<string, { lastGood: string; firstBad: string; first: number; codes: CardCode[] }>();
  const thin = new Map<string, { key: string; need: number; opportunity: string; first: number; codes: CardCode[] }>();
  // Every code's cells share one order of keys: the first finding is the smallest index holding one.
  const order = new Map<string, number>();
  const keyAt: string[] = [];
  for (const cells of cellsByCode.values())
    for (const c of cells)
      if (!order.has(c.key)) {
        order.set(c.key, 0);
        keyAt.push(c.key);
      }
  keyAt.sort(dimension === 'version' ? compareVersions : (a, b) => (a < b ? -1 : a > b ? 1 : 0));
  for (const [i, k] of keyAt.entries()) order.set(k, i);
  const firstWithFindings = (cells: CardCell[], from: number) => {
    const c = cells.slice(from).find((x) => x.events > 0);
    return c ? order.get(c.key)! : Number.POSITIVE_INFINITY;
  };
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
      if (!g) groups.set(id, (g = { lastGood: cells[change.i - 1]!.key, firstBad: cells[change.i]!.key, first: Number.POSITIVE_INFINITY, codes: [] }));
      g.first = Math.min(g.first, firstWithFindings(cells, change.i));
      g.codes.push(cardCode(code, cells, change));
      continue;
    }
    if (found === 0) continue;
    // Findings, but no change could be named: where are they, and could that place be tested at all?
    const holding = cells.filter((c) => c.events > 0).sort((a, b) => b.k / b.n - a.k / a.n)[0]!;
    const idx = cells.indexOf(holding);
    const beforeN = cells.slice(0, idx).reduce((n, c) => n + c.n, 0);
    if (holding.n >= MIN_OPPORTUNITIES && (dimension === 'day' || beforeN >= MIN_OPPORTUNITIES)) continue; // tested: no regression
    const need = Math.max(MIN_OPPORTUNITIES - holding.n, idx === 0 || dimension === 'day' ? 0 : MIN_OPPORTUNITIES - beforeN, 1);
    const opportunity = opportunityOf(code);
    const id = `${holding.key}|${opportunity}`;
    let g = thin.get(id);
    if (!g) thin.set(id, (g = { key: holding.key, need, opportunity, first: Number.POSITIVE_INFINITY, codes: [] }));
    g.need = Math.max(g.need, need);
    g.first = Math.min(g.first, firstWithFindings(cells, 0));
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
      first_finding: keyAt[g.first] ?? null,
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
      first_finding: keyAt[g.first] ?? null,
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
        ? `No regression can be named: no ${dimension} has ${MIN_OPPORTUNITIES} opportunities with as many before it (${where}).`
        : `No regression: no ${dimension === 'version' ? 'version' : 'day'} is significantly above the ones before it (${tests} tests across ${where}, Bonferroni-corrected).`;
  }
  return { cards, noClaim };
}

/** The verdict cards for both dimensions, over every model together. */
export function getVerdictCards(db: Db, filters: RateFilters = {}): Pick<RegressionsResponse, 'rows' | 'no_claim' | 'session_cap'> {
  const versions = getRates(db, 'version', filters);
  const days = getRates(db, 'day', filters);
  const turns = versions.reduce((n, r) => n + r.tool_use_turns, 0);
  const version = buildCards('version', cardCells(db, 'version', versions, filters), turns);
  const day = buildCards('day', cardCells(db, 'day', days, filters), turns);
  addCoincidences(db, version.cards, filters);
  addCoincidences(db, day.cards, filters);
  return { rows: [...version.cards, ...day.cards], no_claim: { version: version.noClaim, day: day.noClaim }, session_cap: SESSION_CAP };
}
