import type { FilterQuery } from '../../shared/api-schemas';
import type { RateFilters } from '../query/rate-filters';

const list = (value?: string) => (value ? value.split(',').filter(Boolean) : undefined);

/** Query-string filters (already validated by their schema) to the query layer's filters. */
export function parseFilters(q: FilterQuery): RateFilters {
  return {
    codes: list(q.code),
    versions: list(q.version),
    models: list(q.model),
    from: q.from,
    to: q.to,
    rootIds: list(q.root)?.map(Number),
    sidechain: q.sidechain === 'main' ? false : q.sidechain === 'sidechain' ? true : undefined,
  };
}
