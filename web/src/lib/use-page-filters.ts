import type { AgentsResponse, FilterQuery } from '../../../shared/api-schemas';
import { useAgents } from '../api/queries';
import { filtersFromSearch, listParam } from './url-filters';
import { useUrlParams } from './use-url-params';

export interface PageFilters {
  search: URLSearchParams;
  setParams: (entries: Record<string, string | undefined>) => void;
  /** The filters the page's queries take (with the page's default agent where the address names none). */
  filters: FilterQuery;
  /** The agents the folders hold (issue 34), Claude Code first. */
  agentRows: AgentsResponse['rows'];
  /** The agent the page opens on when the address names none (the Overview: Claude Code, when there are others). */
  openOn: string | undefined;
  /** The agents the page's rows can hold: the chosen ones, else every one the folders hold. */
  shownAgents: string[];
  /** More than one agent shown: charts draw one series per agent and versions read `agent version`. */
  mixed: boolean;
}

/**
 * The filter set-up every rate page shares: the URL's filters, the agents the folders hold, and
 * (with `openOnClaudeCode`) Claude Code as the default when the folders hold it beside others.
 */
export function usePageFilters({ openOnClaudeCode = false }: { openOnClaudeCode?: boolean } = {}): PageFilters {
  const [search, setParams] = useUrlParams();
  const agents = useAgents(search.get('folder') ?? undefined);
  const agentRows = agents.data?.rows ?? [];
  const openOn = openOnClaudeCode && agentRows.length > 1 && agentRows.some((r) => r.agent === 'claude-code') ? 'claude-code' : undefined;
  const defaultAgent = search.has('agent') ? undefined : openOn;
  const filters: FilterQuery = { ...filtersFromSearch(search), ...(defaultAgent ? { agent: defaultAgent } : {}) };
  const chosen = listParam(filters.agent);
  const shownAgents = chosen.length > 0 ? agentRows.map((r) => r.agent).filter((a) => chosen.includes(a)) : agentRows.map((r) => r.agent);
  return { search, setParams, filters, agentRows, openOn, shownAgents, mixed: shownAgents.length > 1 };
}
