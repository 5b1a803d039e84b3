import { useVersions, useVersionsByAgent } from '../api/queries';
import { agentKeyedRows } from './agents';
import type { KeyedRow } from './keyed-rows';
import type { PageFilters } from './use-page-filters';

/** The version rows of the agents shown: one agent's as they come, several agents' each named `agent version` (issue 34). */
export function useShownVersions({ filters, shownAgents, mixed }: PageFilters): { data: { rows: KeyedRow[] } | undefined; error: unknown } {
  const versions = useVersions(filters);
  const byAgent = useVersionsByAgent(filters, mixed ? shownAgents : []);
  if (!mixed) return versions;
  const error = byAgent.find((q) => q.error)?.error ?? null;
  if (byAgent.some((q) => q.data === undefined)) return { data: undefined, error };
  return { data: { rows: agentKeyedRows(byAgent.map((q) => q.data!)) }, error };
}
