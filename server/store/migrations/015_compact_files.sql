-- Issue 13: 100,000 tiny transcripts made a database of 159% of the corpus, a file's row (257 bytes)
-- outweighing a ~220-byte file. The files table keeps its rows and ids; its wide text columns become
-- compact ones, each exact for what reads it:
--   fingerprint          64 hex characters -> 16 bytes (the first 128 bits of the same SHA-256; the
--                        planner reads lower(hex(...)), so an unchanged file stays unchanged across
--                        the upgrade; values that were not a digest, such as the 'reindex:005' and ''
--                        markers, become X'', which no file's fingerprint equals: read again)
--   session_hash         16 hex characters -> its 8 bytes (lower(hex(...)) gives the same API id)
--   first_row_at, last_row_at, indexed_at  ISO text -> first_row_ms, row_span_ms, indexed_ms: UTC
--                        milliseconds (the writer stores only toISOString()'s form, so nothing is lost;
--                        the last row's time is first_row_ms + row_span_ms, both null or both set; the
--                        earliest copy is chosen by time; the query layer formats them)
--   session_end_version, _model, _day -> session_end_cell: the cell (day, version, model, the file's
--                        thread) that already names such combinations; '' in a cell is unknown, as NULL was
--   session_end          its name (up to 12 characters) -> session_end_kind, the id of that name in the
--                        new session_end_kinds table (the vocabulary of shared/session-ends.ts)
--   format               'transcript' on nearly every row -> NULL for a transcript, the capture's
--                        format otherwise (readers say coalesce(format, 'transcript'))
-- Columns change by ADD / UPDATE / DROP COLUMN, not by copying the table: foreign keys are on while
-- migrations run (in one transaction, where PRAGMA foreign_keys cannot change), and dropping the old
-- files table would cascade to every message, finding and diagnostic of the index.
ALTER TABLE files ADD COLUMN fingerprint_bytes BLOB NOT NULL DEFAULT X'';
UPDATE files SET fingerprint_bytes = unhex(substr(fingerprint, 1, 32))
  WHERE length(fingerprint) = 64 AND fingerprint NOT GLOB '*[^0-9a-f]*';
ALTER TABLE files DROP COLUMN fingerprint;
ALTER TABLE files RENAME COLUMN fingerprint_bytes TO fingerprint;

ALTER TABLE files ADD COLUMN session_hash_bytes BLOB;
UPDATE files SET session_hash_bytes = unhex(session_hash)
  WHERE length(session_hash) = 16 AND session_hash NOT GLOB '*[^0-9a-f]*';
-- A value the new column cannot hold exactly is not guessed: its file is read again at the next run.
UPDATE files SET fingerprint = X'' WHERE session_hash IS NOT NULL AND session_hash_bytes IS NULL;
ALTER TABLE files DROP COLUMN session_hash;
ALTER TABLE files RENAME COLUMN session_hash_bytes TO session_hash;

ALTER TABLE files ADD COLUMN first_row_ms INTEGER;
ALTER TABLE files ADD COLUMN row_span_ms INTEGER;
ALTER TABLE files ADD COLUMN indexed_ms INTEGER NOT NULL DEFAULT 0;
UPDATE files SET first_row_ms = CAST(round(unixepoch(first_row_at, 'subsec') * 1000) AS INTEGER),
                 indexed_ms = coalesce(CAST(round(unixepoch(indexed_at, 'subsec') * 1000) AS INTEGER), 0);
UPDATE files SET row_span_ms = CAST(round(unixepoch(last_row_at, 'subsec') * 1000) AS INTEGER) - first_row_ms;
-- Text that is not a time (an older build stored a row's raw timestamp: issue 13, point 5): read again.
UPDATE files SET fingerprint = X''
  WHERE (first_row_at IS NOT NULL AND first_row_ms IS NULL) OR (last_row_at IS NOT NULL AND row_span_ms IS NULL);
ALTER TABLE files DROP COLUMN first_row_at;
ALTER TABLE files DROP COLUMN last_row_at;
ALTER TABLE files DROP COLUMN indexed_at;

ALTER TABLE files ADD COLUMN session_end_cell INTEGER REFERENCES cells(id);
INSERT OR IGNORE INTO cells (day, version, model, sidechain)
  SELECT DISTINCT coalesce(session_end_day, ''), coalesce(session_end_version, ''), coalesce(session_end_model, ''), sidechain
  FROM files WHERE session_end IS NOT NULL;
UPDATE files SET session_end_cell = (
    SELECT c.id FROM cells c
    WHERE c.day = coalesce(files.session_end_day, '') AND c.version = coalesce(files.session_end_version, '')
      AND c.model = coalesce(files.session_end_model, '') AND c.sidechain = files.sidechain)
  WHERE session_end IS NOT NULL;
ALTER TABLE files DROP COLUMN session_end_version;
ALTER TABLE files DROP COLUMN session_end_model;
ALTER TABLE files DROP COLUMN session_end_day;

CREATE TABLE session_end_kinds (
  id   INTEGER PRIMARY KEY,
  name TEXT NOT NULL UNIQUE
);
INSERT INTO session_end_kinds (id, name) VALUES
  (0, 'text_answer'), (1, 'tool_call'), (2, 'said_nothing'), (3, 'max_tokens'), (4, 'interrupted'),
  (5, 'api_error'), (6, 'lost_call'), (7, 'unknown');
ALTER TABLE files ADD COLUMN session_end_kind INTEGER REFERENCES session_end_kinds(id);
UPDATE files SET session_end_kind = (SELECT k.id FROM session_end_kinds k WHERE k.name = files.session_end);
ALTER TABLE files DROP COLUMN session_end;

ALTER TABLE files ADD COLUMN capture_format TEXT CHECK (capture_format IN ('stream-json', 'sse'));
UPDATE files SET capture_format = nullif(format, 'transcript');
ALTER TABLE files DROP COLUMN format;
ALTER TABLE files RENAME COLUMN capture_format TO format;

-- Per file and version diagnostics: the four JSON objects are NULL when empty (they almost always
-- are), not '{}'. No table references this one, so it is rebuilt by SQLite's copy-and-rename.
CREATE TABLE file_diagnostics_015 (
  file_id                 INTEGER NOT NULL REFERENCES files(id) ON DELETE CASCADE,
  version                 TEXT NOT NULL,   -- '' when unknown
  text_rows               INTEGER NOT NULL,
  tool_use_rows           INTEGER NOT NULL,
  unknown_row_types       TEXT,            -- JSON object: type name -> rows; NULL when none
  unknown_block_types     TEXT,            -- JSON object: type name -> blocks; NULL when none
  compaction_splits       INTEGER NOT NULL DEFAULT 0,
  calls_open_at_end       INTEGER NOT NULL DEFAULT 0,
  rejected_tool_input     TEXT,            -- JSON object: error kind -> calls; NULL when none
  unknown_system_subtypes TEXT,            -- JSON object: subtype -> rows; NULL when none
  PRIMARY KEY (file_id, version)
) WITHOUT ROWID;
INSERT INTO file_diagnostics_015
  SELECT file_id, version, text_rows, tool_use_rows, nullif(unknown_row_types, '{}'), nullif(unknown_block_types, '{}'),
         compaction_splits, calls_open_at_end, nullif(rejected_tool_input, '{}'), nullif(unknown_system_subtypes, '{}')
  FROM file_diagnostics;
DROP TABLE file_diagnostics;
ALTER TABLE file_diagnostics_015 RENAME TO file_diagnostics;
