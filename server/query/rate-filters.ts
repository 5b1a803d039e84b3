import { UNKNOWN } from '../../shared/unknown';

/** Filters shared by every rate and findings question. Absent means "all". */
export interface RateFilters {
  codes?: string[];
  versions?: string[];
  models?: string[];
  /** Efforts (`unknown`: nothing recorded one). */
  efforts?: string[];
  /** Inclusive UTC days, YYYY-MM-DD. */
  from?: string;
  to?: string;
  /** Folder ids (the store's root ids). */
  folderIds?: number[];
  /** true: subagent messages only; false: main-thread only. */
  sidechain?: boolean;
  /** Agents (shared/agents.ts): whose transcripts (absent: every agent's). */
  agents?: string[];
}

/** Named parameters for the filter clause every rate statement shares. */
export function filterParams(f: RateFilters) {
  const list = (xs?: readonly (string | number)[]) => (xs && xs.length > 0 ? JSON.stringify(xs) : null);
  return {
    codes: list(f.codes),
    // "unknown" is spelled `unknown` in filters and null in JSON; the index stores it as '' (a detail kept here).
    versions: list(f.versions?.map((v) => (v === UNKNOWN ? '' : v))),
    models: list(f.models?.map((m) => (m === UNKNOWN ? '' : m))),
    efforts: list(f.efforts?.map((e) => (e === UNKNOWN ? '' : e))),
    from: f.from ?? null,
    to: f.to ?? null,
    roots: list(f.folderIds),
    sidechain: f.sidechain === undefined ? null : f.sidechain ? 1 : 0,
    agents: list(f.agents),
  };
}

export type FilterParams = ReturnType<typeof filterParams>;

/** The WHERE clause over `c` (cells) and a root id column; static SQL, parameters only. */
export function cellFilterSql(rootColumn: string): string {
  return `(@versions IS NULL OR c.version IN (SELECT value FROM json_each(@versions)))
      AND (@models IS NULL OR c.model IN (SELECT value FROM json_each(@models)))
      AND (@efforts IS NULL OR c.effort IN (SELECT value FROM json_each(@efforts)))
      AND (@from IS NULL OR (c.day <> '' AND c.day >= @from))
      AND (@to IS NULL OR (c.day <> '' AND c.day <= @to))
      AND (@sidechain IS NULL OR c.sidechain = @sidechain)
      AND (@agents IS NULL OR c.agent IN (SELECT value FROM json_each(@agents)))
      AND (@roots IS NULL OR ${rootColumn} IN (SELECT value FROM json_each(@roots)))`;
}
