import type { VersionEffortRow, VersionModelRow } from '../../shared/api-schemas';
import { compareVersions } from '../../shared/version-order';
import type { Db } from '../store/database';
import { prepared } from '../store/prepared';
import { codeRate, compareAgents, DENOMINATOR_SUMS_SQL, denominatorsOf, type StoredDenominators, selectedCodes } from './get-rates';
import { cellFilterSql, type FilterParams, filterParams, type RateFilters } from './rate-filters';
import { DENOMINATOR_ROWS_SQL, FINDING_COUNT_ROWS_SQL } from './team-database';

/** The second dimension of the cross-table: the model (default) or the effort; the column name is fixed SQL. */
type Second = 'model' | 'effort';

function prepare(db: Db, second: Second) {
  return {
    denominators: db.prepare<FilterParams, StoredDenominators & { agent: string; version: string; model: string }>(`
      SELECT c.agent, c.version, c.${second} AS model, ${DENOMINATOR_SUMS_SQL}
      FROM ${DENOMINATOR_ROWS_SQL} rc CROSS JOIN cells c ON c.id = rc.cell_id
      WHERE ${cellFilterSql('rc.root_id')}
      GROUP BY 1, 2, 3`),
    numerators: db.prepare<FilterParams, { agent: string; version: string; model: string; code: string; n: number }>(`
      SELECT c.agent, c.version, c.${second} AS model, fi.code, sum(fi.n) AS n
      FROM ${FINDING_COUNT_ROWS_SQL} fi CROSS JOIN cells c ON c.id = fi.cell_id
      WHERE ${cellFilterSql('fi.root_id')}
        AND (@codes IS NULL OR fi.code IN (SELECT value FROM json_each(@codes)))
      GROUP BY 1, 2, 3, 4`),
  };
}

const prepareModel = (db: Db) => prepare(db, 'model');
const prepareEffort = (db: Db) => prepare(db, 'effort');

function statements(db: Db, second: Second) {
  return prepared(db, second === 'model' ? prepareModel : prepareEffort);
}

/** Rates for every agent's version × effort pair (versions are per agent), for the effort breakdown on the Versions page. */
export function getVersionEffortRates(db: Db, filters: RateFilters = {}): VersionEffortRow[] {
  return crossRates(db, 'effort', filters).map(({ model, ...rest }) => ({ ...rest, effort: model }));
}

/** Rates for every agent's version × model pair (versions are per agent), for the cross-table on the Versions page. */
export function getVersionModelRates(db: Db, filters: RateFilters = {}): VersionModelRow[] {
  return crossRates(db, 'model', filters);
}

function crossRates(db: Db, second: Second, filters: RateFilters): VersionModelRow[] {
  const st = statements(db, second);
  const params = filterParams(filters);
  const counts = new Map<string, number>();
  for (const n of st.numerators.all(params)) counts.set(`${n.agent}\u0000${n.version}\u0000${n.model}\u0000${n.code}`, n.n);
  return st.denominators
    .all(params)
    .map((stored) => {
      const d = denominatorsOf(stored);
      return {
        agent: stored.agent,
        version: stored.version || null,
        model: stored.model || null,
        ...d,
        codes: selectedCodes(filters).map((code) =>
          codeRate(code, counts.get(`${stored.agent}\u0000${stored.version}\u0000${stored.model}\u0000${code}`) ?? 0, d),
        ),
      };
    })
    .sort((a, b) => compareAgents(a.agent, b.agent) || compareVersions(a.version ?? '', b.version ?? '') || (a.model ?? '~').localeCompare(b.model ?? '~'));
}
