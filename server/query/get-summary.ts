import type { SummaryResponse } from '../../shared/api-schemas';
import type { Db } from '../store/database';
import { prepared } from '../store/prepared';
import { getFileCounts } from './get-file-counts';
import { codeRate, DENOMINATOR_SUMS_SQL, denominatorsOf, type StoredDenominators, selectedCodes } from './get-rates';
import { cellFilterSql, type FilterParams, filterParams, type RateFilters } from './rate-filters';
import { DENOMINATOR_ROWS_SQL, FINDING_COUNT_ROWS_SQL, TEAM_FILES_SQL } from './team-database';

function prepare(db: Db) {
  return {
    // A gone file (migration 017) is counted as ok (it was read whole) and once more as gone.
    files: db.prepare<{ roots: string | null }, { status: string; n: number }>(`
      SELECT status, count(*) AS n FROM files
      WHERE @roots IS NULL OR root_id IN (SELECT value FROM json_each(@roots))
      GROUP BY status
      UNION ALL
      SELECT 'gone', count(*) FROM files WHERE gone_ms IS NOT NULL
        AND (@roots IS NULL OR root_id IN (SELECT value FROM json_each(@roots)))`),
    roots: db.prepare<{ roots: string | null }, { roots: number; never: number }>(`
      SELECT count(*) AS roots, sum(last_scan_at IS NULL) AS never FROM roots
      WHERE @roots IS NULL OR id IN (SELECT value FROM json_each(@roots))`),
    denominators: db.prepare<FilterParams, StoredDenominators & { first_day: string | null; last_day: string | null }>(`
      SELECT ${DENOMINATOR_SUMS_SQL},
             min(nullif(c.day, '')) AS first_day, max(nullif(c.day, '')) AS last_day
      FROM ${DENOMINATOR_ROWS_SQL} rc CROSS JOIN cells c ON c.id = rc.cell_id
      WHERE ${cellFilterSql('rc.root_id')}`),
    findings: db.prepare<FilterParams, { code: string; n: number }>(`
      SELECT fi.code AS code, sum(fi.n) AS n
      FROM ${FINDING_COUNT_ROWS_SQL} fi CROSS JOIN cells c ON c.id = fi.cell_id
      WHERE ${cellFilterSql('fi.root_id')}
        AND (@codes IS NULL OR fi.code IN (SELECT value FROM json_each(@codes)))
      GROUP BY fi.code`),
    // Each imported team machine (the team database) counts as one folder, its files with the local ones.
    team: db.prepare<{ roots: string | null }, { machines: number; files_ok: number; files_damaged: number; files_excluded: number }>(TEAM_FILES_SQL),
  };
}

/** Headline figures: files by status, folders, deduplicated denominators, findings per code with rates. */
export function getSummary(db: Db, filters: RateFilters = {}): SummaryResponse {
  const st = prepared(db, prepare);
  const params = filterParams(filters);
  const files = new Map(st.files.all({ roots: params.roots }).map((r) => [r.status, r.n]));
  const roots = st.roots.get({ roots: params.roots })!;
  const d = st.denominators.get(params)!;
  const team = st.team.get({ roots: params.roots })!;
  const counts = new Map(st.findings.all(params).map((r) => [r.code, r.n]));
  const denominators = denominatorsOf(d);
  // The summary's own count of files being written includes team machines' excluded files.
  const { files_in_progress: _, ...fileCounts } = getFileCounts(db, params.roots);
  return {
    folders: roots.roots + team.machines,
    folders_never_indexed: roots.never ?? 0,
    files_ok: (files.get('ok') ?? 0) + team.files_ok,
    files_failed: (files.get('failed') ?? 0) + team.files_damaged,
    files_in_progress: (files.get('in_progress') ?? 0) + team.files_excluded,
    files_gone: files.get('gone') ?? 0,
    ...denominators,
    codes: selectedCodes(filters).map((code) => codeRate(code, counts.get(code) ?? 0, denominators)),
    first_day: d.first_day,
    last_day: d.last_day,
    ...fileCounts,
  };
}
