import type { FilterQuery } from '../../shared/api-schemas';
import type { RateFilters } from '../query/rate-filters';

const list = (value?: string) => (value ? value.split(',').filter(Boolean) : undefined);

/** A `folder` parameter (comma-separated folder ids) to ids; undefined when absent. */
export const folderIds = (value?: string) => list(value)?.map(Number);

/** Query-string filters (already validated by their schema) to the query layer's filters. */
export function parseFilters(q: FilterQuery): RateFilters {
  return {
    codes: list(q.code),
    versions: list(q.version),
    models: list(q.model),
    efforts: list(q.effort),
    from: q.from,
    to: q.to,
    folderIds: folderIds(q.folder),
    sidechain: q.sidechain === 'main' ? false : q.sidechain === 'sidechain' ? true : undefined,
    agents: list(q.agent),
  };
}
