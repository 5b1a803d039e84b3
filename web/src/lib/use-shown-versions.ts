import { useVersions, useVersionsByAgent } from '../api/queries';
import { agentKeyedRows } from './agents';
import type { KeyedRow } from './keyed-rows';
import type { PageFilters } from './use-page-filters';

export interface ShownVersions {
  data: { rows: KeyedRow[] } | undefined;
  error: unknown;
  /** With several agents shown: each agent's own version rows (versions are per agent), in the order shown; else null. */
  byAgent: Array<{ agent: string; rows: KeyedRow[] }> | null;
}

/** The version rows of the agents shown: one agent's as they come, several agents' each named `agent version` (issue 34). */
export function useShownVersions({ filters, shownAgents, mixed }: PageFilters): ShownVersions {
  const versions = useVersions(filters);
  const perAgent = useVersionsByAgent(filters, mixed ? shownAgents : []);
  if (!mixed) return { data: versions.data, error: versions.error, byAgent: null };
  const error = perAgent.find((q) => q.error)?.error ?? null;
  if (perAgent.some((q) => q.data === undefined)) return { data: undefined, error, byAgent: null };
  const byAgent = perAgent.map((q) => q.data!);
  return { data: { rows: agentKeyedRows(byAgent) }, error, byAgent };
}
