import { AGENTS } from '../../shared/agents';
import type { CodeRate, RateFigures, SideFigures } from '../../shared/api-schemas';
import { codeFigures, type Denominators, NOT_MEASURABLE_REASON, type Opportunity } from '../../shared/denominators';
import { FINDING_CODES, type FindingCode } from '../../shared/finding-codes';
import { perThousand } from '../../shared/statistics';
import { compareVersions } from '../../shared/version-order';
import type { Db } from '../store/database';
import { prepared } from '../store/prepared';
import { cellFilterSql, type FilterParams, filterParams, type RateFilters } from './rate-filters';
import { DENOMINATOR_ROWS_SQL, FINDING_COUNT_ROWS_SQL } from './team-database';

export type RateDimension = 'day' | 'week' | 'version' | 'model' | 'effort';

const KEY_SQL: Record<RateDimension, string> = {
  day: 'c.day',
  // Weeks start on Monday: step back to the previous Monday (or stay on it).
  week: "CASE WHEN c.day = '' THEN '' ELSE date(c.day, '-6 days', 'weekday 1') END",
  version: 'c.version',
  model: 'c.model',
  effort: 'c.effort',
};

/**
 * The denominator sums every rate statement selects from root_cells (aliased rc): static SQL.
 * Synthetic (harness-written) messages are summed on their own, never into a denominator.
 */
export const DENOMINATOR_SUMS_SQL = `sum(rc.assistant_messages) AS assistant_messages, sum(rc.tool_use_turns) AS tool_use_turns,
      sum(rc.stop_known_messages) AS stop_known_messages, sum(rc.capture_messages) AS capture_messages,
      sum(rc.synthetic_messages) AS synthetic_messages`;

/** The sums as SQLite returns them (null over no rows). */
export interface StoredDenominators {
  assistant_messages: number | null;
  tool_use_turns: number | null;
  stop_known_messages: number | null;
  capture_messages: number | null;
  synthetic_messages: number | null;
}

/**
 * Per agent (issue 34: versions are per agent, so `codex 1.0.0` and `claude-code 1.0.0` are two rows) the
 * agent is a second key; otherwise a constant '' groups every agent together.
 */
function prepare(db: Db, dimension: RateDimension, perAgent: boolean) {
  const key = KEY_SQL[dimension];
  const agent = perAgent ? 'c.agent' : "''";
  return {
    denominators: db.prepare<FilterParams, StoredDenominators & { agent: string; key: string }>(`
      SELECT ${agent} AS agent, ${key} AS key, ${DENOMINATOR_SUMS_SQL}
      FROM ${DENOMINATOR_ROWS_SQL} rc CROSS JOIN cells c ON c.id = rc.cell_id
      WHERE ${cellFilterSql('rc.root_id')}
      GROUP BY 1, 2`),
    numerators: db.prepare<FilterParams, { agent: string; key: string; code: string; n: number }>(`
      SELECT ${agent} AS agent, ${key} AS key, fi.code AS code, sum(fi.n) AS n
      FROM ${FINDING_COUNT_ROWS_SQL} fi CROSS JOIN cells c ON c.id = fi.cell_id
      WHERE ${cellFilterSql('fi.root_id')}
        AND (@codes IS NULL OR fi.code IN (SELECT value FROM json_each(@codes)))
      GROUP BY 1, 2, 3`),
  };
}

/** One builder per dimension and grouping: `prepared` keys its cache by the builder. */
const builders = (perAgent: boolean) =>
  Object.fromEntries((Object.keys(KEY_SQL) as RateDimension[]).map((d) => [d, (db: Db) => prepare(db, d, perAgent)])) as Record<
    RateDimension,
    (db: Db) => ReturnType<typeof prepare>
  >;
const PREPARE_BY_DIMENSION = builders(false);
const PREPARE_BY_AGENT_AND_DIMENSION = builders(true);

function statements(db: Db, dimension: RateDimension, perAgent: boolean) {
  return prepared(db, (perAgent ? PREPARE_BY_AGENT_AND_DIMENSION : PREPARE_BY_DIMENSION)[dimension]);
}

/** The codes a filter selects, in registry order. */
export function selectedCodes(filters: RateFilters): FindingCode[] {
  return filters.codes?.length ? FINDING_CODES.filter((c) => filters.codes!.includes(c)) : [...FINDING_CODES];
}

/** A row's denominators, its synthetic messages, and its stop-reason coverage. */
export interface RowDenominators extends Denominators {
  /** Harness-written messages (`<synthetic>` model or isApiErrorMessage): in no denominator. */
  synthetic_messages: number;
  /** stop_known_messages over assistant_messages; null without messages. */
  stop_reason_coverage: number | null;
}

const NO_DENOMINATORS: StoredDenominators = {
  assistant_messages: 0,
  tool_use_turns: 0,
  stop_known_messages: 0,
  capture_messages: 0,
  synthetic_messages: 0,
};

/** The denominators of a row as stored in root_cells (sums over no rows are 0). */
export function denominatorsOf(d: StoredDenominators): RowDenominators {
  const assistant = d.assistant_messages ?? 0;
  const stopKnown = d.stop_known_messages ?? 0;
  return {
    assistant_messages: assistant,
    tool_use_turns: d.tool_use_turns ?? 0,
    stop_known_messages: stopKnown,
    capture_messages: d.capture_messages ?? 0,
    synthetic_messages: d.synthetic_messages ?? 0,
    stop_reason_coverage: assistant > 0 ? stopKnown / assistant : null,
  };
}

