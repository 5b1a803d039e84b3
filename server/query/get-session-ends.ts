import type { SessionEndsResponse, SessionEndsRow } from '../../shared/api-schemas';
import { SESSION_ENDS, type SessionEnd } from '../../shared/session-ends';
import { compareVersions } from '../../shared/version-order';
import type { Db } from '../store/database';
import { prepared } from '../store/prepared';
import { compareAgents } from './get-rates';

export type SessionEndDimension = 'version' | 'model' | 'day';

/** Transcripts read whole (status ok) with a class, counted per file: one file is one session (or one subagent's run). */
function prepare(db: Db) {
  // Per version, the agent is a key too (versions are per agent; a file read before migration 023 is Claude Code's).
  const statement = (column: string) =>
    db.prepare<{ roots: string | null; sidechain: number | null; agents: string | null }, { agent: string; key: string | null; end: SessionEnd; n: number }>(`
      SELECT ${column === 'version' ? "coalesce(f.agent, 'claude-code')" : "''"} AS agent, c.${column} AS key, k.name AS end, count(*) AS n
      FROM files f JOIN session_end_kinds k ON k.id = f.session_end_kind LEFT JOIN cells c ON c.id = f.session_end_cell
      WHERE f.status = 'ok'
        AND (@roots IS NULL OR f.root_id IN (SELECT value FROM json_each(@roots)))
        AND (@sidechain IS NULL OR f.sidechain = @sidechain)
        AND (@agents IS NULL OR f.agent IN (SELECT value FROM json_each(@agents)))
      GROUP BY 1, 2, 3`);
  // The class is named in session_end_kinds, the judged message's version, model and day are its cell's (migration 015).
  return { version: statement('version'), model: statement('model'), day: statement('day') };
}

/** How sessions end, per version (ordered as versions are), model or day. */
export function getSessionEnds(
  db: Db,
  dimension: SessionEndDimension,
  filters: { folderIds?: number[]; sidechain?: boolean; agents?: string[] },
): SessionEndsResponse {
  const st = prepared(db, prepare);
  const rows = new Map<string, { agent: string; key: string | null; sessions: number; ends: SessionEndsRow['ends'] }>();
  const params = {
    roots: filters.folderIds?.length ? JSON.stringify(filters.folderIds) : null,
    sidechain: filters.sidechain === undefined ? null : filters.sidechain ? 1 : 0,
    agents: filters.agents?.length ? JSON.stringify(filters.agents) : null,
  };
  for (const r of st[dimension].all(params)) {
    const key = r.key || null; // '' and NULL are both unknown: null in JSON
    const id = `${r.agent}\u0000${key ?? ''}`;
    let row = rows.get(id);
    if (!row) rows.set(id, (row = { agent: r.agent, key, sessions: 0, ends: Object.fromEntries(SESSION_ENDS.map((e) => [e, 0])) as SessionEndsRow['ends'] }));
    row.ends[r.end] += r.n;
    row.sessions += r.n;
  }
  const order = (a: { agent: string; key: string | null }, b: { agent: string; key: string | null }) => {
    if (a.agent !== b.agent) return compareAgents(a.agent, b.agent);
    if (a.key === null || b.key === null) return a.key === b.key ? 0 : a.key === null ? 1 : -1;
    return dimension === 'version' ? compareVersions(a.key, b.key) : a.key.localeCompare(b.key);
  };
  // Each row names its dimension (version, model or day), never a generic key; a version row its agent too.
  return {
    dimension,
    rows: [...rows.values()].sort(order).map(({ agent, key, ...rest }) => ({ ...(dimension === 'version' ? { agent } : {}), [dimension]: key, ...rest })),
  };
}
