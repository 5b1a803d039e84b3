import type { FilterQuery } from '../../../shared/api-schemas';

export const FILTER_KEYS = ['code', 'version', 'model', 'effort', 'from', 'to', 'folder', 'sidechain', 'agent'] as const;

/** `agent=all`: every agent, chosen over a page's default agent (the Overview opens on Claude Code). */
export const ALL_AGENTS = 'all';

/** The filters that live in the page URL, so every view can be bookmarked and shared. */
export function filtersFromSearch(search: URLSearchParams): FilterQuery {
  const f: Record<string, string> = {};
  for (const key of FILTER_KEYS) {
    const value = search.get(key);
    if (value && !(key === 'agent' && value === ALL_AGENTS)) f[key] = value;
  }
  return f as FilterQuery;
}

/** Query string for the API from filters plus extra parameters; empty values are dropped. */
export function toQueryString(params: Record<string, string | number | undefined | null>): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== null && v !== '') q.set(k, String(v));
  const s = q.toString();
  return s ? `?${s}` : '';
}

export function listParam(value: string | undefined): string[] {
  return value ? value.split(',').filter(Boolean) : [];
}

/** Toggles one value in a comma-separated list parameter; returns the new value (or undefined when empty). */
export function toggleInList(current: string | undefined, value: string): string | undefined {
  const list = listParam(current);
  const next = list.includes(value) ? list.filter((v) => v !== value) : [...list, value];
  return next.length ? next.join(',') : undefined;
}

/**
 * Toggle chips where "nothing chosen" means "all on": switching one off from that state keeps
 * all the others; switching the last one on again, or every one on, returns to "all" (no parameter).
 */
export function toggleChip(current: string | undefined, value: string, all: readonly string[]): string | undefined {
  const list = listParam(current);
  const on = list.length === 0 ? [...all] : list;
  const next = on.includes(value) ? on.filter((v) => v !== value) : [...on, value];
  if (next.length === 0 || all.every((v) => next.includes(v))) return undefined;
  return all.filter((v) => next.includes(v)).join(',');
}
