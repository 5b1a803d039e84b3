import { FINDING_CODES, type FindingCode } from '../../shared/finding-codes';
import { perThousand, type Interval } from '../../shared/statistics';
import { compareVersions } from '../../shared/version-order';
import type { Db } from '../store/database';
import { cellFilterSql, filterParams, type FilterParams, type RateFilters } from './rate-filters';

export type RateDimension = 'day' | 'week' | 'version' | 'model';

export interface RateRow {
  /** The day, week (its Monday), version or model; null when unknown. */
  key: string | null;
  assistant_messages: number;
  tool_use_turns: number;
  findings: Partial<Record<FindingCode, number>>;
  /** Per code: findings per 1,000 assistant messages, with a 95% Wilson interval (null when there are none). */
  per_1000_messages: Partial<Record<FindingCode, Interval | null>>;
  /** Per code: findings per 1,000 tool-use turns, with a 95% Wilson interval. */
  per_1000_tool_use_turns: Partial<Record<FindingCode, Interval | null>>;
}

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
  const codes = (filters.codes?.length ? FINDING_CODES.filter((c) => filters.codes!.includes(c)) : [...FINDING_CODES]) as FindingCode[];
  const rows = new Map<string, RateRow>();
  const row = (key: string) => {
    let r = rows.get(key);
    if (!r) {
      r = { key: key === '' ? null : key, assistant_messages: 0, tool_use_turns: 0, findings: {}, per_1000_messages: {}, per_1000_tool_use_turns: {} };
      for (const code of codes) r.findings[code] = 0;
      rows.set(key, r);
    }
    return r;
  };
  for (const d of st.denominators.all(params)) {
    const r = row(d.key);
    r.assistant_messages = d.assistant_messages;
    r.tool_use_turns = d.tool_use_turns;
  }
  for (const n of st.numerators.all(params)) row(n.key).findings[n.code as FindingCode] = n.n;
  for (const r of rows.values()) {
    for (const code of codes) {
      const k = r.findings[code] ?? 0;
      r.per_1000_messages[code] = perThousand(k, r.assistant_messages);
      r.per_1000_tool_use_turns[code] = perThousand(k, r.tool_use_turns);
    }
  }
  return [...rows.values()].sort(order(dimension));
}
