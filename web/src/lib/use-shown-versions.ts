import { useVersions } from '../api/queries';
import { agentKeyedRows } from './agents';
import type { KeyedRow } from './keyed-rows';
import type { PageFilters } from './use-page-filters';

export interface ShownVersions {
  data: { rows: KeyedRow[] } | undefined;
  error: unknown;
  /** With several agents shown: each agent's own version rows (versions are per agent), in the order shown; else null. */
  byAgent: Array<{ agent: string; rows: KeyedRow[] }> | null;
}

/**
 * The version rows of the agents shown: one agent's as they come, several agents' each named `agent version`
 * (issue 34). One request: every row of /api/versions names its agent, so the same version string of two
 * agents is two rows, split here by that field.
 */
export function useShownVersions({ filters, shownAgents, mixed }: PageFilters): ShownVersions {
  const versions = useVersions(filters);
  if (!mixed || versions.data === undefined) return { data: versions.data, error: versions.error, byAgent: null };
  const rows = versions.data.rows;
  const byAgent = shownAgents.map((agent) => ({ agent, rows: rows.filter((r) => r.agent === agent).map(({ agent: _, ...r }) => r) }));
  return { data: { rows: agentKeyedRows(byAgent) }, error: versions.error, byAgent };
}
