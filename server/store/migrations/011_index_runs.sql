-- One name for an indexing run everywhere (issue 14): the table that records each run is index_runs,
-- as the code (IndexRun, IndexRunner) and the API (/api/index-runs) name it. "scan" now means only
-- the command that reads files without storing anything. Rows, ids and constraints are kept.
ALTER TABLE scans RENAME TO index_runs;
