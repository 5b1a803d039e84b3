/**
 * The team database: figures imported from other machines (migration 009; written only by
 * `import-aggregates`). The rows every rate question sums are the local index's and these. Team
 * rows have no folder (root_id NULL), so a folder filter leaves them out and no filter sums everything. A database without imports
 * has empty team tables, and the figures are the local index's alone.
 *
 * Queries join these as `<rows> CROSS JOIN cells c`: CROSS JOIN keeps the rows as the outer loop
 * (cells looked up by id), where a plain JOIN let SQLite build an automatic index on the union
 * (about 4× slower numerators on a 26,000-message index).
 */

/**
 * Denominators per root (or team machine) and cell: the counts root_cells stores (migration 005)
 * and the same counts as another machine's root_cells summed them (team_cells, migration 009).
 * The columns are those DENOMINATOR_SUMS_SQL (get-rates.ts) sums.
 */
export const DENOMINATOR_ROWS_SQL = `(
  SELECT root_id, cell_id, assistant_messages, tool_use_turns, stop_known_messages, capture_messages, synthetic_messages
  FROM root_cells
  UNION ALL
  SELECT NULL, cell_id, assistant_messages, tool_use_turns, stop_known_messages, capture_messages, synthetic_messages
  FROM team_cells)`;

/** Counted findings: one row per local finding (n = 1) and one per team machine, cell and code (n = its count). */
export const FINDING_COUNT_ROWS_SQL = `(
  SELECT f.root_id AS root_id, fi.cell_id AS cell_id, fi.code AS code, 1 AS n
  FROM findings fi JOIN files f ON f.id = fi.file_id
  WHERE fi.counted = 1
  UNION ALL
  SELECT NULL, cell_id, code, findings
  FROM team_findings)`;

/** Team machines and their files, for the summary's folder and file counts (no folder filter: all of them; a folder filter: none). */
export const TEAM_FILES_SQL = `
  SELECT count(*) AS machines, coalesce(sum(files_ok), 0) AS files_ok, coalesce(sum(files_damaged), 0) AS files_damaged,
         coalesce(sum(files_excluded), 0) AS files_excluded
  FROM team_machines WHERE @roots IS NULL`;
