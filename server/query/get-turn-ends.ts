import type { TurnEndDimension, TurnEndsResponse, TurnEndsRow } from '../../shared/api-schemas';
import { TURN_END_API_ERROR_KINDS, TURN_ENDS, type TurnEnd, type TurnEndApiErrorKind } from '../../shared/turn-ends';
import { UNKNOWN } from '../../shared/unknown';
import { compareVersions } from '../../shared/version-order';
import type { Db } from '../store/database';
import { prepared } from '../store/prepared';
import { compareAgents } from './get-rates';

export interface TurnEndFilters {
  folderIds?: number[];
  /** true: subagent transcripts only; false: sessions only; undefined: both. */
  sidechain?: boolean;
  /** Only each file's last turn end (its session end). */
  lastOnly?: boolean;
  /** Efforts (`unknown`: nothing recorded one). */
  efforts?: string[];
  /** Agents (shared/agents.ts). */
  agents?: string[];
}

const COLUMNS: Record<TurnEndDimension, string> = { version: 'c.version', model: 'c.model', day: 'c.day', effort: 'c.effort' };

/** Transcripts read whole (status ok), their turn ends summed per key, class and error kind (migration 018). */
function prepare(db: Db) {
  const statement = (column: string) =>
    db.prepare<
      { roots: string | null; sidechain: number | null; last: number | null; efforts: string | null; agents: string | null },
      { agent: string; key: string; end: TurnEnd; kind: string; n: number }
    >(`
      SELECT ${column === COLUMNS.version ? 'c.agent' : "''"} AS agent, ${column} AS key, k.name AS end, t.api_error_kind AS kind, sum(t.turns) AS n
      FROM turn_ends t JOIN files f ON f.id = t.file_id JOIN turn_end_kinds k ON k.id = t.kind JOIN cells c ON c.id = t.cell_id
      WHERE f.status = 'ok'
        AND (@roots IS NULL OR f.root_id IN (SELECT value FROM json_each(@roots)))
        AND (@sidechain IS NULL OR f.sidechain = @sidechain)
        AND (@last IS NULL OR t.last = @last)
        AND (@efforts IS NULL OR c.effort IN (SELECT value FROM json_each(@efforts)))
        AND (@agents IS NULL OR c.agent IN (SELECT value FROM json_each(@agents)))
      GROUP BY 1, 2, 3, 4`);
  return Object.fromEntries(Object.entries(COLUMNS).map(([d, column]) => [d, statement(column)])) as Record<TurnEndDimension, ReturnType<typeof statement>>;
}

const zeros = <K extends string>(keys: readonly K[]) => Object.fromEntries(keys.map((k) => [k, 0])) as Record<K, number>;

/** How turns end (every turn, or each session's last), per version (ordered as versions are), model, day or effort, with rates per 1,000 turn ends. */
export function getTurnEnds(db: Db, dimension: TurnEndDimension, filters: TurnEndFilters = {}): TurnEndsResponse {
  const st = prepared(db, prepare);
  const params = {
    roots: filters.folderIds?.length ? JSON.stringify(filters.folderIds) : null,
    sidechain: filters.sidechain === undefined ? null : filters.sidechain ? 1 : 0,
    last: filters.lastOnly ? 1 : null,
    efforts: filters.efforts?.length ? JSON.stringify(filters.efforts.map((e) => (e === UNKNOWN ? '' : e))) : null,
    agents: filters.agents?.length ? JSON.stringify(filters.agents) : null,
  };
  type Acc = { agent: string; key: string | null; turn_ends: number; ends: Record<TurnEnd, number>; api_error_kinds: Record<TurnEndApiErrorKind, number> };
  const rows = new Map<string, Acc>();
  for (const r of st[dimension].all(params)) {
    const key = r.key || null; // '' is unknown: null in JSON
    const id = `${r.agent}\u0000${key ?? ''}`;
    let row = rows.get(id);
    if (!row) rows.set(id, (row = { agent: r.agent, key, turn_ends: 0, ends: zeros(TURN_ENDS), api_error_kinds: zeros(TURN_END_API_ERROR_KINDS) }));
    row.ends[r.end] += r.n;
    row.turn_ends += r.n;
    if (r.end === 'api_error' && (TURN_END_API_ERROR_KINDS as readonly string[]).includes(r.kind)) row.api_error_kinds[r.kind as TurnEndApiErrorKind] += r.n;
  }
  const order = (a: Acc, b: Acc) => {
    if (a.agent !== b.agent) return compareAgents(a.agent, b.agent);
    if (a.key === null || b.key === null) return a.key === b.key ? 0 : a.key === null ? 1 : -1;
    return dimension === 'version' ? compareVersions(a.key, b.key) : a.key.localeCompare(b.key);
  };
  const out: TurnEndsRow[] = [...rows.values()].sort(order).map(({ agent, key, ...rest }) => ({
    // Each row names its dimension, never a generic key; a version row its agent too (versions are per agent).
    ...(dimension === 'version' ? { agent } : {}),
    [dimension]: key,
    ...rest,
    per_1000_turn_ends: Object.fromEntries(
      TURN_ENDS.map((e) => [e, rest.turn_ends === 0 ? 0 : Math.round((rest.ends[e] * 10000) / rest.turn_ends) / 10]),
    ) as TurnEndsRow['per_1000_turn_ends'],
  }));
  return { dimension, turns: filters.lastOnly ? 'last' : 'all', rows: out };
}
