import { AGENT_LABELS, isAgent } from '../../../shared/agents';
import { FINDING_CODES } from '../../../shared/finding-codes';
import { isModelId } from '../../../shared/model-id';
import { useAgents } from '../api/queries';
import { codeColor } from '../charts/colors';
import { codeLabel } from '../lib/format';
import { ALL_AGENTS, listParam, toggleChip } from '../lib/url-filters';
import { useUrlParams } from '../lib/use-url-params';

export interface FilterBarProps {
  models?: string[];
  /** Efforts to offer as chips (`unknown` for replies that record none). */
  efforts?: string[];
  versions?: string[];
  showCodes?: boolean;
  showDates?: boolean;
  extra?: React.ReactNode;
  /** The agent the page shows when the address names none (the Overview: Claude Code, when present). */
  defaultAgent?: string;
}

/** Filters live in the URL: every change here is a new, shareable address. */
export function FilterBar({ models = [], efforts = [], versions = [], showCodes = true, showDates = true, extra, defaultAgent }: FilterBarProps) {
  const [search, setParams, setSearch] = useUrlParams();
  const set = (key: string, value: string | undefined) => setParams({ [key]: value });
  const codes = listParam(search.get('code') ?? undefined);
  const chosenModels = listParam(search.get('model') ?? undefined);
  // Every id the index stores is a model id (shared/model-id.ts, the API's `model=` pattern): none holds the list's `,`.
  const modelChips = models.filter((m) => m === 'unknown' || isModelId(m));
  const chosenEfforts = listParam(search.get('effort') ?? undefined);
  const hasFilters = ['code', 'version', 'model', 'effort', 'from', 'to', 'sidechain', 'folder', 'agent'].some((k) => search.has(k));
  const agents = useAgents(search.get('folder') ?? undefined).data?.rows.map((r) => r.agent) ?? [];
  const agentLabel = (a: string) => (isAgent(a) ? AGENT_LABELS[a] : a);
  return (
    <div className="filters" role="group" aria-label="Filters">
      {showCodes && (
        <div className="chips" role="group" aria-label="Finding codes">
          {FINDING_CODES.map((code) => (
            <button
              key={code}
              type="button"
              className="chip"
              aria-pressed={codes.length === 0 || codes.includes(code)}
              style={{ borderColor: codeColor(code, FINDING_CODES) }}
              onClick={() => set('code', toggleChip(search.get('code') ?? undefined, code, FINDING_CODES))}
            >
              {codeLabel(code)}
            </button>
          ))}
        </div>
      )}
      {modelChips.length > 0 && (
        <div className="chips" role="group" aria-label="Models">
          {modelChips.map((m) => (
            <button
              key={m}
              type="button"
              className="chip"
              aria-pressed={chosenModels.length === 0 || chosenModels.includes(m)}
              onClick={() => set('model', toggleChip(search.get('model') ?? undefined, m, modelChips))}
            >
              {m}
            </button>
          ))}
        </div>
      )}
      {efforts.length > 0 && (
        <div className="chips" role="group" aria-label="Efforts">
          {efforts.map((e) => (
            <button
              key={e}
              type="button"
              className="chip"
              aria-pressed={chosenEfforts.length === 0 || chosenEfforts.includes(e)}
              onClick={() => set('effort', toggleChip(search.get('effort') ?? undefined, e, efforts))}
            >
              effort {e}
            </button>
          ))}
        </div>
      )}
      {versions.length > 0 && (
        <label>
          Version{' '}
          <select value={search.get('version') ?? ''} onChange={(e) => set('version', e.target.value || undefined)}>
            <option value="">all</option>
            {versions.map((v) => (
              <option key={v} value={v}>
                {v}
              </option>
            ))}
          </select>
        </label>
      )}
      {agents.length > 1 && (
        <label>
          Agent{' '}
          <select
            data-testid="agent-filter"
            value={search.get('agent') ?? defaultAgent ?? ''}
            onChange={(e) => set('agent', e.target.value || (defaultAgent ? ALL_AGENTS : undefined))}
          >
            <option value={defaultAgent ? ALL_AGENTS : ''}>all agents</option>
            {agents.map((a) => (
              <option key={a} value={a}>
                {agentLabel(a)}
              </option>
            ))}
          </select>
        </label>
      )}
      {showDates && (
        <>
          <label>
            From <input type="date" value={search.get('from') ?? ''} onChange={(e) => set('from', e.target.value || undefined)} />
          </label>
          <label>
            To <input type="date" value={search.get('to') ?? ''} onChange={(e) => set('to', e.target.value || undefined)} />
          </label>
        </>
      )}
      <label>
        Thread{' '}
        <select value={search.get('sidechain') ?? 'all'} onChange={(e) => set('sidechain', e.target.value === 'all' ? undefined : e.target.value)}>
          <option value="all">main and subagents</option>
          <option value="main">main only</option>
          <option value="sidechain">subagents only</option>
        </select>
      </label>
      {extra}
      {hasFilters && (
        <button type="button" className="link-button" onClick={() => setSearch(new URLSearchParams())}>
          Clear filters
        </button>
      )}
    </div>
  );
}
