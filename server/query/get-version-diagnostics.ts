import type { VersionDiagnostic } from '../../shared/api-schemas';
import { compareVersions } from '../../shared/version-order';
import type { Db } from '../store/database';
import { prepared } from '../store/prepared';
import { compareAgents } from './get-rates';

function prepare(db: Db) {
  // A file read before migration 023 has no agent until it is read again: it is Claude Code's (nothing else was read then).
  return db.prepare<
    { roots: string | null; agents: string | null },
    { agent: string; version: string; text_rows: number; tool_use_rows: number; unknown_row_types: string | null; unknown_block_types: string | null }
  >(`
    SELECT coalesce(f.agent, 'claude-code') AS agent, d.version, d.text_rows, d.tool_use_rows, d.unknown_row_types, d.unknown_block_types
    FROM file_diagnostics d JOIN files f ON f.id = d.file_id
    WHERE (@roots IS NULL OR f.root_id IN (SELECT value FROM json_each(@roots)))
      AND (@agents IS NULL OR coalesce(f.agent, 'claude-code') IN (SELECT value FROM json_each(@agents)))`);
}

/** JSON counts; null when there were none (migration 015). */
function merge(into: Map<string, number>, json: string | null): void {
  if (json === null) return;
  for (const [k, v] of Object.entries(JSON.parse(json) as Record<string, number>)) into.set(k, (into.get(k) ?? 0) + v);
}

const sorted = (m: Map<string, number>) => [...m].map(([type, count]) => ({ type, count })).sort((a, b) => b.count - a.count || a.type.localeCompare(b.type));

/**
 * Per agent and version (versions are per agent: the same version string of two agents is two rows):
 * assistant rows with text and with a tool_use, their ratio, and the row and block types no detector
 * knows. A version whose text rows collapse against its tool_use rows stopped writing text to
 * transcripts, and leak detection undercounts there.
 */
export function getVersionDiagnostics(db: Db, folderIds?: number[], agents?: string[]): VersionDiagnostic[] {
  const st = prepared(db, prepare);
  const byVersion = new Map<string, { agent: string; version: string; text: number; tool: number; rows: Map<string, number>; blocks: Map<string, number> }>();
  const params = { roots: folderIds?.length ? JSON.stringify(folderIds) : null, agents: agents?.length ? JSON.stringify(agents) : null };
  for (const r of st.all(params)) {
    const key = `${r.agent}\u0000${r.version}`;
    let v = byVersion.get(key);
    if (!v) byVersion.set(key, (v = { agent: r.agent, version: r.version, text: 0, tool: 0, rows: new Map(), blocks: new Map() }));
    v.text += r.text_rows;
    v.tool += r.tool_use_rows;
    merge(v.rows, r.unknown_row_types);
    merge(v.blocks, r.unknown_block_types);
  }
  return [...byVersion.values()]
    .map((v) => ({
      agent: v.agent,
      version: v.version || null,
      text_rows: v.text,
      tool_use_rows: v.tool,
      text_rows_per_tool_use_row: v.tool > 0 ? v.text / v.tool : null,
      unknown_row_types: sorted(v.rows),
      unknown_block_types: sorted(v.blocks),
    }))
    .sort((a, b) => compareAgents(a.agent, b.agent) || compareVersions(a.version ?? '', b.version ?? ''));
}
