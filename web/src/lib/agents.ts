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

/**
 * For rows the API keys by version alone (version × model, version × effort): each version named with the
 * agent that writes it, as /api/agents lists each agent's versions; a version two agents share keeps every
 * name (`claude-code/codex 1.0.0`), so it never reads as one agent's.
 */
export function versionNamer(agentRows: ReadonlyArray<{ agent: string; versions: ReadonlyArray<{ version: string | null }> }>, mixed: boolean) {
  const owners = new Map<string, string[]>();
  for (const a of agentRows) for (const v of a.versions) owners.set(v.version ?? 'unknown', [...(owners.get(v.version ?? 'unknown') ?? []), a.agent]);
  return (version: string): string => (mixed ? `${owners.get(version)?.join('/') ?? 'unknown'} ${version}` : version);
}
