import { AGENTS } from '../../shared/agents';
import type { AgentsResponse } from '../../shared/api-schemas';
import { compareVersions } from '../../shared/version-order';
import type { Db } from '../store/database';

function prepare(db: Db) {
  const roots = '(@roots IS NULL OR f.root_id IN (SELECT value FROM json_each(@roots)))';
  return {
    // Files read (not empty), per agent and the agent's own version (migration 023).
    files: db.prepare<
      { roots: string | null },
      { agent: string; version: string | null; files: number; model_messages: number; tool_calls: number; tool_results: number }
    >(`
      SELECT f.agent AS agent, f.agent_version AS version, count(*) AS files, sum(f.model_messages) AS model_messages,
             sum(f.tool_calls) AS tool_calls, sum(f.tool_results) AS tool_results
      FROM files f WHERE f.status = 'ok' AND f.empty = 0 AND f.agent IS NOT NULL AND ${roots}
      GROUP BY 1, 2`),
    // Findings counted in rates (one copy of a message copied into several files), per agent.
    findings: db.prepare<{ roots: string | null }, { agent: string; n: number }>(`
      SELECT f.agent AS agent, count(*) AS n FROM findings fi JOIN files f ON f.id = fi.file_id
      WHERE fi.counted = 1 AND f.agent IS NOT NULL AND ${roots}
      GROUP BY 1`),
  };
}

const cache = new WeakMap<Db, ReturnType<typeof prepare>>();

/**
 * Per agent whose files the chosen folders hold: files read, the agent's versions (each with its
 * files; null: the format records none), model messages, tool calls and results as each format
 * records them, and findings. Agents in the order of shared/agents.ts (Claude Code first).
 */
export function getAgents(db: Db, roots: number[] | undefined): AgentsResponse {
  let st = cache.get(db);
  if (!st) cache.set(db, (st = prepare(db)));
  const params = { roots: roots?.length ? JSON.stringify(roots) : null };
  const rows = new Map<string, AgentsResponse['rows'][number]>();
  for (const r of st.files.all(params)) {
    let row = rows.get(r.agent);
    if (!row) rows.set(r.agent, (row = { agent: r.agent, files: 0, versions: [], model_messages: 0, tool_calls: 0, tool_results: 0, findings: 0 }));
    row.files += r.files;
    row.model_messages += r.model_messages;
    row.tool_calls += r.tool_calls;
    row.tool_results += r.tool_results;
    row.versions.push({ version: r.version, files: r.files, model_messages: r.model_messages, tool_calls: r.tool_calls });
  }
  for (const r of st.findings.all(params)) {
    const row = rows.get(r.agent);
    if (row) row.findings = r.n;
  }
  const rank = (agent: string) => {
    const i = (AGENTS as readonly string[]).indexOf(agent);
    return i === -1 ? AGENTS.length : i;
  };
  for (const row of rows.values())
    row.versions.sort((a, b) =>
      a.version === null || b.version === null ? (a.version === b.version ? 0 : a.version === null ? 1 : -1) : compareVersions(a.version, b.version),
    );
  return { rows: [...rows.values()].sort((a, b) => rank(a.agent) - rank(b.agent) || a.agent.localeCompare(b.agent)) };
}
