-- Metadata only. No column may hold message text, thinking, tool names, inputs or results,
-- ids, cwd or absolute paths, except roots.path: the local owner's own folder, never exported.

CREATE TABLE roots (
  id            INTEGER PRIMARY KEY,
  path          TEXT NOT NULL UNIQUE,
  label         TEXT NOT NULL,
  added_at      TEXT NOT NULL,
  last_scan_at  TEXT
);

CREATE TABLE files (
  id                 INTEGER PRIMARY KEY,
  root_id            INTEGER NOT NULL REFERENCES roots(id) ON DELETE CASCADE,
  rel_path           TEXT NOT NULL,
  size               INTEGER NOT NULL,
  mtime_ms           INTEGER NOT NULL,
  -- SHA-256 of the first and last 4 KiB and the size: cheap to recompute on every run.
  fingerprint        TEXT NOT NULL,
  status             TEXT NOT NULL CHECK (status IN ('ok', 'failed', 'in_progress')),
  error_code         TEXT,
  error_line         INTEGER,
  first_row_at       TEXT,
  last_row_at        TEXT,
  session_hash       TEXT,
  sidechain          INTEGER NOT NULL DEFAULT 0,
  assistant_messages INTEGER NOT NULL DEFAULT 0,
  findings           INTEGER NOT NULL DEFAULT 0,
  indexed_at         TEXT NOT NULL,
  UNIQUE (root_id, rel_path)
);

-- (day, version, model, sidechain) combinations, so per-message rows stay a few integers wide.
CREATE TABLE cells (
  id         INTEGER PRIMARY KEY,
  day        TEXT NOT NULL,   -- YYYY-MM-DD (UTC) or '' when unknown
  version    TEXT NOT NULL,   -- Claude Code version or '' when unknown
  model      TEXT NOT NULL,   -- pattern-checked model id or '' when unknown
  sidechain  INTEGER NOT NULL,
  UNIQUE (day, version, model, sidechain)
);

-- One row per assistant message (harness-written API errors excluded), per file it appears in.
CREATE TABLE messages (
  file_id       INTEGER NOT NULL REFERENCES files(id) ON DELETE CASCADE,
  message_hash  INTEGER NOT NULL,   -- 64 bits of SHA-256(message.id)
  cell_id       INTEGER NOT NULL REFERENCES cells(id),
  tool_use_turn INTEGER NOT NULL,
  PRIMARY KEY (file_id, message_hash)
) WITHOUT ROWID;
CREATE INDEX messages_by_hash ON messages (message_hash);

CREATE TABLE findings (
  id              INTEGER PRIMARY KEY,
  file_id         INTEGER NOT NULL REFERENCES files(id) ON DELETE CASCADE,
  code            TEXT NOT NULL,
  first_line      INTEGER NOT NULL,
  last_line       INTEGER NOT NULL,
  source_lines    TEXT NOT NULL,     -- JSON array of line numbers
  evidence_sha256 TEXT NOT NULL,
  cell_id         INTEGER NOT NULL REFERENCES cells(id),
  block_types     TEXT NOT NULL,     -- JSON array of pattern-checked block type names
  signed_thinking INTEGER NOT NULL,
  message_hash    INTEGER NOT NULL,
  details         TEXT NOT NULL DEFAULT '{}',  -- detector-specific metadata (codes and counts only)
  -- 1 when this copy of the message is the one counted in rates (see root_cells below).
  counted         INTEGER NOT NULL DEFAULT 1
);
CREATE INDEX findings_by_file ON findings (file_id);
CREATE INDEX findings_by_cell ON findings (cell_id, code);

-- Denominators per root and cell, each message counted once per root: where Claude Code copies
-- history into several files of one root, the copy in the file whose first row is earliest
-- (then the smallest relative path) wins. Rebuilt from messages after every index run that changed something.
CREATE TABLE root_cells (
  root_id            INTEGER NOT NULL REFERENCES roots(id) ON DELETE CASCADE,
  cell_id            INTEGER NOT NULL REFERENCES cells(id),
  assistant_messages INTEGER NOT NULL,
  tool_use_turns     INTEGER NOT NULL,
  PRIMARY KEY (root_id, cell_id)
) WITHOUT ROWID;

CREATE TABLE scans (
  id               INTEGER PRIMARY KEY,
  root_id          INTEGER REFERENCES roots(id) ON DELETE SET NULL,
  started_at       TEXT NOT NULL,
  finished_at      TEXT,
  duration_ms      INTEGER,
  status           TEXT NOT NULL CHECK (status IN ('running', 'done', 'interrupted', 'failed')),
  files_seen       INTEGER NOT NULL DEFAULT 0,
  files_changed    INTEGER NOT NULL DEFAULT 0,
  files_removed    INTEGER NOT NULL DEFAULT 0,
  files_failed     INTEGER NOT NULL DEFAULT 0,
  bytes_read       INTEGER NOT NULL DEFAULT 0,
  findings_added   INTEGER NOT NULL DEFAULT 0,
  findings_removed INTEGER NOT NULL DEFAULT 0
);

-- Small key/value state: whether root_cells must be rebuilt, the export pseudonym salt.
CREATE TABLE meta (
  key   TEXT PRIMARY KEY,
  value TEXT NOT NULL
);
