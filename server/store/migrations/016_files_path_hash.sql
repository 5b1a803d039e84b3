-- foreign_keys: off
-- Issue 13: at 100,000 tiny transcripts named as Claude Code names them (`-home-user-src-project/<uuid>.jsonl`,
-- ~68 characters), the path was stored twice: in the row and in the (root_id, rel_path) unique index that
-- finds a file's row, ~136 bytes a file, and the database was 130% of such a corpus. The index now keys a
-- file by the first 64 bits of SHA-256 of its relative path (`path_hash`, 8 bytes; computed by the
-- `path_hash()` function every writable connection registers, server/store/path-hash.ts). The row still
-- holds the path. Two paths of one folder whose hashes collide (odds ~1 in 10^9 at 100,000 files) are
-- refused by the writer, never merged: the upsert updates a row only when its path is the same.
-- SQLite's 12-step table change: an inline UNIQUE constraint cannot be dropped, so the table is copied
-- with the same ids and renamed. The migration runner turns foreign keys off for a migration marked as
-- this one is (else dropping the old table would cascade to every message, finding and diagnostic) and
-- checks them (PRAGMA foreign_key_check) before it commits.
CREATE TABLE files_016 (
  id                 INTEGER PRIMARY KEY,
  root_id            INTEGER NOT NULL REFERENCES roots(id) ON DELETE CASCADE,
  path_hash          INTEGER NOT NULL,
  rel_path           TEXT NOT NULL,
  size               INTEGER NOT NULL,
  mtime_ms           INTEGER NOT NULL,
  status             TEXT NOT NULL CHECK (status IN ('ok', 'failed', 'in_progress')),
  error_code         TEXT,
  error_line         INTEGER,
  sidechain          INTEGER NOT NULL DEFAULT 0,
  assistant_messages INTEGER NOT NULL DEFAULT 0,
  findings           INTEGER NOT NULL DEFAULT 0,
  salvaged           INTEGER NOT NULL DEFAULT 0 CHECK (salvaged IN (0, 1)),
  damage             TEXT,
  terminal_reason    TEXT,
  -- The first 128 bits of SHA-256 of the first and last 4 KiB and the size (migration 015).
  fingerprint        BLOB NOT NULL DEFAULT X'',
  session_hash       BLOB,
  first_row_ms       INTEGER,
  row_span_ms        INTEGER,
  indexed_ms         INTEGER NOT NULL DEFAULT 0,
  session_end_cell   INTEGER REFERENCES cells(id),
  session_end_kind   INTEGER REFERENCES session_end_kinds(id),
  format             TEXT CHECK (format IN ('stream-json', 'sse')),
  UNIQUE (root_id, path_hash)
);
INSERT INTO files_016 (id, root_id, path_hash, rel_path, size, mtime_ms, status, error_code, error_line, sidechain,
                       assistant_messages, findings, salvaged, damage, terminal_reason, fingerprint, session_hash,
                       first_row_ms, row_span_ms, indexed_ms, session_end_cell, session_end_kind, format)
  SELECT id, root_id, path_hash(rel_path), rel_path, size, mtime_ms, status, error_code, error_line, sidechain,
         assistant_messages, findings, salvaged, damage, terminal_reason, fingerprint, session_hash,
         first_row_ms, row_span_ms, indexed_ms, session_end_cell, session_end_kind, format
  FROM files;
DROP TABLE files;
ALTER TABLE files_016 RENAME TO files;
-- The failed files of a folder in path order (an index run's closing transaction lists them): the
-- (root_id, rel_path) index used to serve that; a partial one holds only failed files.
CREATE INDEX files_failed_by_root ON files (root_id, rel_path) WHERE status = 'failed';
