import { AGENT_LABELS, isAgent } from '../../../shared/agents';
import type { KeyedRow } from './keyed-rows';

/** An agent's name as the page shows it (`Codex CLI`); `–` for a file no adapter read. */
export function agentLabel(agent: string | null): string {
  if (agent === null) return '–';
  return isAgent(agent) ? AGENT_LABELS[agent] : agent;
}

/**
 * A version as a row that may hold several agents shows it (issue 34): versions are per agent, so
 * `codex 0.146.0` never reads as `claude-code 2.1.146`'s neighbour. One agent: the version alone.
 */
export function agentVersion(agent: string | null, version: string | null, mixed: boolean): string {
  const v = version ?? 'unknown';
  return mixed ? `${agent ?? 'unknown'} ${v}` : v;
}

/** Per-agent rate rows as one list, each row's key naming its agent (`codex 0.146.0`), agents in the order given. */
export function agentKeyedRows(byAgent: ReadonlyArray<{ agent: string; rows: readonly KeyedRow[] }>): KeyedRow[] {
  return byAgent.flatMap(({ agent, rows }) => rows.map((r) => ({ ...r, key: agentVersion(agent, r.key, true) })));
}
