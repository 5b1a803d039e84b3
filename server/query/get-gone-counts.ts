import type { Db } from '../store/database';
import { prepared } from '../store/prepared';
import { cellFilterSql, type FilterParams, filterParams, type RateFilters } from './rate-filters';

function prepare(db: Db) {
  // Counted findings only (one per message, as every rate counts them), under the same filters.
  return db.prepare<FilterParams, { n: number }>(`
    SELECT count(*) AS n FROM findings fi JOIN files f ON f.id = fi.file_id JOIN cells c ON c.id = fi.cell_id
    WHERE f.gone_ms IS NOT NULL AND fi.counted = 1 AND ${cellFilterSql('f.root_id')}
      AND (@codes IS NULL OR fi.code IN (SELECT value FROM json_each(@codes)))`);
}

/** Counted findings whose transcript is no longer on disk (issue 27): the evidence report says how many. */
export function countFindingsFromGoneFiles(db: Db, filters: RateFilters = {}): number {
  const st = prepared(db, prepare);
  return st.get(filterParams(filters))!.n;
}