/**
 * A code's count and its rate per 1,000 of its own opportunities (FINDING_OPPORTUNITY), with a
 * 95% Wilson interval; where it has none the rate is null and `not_measurable` says why.
 * Rates per 1,000 messages and per 1,000 tool-use turns are kept beside it.
 */
export function codeRate(code: FindingCode, count: number, d: Denominators): CodeRate {
  return codeFigures(code, count, d);
}

/**
 * One side of a test or comparison for one code: `count` findings over `opportunities` of the
 * code's own kind (rate null, with the reason, where there are none), beside `toolUseTurns`.
 */
export function sideFigures(opportunity: Opportunity, count: number, opportunities: number, toolUseTurns: number): SideFigures {
  return {
    count,
    opportunity,
    opportunities,
    per_1000_opportunities: perThousand(count, opportunities),
    not_measurable: opportunities > 0 ? null : NOT_MEASURABLE_REASON[opportunity],
    tool_use_turns: toolUseTurns,
  };
}

/** A rate row inside the query layer: the figures under a generic `key` (the API names the dimension, see getRateRows). */
export type RateRow = RateFigures & { key: string | null };

/** A rate row as the API sends it: its dimension named (`day`, `week`, `version` or `model`), null when unknown. */
export type DimensionRow<D extends RateDimension> = { [K in D]: string | null } & RateFigures;

/** A version row as the API sends it: versions are per agent, so each names its agent (shared/agents.ts). */
export type AgentVersionRow = { agent: string; version: string | null } & RateFigures;

function order(dimension: RateDimension) {
  return (a: RateRow, b: RateRow) => {
    if (a.key === null || b.key === null) return a.key === b.key ? 0 : a.key === null ? 1 : -1;
    return dimension === 'version' ? compareVersions(a.key, b.key) : a.key < b.key ? -1 : a.key > b.key ? 1 : 0;
  };
}

/** Agents in shared/agents.ts's order (Claude Code first), a name not listed there last. */
export function compareAgents(a: string, b: string): number {
  const rank = (x: string) => ((AGENTS as readonly string[]).indexOf(x) + AGENTS.length + 1) % (AGENTS.length + 1);
  return rank(a) - rank(b) || (a < b ? -1 : a > b ? 1 : 0);
}

function ratesByKey(db: Db, dimension: RateDimension, filters: RateFilters, perAgent: boolean): Array<RateRow & { agent: string }> {
  const params = filterParams(filters);
  const st = statements(db, dimension, perAgent);
  const codes = selectedCodes(filters);
  const denominators = new Map<string, StoredDenominators & { agent: string; key: string }>();
  for (const d of st.denominators.all(params)) denominators.set(`${d.agent}\u0000${d.key}`, d);
  const counts = new Map<string, Map<string, number>>();
  for (const n of st.numerators.all(params)) {
    const k = `${n.agent}\u0000${n.key}`;
    if (!denominators.has(k)) denominators.set(k, { ...NO_DENOMINATORS, agent: n.agent, key: n.key });
    let byCode = counts.get(k);
    if (!byCode) counts.set(k, (byCode = new Map()));
    byCode.set(n.code, n.n);
  }
  const byKey = order(dimension);
  return [...denominators]
    .map(([k, stored]) => {
      const d = denominatorsOf(stored);
      const key = stored.key === '' ? null : stored.key;
      return { agent: stored.agent, key, ...d, codes: codes.map((code) => codeRate(code, counts.get(k)?.get(code) ?? 0, d)) };
    })
    .sort((a, b) => compareAgents(a.agent, b.agent) || byKey(a, b));
}

/**
 * Denominators, findings per code and rates per 1,000 (with Wilson intervals) for each day,
 * week, version or model, every agent's together. Messages copied into several files of one root count once.
 */
export function getRates(db: Db, dimension: RateDimension, filters: RateFilters = {}): RateRow[] {
  return ratesByKey(db, dimension, filters, false).map(({ agent: _, ...row }) => row);
}

/** getRates with each row naming its dimension, for the API. */
export function getRateRows<D extends RateDimension>(db: Db, dimension: D, filters: RateFilters = {}): DimensionRow<D>[] {
  return getRates(db, dimension, filters).map(({ key, ...figures }) => ({ [dimension]: key, ...figures }) as DimensionRow<D>);
}

/**
 * Rates per agent and version (GET /api/versions): the same version string written by two agents is two
 * rows (issue 34), agents in shared/agents.ts's order, each agent's versions in semantic order.
 */
export function getAgentVersionRows(db: Db, filters: RateFilters = {}): AgentVersionRow[] {
  return ratesByKey(db, 'version', filters, true).map(({ agent, key, ...figures }) => ({ agent, version: key, ...figures }));
}

/** How many findings of `code` a set of rows holds. */
export function countOf(rows: readonly RateRow[], code: string): number {
  return rows.reduce((n, r) => n + (r.codes.find((c) => c.code === code)?.count ?? 0), 0);
}
