import type { FilterQuery } from '../../../shared/api-schemas';
import { toQueryString } from './url-filters';

/** Where one finding opens as its own view (deep-linkable; its id survives re-indexing). */
export const findingHref = (id: string, context?: number) => `/findings/${encodeURIComponent(id)}${context === undefined ? '' : `?context=${context}`}`;

/** A session's own view: its findings on a time line of its turns. */
export const sessionHref = (hash: string) => `/sessions/${encodeURIComponent(hash)}`;

/**
 * The findings behind one chart point or table cell: the findings list filtered to it. Chart
 * pages call this with the point's code and day (or week, as from..to) or version.
 */
export function findingsHrefFor(point: { code?: string; day?: string; from?: string; to?: string; version?: string }, filters: FilterQuery = {}): string {
  const q: FilterQuery = { ...filters };
  if (point.code) q.code = point.code;
  if (point.version) q.version = point.version;
  if (point.day) {
    q.from = point.day;
    q.to = point.day;
  }
  if (point.from) q.from = point.from;
  if (point.to) q.to = point.to;
  return `/findings${toQueryString(q)}`;
}
