import { compareVersions } from '../../shared/version-order';
import type { Db } from '../store/database';
import { prepared } from '../store/prepared';
import { compareAgents } from './get-rates';
import { cellFilterSql, type FilterParams, filterParams, type RateFilters } from './rate-filters';
import { DENOMINATOR_ROWS_SQL } from './team-database';

function prepare(db: Db) {
  return db.prepare<FilterParams, { agent: string; version: string; first_day: string }>(`
    SELECT c.agent AS agent, c.version AS version, min(c.day) AS first_day
    FROM ${DENOMINATOR_ROWS_SQL} rc CROSS JOIN cells c ON c.id = rc.cell_id
    WHERE c.version <> '' AND c.day <> '' AND ${cellFilterSql('rc.root_id')}
    GROUP BY c.agent, c.version`);
}

/** The first day each agent's version was seen (versions are per agent), for markers on the timeline. */
export function getVersionMarkers(db: Db, filters: RateFilters = {}): Array<{ agent: string; version: string; first_day: string }> {
  const st = prepared(db, prepare);
  return st.all(filterParams(filters)).sort((a, b) => compareAgents(a.agent, b.agent) || compareVersions(a.version, b.version));
}
