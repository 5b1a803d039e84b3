import type { CodeRate, RateRow } from '../../shared/api-schemas';
import { FINDING_CODES, type FindingCode } from '../../shared/finding-codes';
import { perThousand } from '../../shared/statistics';
import { compareVersions } from '../../shared/version-order';
import type { Db } from '../store/database';
import { cellFilterSql, type FilterParams, filterParams, type RateFilters } from './rate-filters';

export type RateDimension = 'day' | 'week' | 'version' | 'model';

const KEY_SQL: Record<RateDimension, string> = {
  day: 'c.day',
  // Weeks start on Monday: step back to the previous Monday (or stay on it).
  week: "CASE WHEN c.day = '' THEN '' ELSE date(c.day, '-6 days', 'weekday 1') END",
  version: 'c.version',
  model: 'c.model',
};

function prepare(db: Db, dimension: RateDimension) {
  const key = KEY_SQL[dimension];
  return {
    denominators: db.prepare<FilterParams, { key: string; assistant_messages: number; tool_use_turns: number }>(`
      SELECT ${key} AS key, sum(rc.assistant_messages) AS assistant_messages, sum(rc.tool_use_turns) AS tool_use_turns
      FROM root_cells rc JOIN cells c ON c.id = rc.cell_id
      WHERE ${cellFilterSql('rc.root_id')}
      GROUP BY 1`),
    numerators: db.prepare<FilterParams, { key: string; code: string; n: number }>(`
      SELECT ${key} AS key, fi.code AS code, count(*) AS n
      FROM findings fi JOIN cells c ON c.id = fi.cell_id JOIN files f ON f.id = fi.file_id
      WHERE fi.counted = 1 AND ${cellFilterSql('f.root_id')}
        AND (@codes IS NULL OR fi.code IN (SELECT value FROM json_each(@codes)))
      GROUP BY 1, 2`),
  };
}

const cache = new WeakMap<Db, Map<RateDimension, ReturnType<typeof prepare>>>();

function statements(db: Db, dimension: RateDimension) {
  let byDim = cache.get(db);
  if (!byDim) cache.set(db, (byDim = new Map()));
  let st = byDim.get(dimension);
  if (!st) byDim.set(dimension, (st = prepare(db, dimension)));
  return st;
}

/** The codes a filter selects, in registry order. */
export function selectedCodes(filters: RateFilters): FindingCode[] {
  return filters.codes?.length ? FINDING_CODES.filter((c) => filters.codes!.includes(c)) : [...FINDING_CODES];
}

/** Count and rates per 1,000 messages and per 1,000 tool-use turns, with 95% Wilson intervals. */
export function codeRate(code: string, count: number, messages: number, toolUseTurns: number): CodeRate {
  return { code, count, per_1000_messages: perThousand(count, messages), per_1000_tool_use_turns: perThousand(count, toolUseTurns) };
}

function order(dimension: RateDimension) {
  return (a: RateRow, b: RateRow) => {
    if (a.key === null || b.key === null) return a.key === b.key ? 0 : a.key === null ? 1 : -1;
    return dimension === 'version' ? compareVersions(a.key, b.key) : a.key < b.key ? -1 : a.key > b.key ? 1 : 0;
  };
}

/**
 * Denominators, findings per code and rates per 1,000 (with Wilson intervals) for each day,
 * week, version or model. Messages copied into several files of one root count once.
 */
export function getRates(db: Db, dimension: RateDimension, filters: RateFilters = {}): RateRow[] {
  const params = filterParams(filters);
  const st = statements(db, dimension);
  const codes = selectedCodes(filters);
  const denominators = new Map<string, { assistant_messages: number; tool_use_turns: number }>();
  for (const d of st.denominators.all(params)) denominators.set(d.key, d);
  const counts = new Map<string, Map<string, number>>();
  for (const n of st.numerators.all(params)) {
    if (!denominators.has(n.key)) denominators.set(n.key, { assistant_messages: 0, tool_use_turns: 0 });
    let byCode = counts.get(n.key);
    if (!byCode) counts.set(n.key, (byCode = new Map()));
    byCode.set(n.code, n.n);
  }
  const rows: RateRow[] = [...denominators].map(([key, d]) => ({
    key: key === '' ? null : key,
    assistant_messages: d.assistant_messages,
    tool_use_turns: d.tool_use_turns,
    codes: codes.map((code) => codeRate(code, counts.get(key)?.get(code) ?? 0, d.assistant_messages, d.tool_use_turns)),
  }));
  return rows.sort(order(dimension));
}

/** How many findings of `code` a set of rows holds. */
export function countOf(rows: readonly RateRow[], code: string): number {
  return rows.reduce((n, r) => n + (r.codes.find((c) => c.code === code)?.count ?? 0), 0);
}
