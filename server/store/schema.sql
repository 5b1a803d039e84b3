-- What migrations 001-026 make of an empty database: written by `npm run schema`, never by hand.
-- version: 26
CREATE TABLE roots (
  id            INTEGER PRIMARY KEY,
  path          TEXT NOT NULL UNIQUE,
  label         TEXT NOT NULL,
  added_at      TEXT NOT NULL,
  last_scan_at  TEXT
, salvage INTEGER NOT NULL DEFAULT 0 CHECK (salvage IN (0, 1)), removed_ms INTEGER);
CREATE TABLE messages (
  file_id       INTEGER NOT NULL REFERENCES files(id) ON DELETE CASCADE,
  message_hash  INTEGER NOT NULL,   -- 64 bits of SHA-256(message.id)
  cell_id       INTEGER NOT NULL REFERENCES cells(id),
  tool_use_turn INTEGER NOT NULL, stop_known INTEGER NOT NULL DEFAULT 0, capture INTEGER NOT NULL DEFAULT 0, synthetic INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (file_id, message_hash)
) WITHOUT ROWID;
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
CREATE TABLE root_cells (
  root_id            INTEGER NOT NULL REFERENCES roots(id) ON DELETE CASCADE,
  cell_id            INTEGER NOT NULL REFERENCES cells(id),
  assistant_messages INTEGER NOT NULL,
  tool_use_turns     INTEGER NOT NULL, stop_known_messages INTEGER NOT NULL DEFAULT 0, capture_messages INTEGER NOT NULL DEFAULT 0, synthetic_messages INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (root_id, cell_id)
) WITHOUT ROWID;
CREATE TABLE "index_runs" (
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
CREATE TABLE meta (
  key   TEXT PRIMARY KEY,
  value TEXT NOT NULL
);
CREATE TABLE team_machines (
  id                           INTEGER PRIMARY KEY,
  machine                      TEXT NOT NULL UNIQUE,   -- the pseudonymous id chosen on that machine
  schema_version               INTEGER NOT NULL,
  detector_definitions_version INTEGER NOT NULL,
  tool_version                 TEXT NOT NULL,
  exported_at                  TEXT NOT NULL,
  imported_at                  TEXT NOT NULL,
  files_ok                     INTEGER NOT NULL CHECK (files_ok >= 0),
  files_damaged                INTEGER NOT NULL CHECK (files_damaged >= 0),
  files_excluded               INTEGER NOT NULL CHECK (files_excluded >= 0)
);
CREATE TABLE team_cells (
  machine_id          INTEGER NOT NULL REFERENCES team_machines(id) ON DELETE CASCADE,
  cell_id             INTEGER NOT NULL REFERENCES cells(id),
  assistant_messages  INTEGER NOT NULL CHECK (assistant_messages >= 0),
  tool_use_turns      INTEGER NOT NULL CHECK (tool_use_turns >= 0),
  stop_known_messages INTEGER NOT NULL CHECK (stop_known_messages >= 0),
  capture_messages    INTEGER NOT NULL CHECK (capture_messages >= 0),
  synthetic_messages  INTEGER NOT NULL CHECK (synthetic_messages >= 0),  -- in no denominator, reported beside them
  PRIMARY KEY (machine_id, cell_id)
) WITHOUT ROWID;
CREATE TABLE team_findings (
  machine_id INTEGER NOT NULL REFERENCES team_machines(id) ON DELETE CASCADE,
  cell_id    INTEGER NOT NULL REFERENCES cells(id),
  code       TEXT NOT NULL,
  findings   INTEGER NOT NULL CHECK (findings > 0), sessions INTEGER CHECK (sessions IS NULL OR sessions > 0), capped_findings INTEGER CHECK (capped_findings IS NULL OR capped_findings > 0),
  PRIMARY KEY (machine_id, cell_id, code)
) WITHOUT ROWID;
CREATE TABLE session_end_kinds (
  id   INTEGER PRIMARY KEY,
  name TEXT NOT NULL UNIQUE
);
CREATE TABLE "file_diagnostics" (
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
CREATE TABLE "files" (
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
  format             TEXT CHECK (format IN ('stream-json', 'sse')), gone_ms INTEGER, format_hint TEXT CHECK (format_hint IS NULL OR (length(format_hint) BETWEEN 1 AND 40 AND format_hint NOT GLOB '*[^a-z_]*')), empty INTEGER NOT NULL DEFAULT 0 CHECK (empty IN (0, 1)), agent TEXT CHECK (agent IS NULL OR (length(agent) BETWEEN 1 AND 20 AND agent NOT GLOB '*[^a-z-]*')), agent_version TEXT CHECK (agent_version IS NULL OR length(agent_version) BETWEEN 1 AND 60), model_messages INTEGER NOT NULL DEFAULT 0, tool_calls INTEGER NOT NULL DEFAULT 0, tool_results INTEGER NOT NULL DEFAULT 0,
  UNIQUE (root_id, path_hash)
);
CREATE TABLE turn_end_kinds (
  id   INTEGER PRIMARY KEY,
  name TEXT NOT NULL UNIQUE
);
CREATE TABLE turn_ends (
  file_id        INTEGER NOT NULL REFERENCES files(id) ON DELETE CASCADE,
  cell_id        INTEGER NOT NULL REFERENCES cells(id),
  kind           INTEGER NOT NULL REFERENCES turn_end_kinds(id),
  api_error_kind TEXT NOT NULL DEFAULT '' CHECK (api_error_kind IN ('', 'rate_limit', 'authentication', 'server_error', 'timeout',
                                                                   'connection', 'bad_request', 'retry_exhausted', 'no_response_requested', 'other')),
  last           INTEGER NOT NULL CHECK (last IN (0, 1)),
  turns          INTEGER NOT NULL,
  PRIMARY KEY (file_id, cell_id, kind, api_error_kind, last)
) WITHOUT ROWID;
CREATE TABLE "cells" (
  id         INTEGER PRIMARY KEY,
  day        TEXT NOT NULL,   -- YYYY-MM-DD (UTC) or '' when unknown
  version    TEXT NOT NULL,   -- the agent's version or '' when unknown
  model      TEXT NOT NULL,   -- pattern-checked model id or '' when unknown
  sidechain  INTEGER NOT NULL,
  effort     TEXT NOT NULL DEFAULT '',
  agent      TEXT NOT NULL DEFAULT 'claude-code' CHECK (length(agent) BETWEEN 1 AND 20 AND agent NOT GLOB '*[^a-z-]*'),
  UNIQUE (day, version, model, sidechain, effort, agent)
);
CREATE TABLE database_sources (
  root_id   INTEGER NOT NULL REFERENCES roots(id) ON DELETE CASCADE,
  rel_path  TEXT NOT NULL,
  state     TEXT NOT NULL CHECK (length(state) = 32 AND state NOT GLOB '*[^0-9a-f]*'),
  sessions  INTEGER NOT NULL,
  PRIMARY KEY (root_id, rel_path)
) WITHOUT ROWID;
CREATE INDEX findings_by_file ON findings (file_id);
CREATE INDEX findings_by_cell ON findings (cell_id, code);
CREATE INDEX files_failed_by_root ON files (root_id, rel_path) WHERE status = 'failed';
CREATE INDEX files_gone_by_root ON files (root_id, gone_ms) WHERE gone_ms IS NOT NULL;
CREATE INDEX files_by_agent ON files (agent) WHERE agent IS NOT NULL;
INSERT INTO "meta" ("key", "value") VALUES ('root_cells_dirty', '1');
INSERT INTO "session_end_kinds" ("id", "name") VALUES (0, 'text_answer');
INSERT INTO "session_end_kinds" ("id", "name") VALUES (1, 'tool_call');
INSERT INTO "session_end_kinds" ("id", "name") VALUES (2, 'said_nothing');
INSERT INTO "session_end_kinds" ("id", "name") VALUES (3, 'max_tokens');
INSERT INTO "session_end_kinds" ("id", "name") VALUES (4, 'interrupted');
INSERT INTO "session_end_kinds" ("id", "name") VALUES (5, 'api_error');
INSERT INTO "session_end_kinds" ("id", "name") VALUES (6, 'lost_call');
INSERT INTO "session_end_kinds" ("id", "name") VALUES (7, 'unknown');
INSERT INTO "turn_end_kinds" ("id", "name") VALUES (0, 'text_answer');
INSERT INTO "turn_end_kinds" ("id", "name") VALUES (1, 'tool_call');
INSERT INTO "turn_end_kinds" ("id", "name") VALUES (2, 'said_nothing');
INSERT INTO "turn_end_kinds" ("id", "name") VALUES (3, 'cut_while_thinking');
INSERT INTO "turn_end_kinds" ("id", "name") VALUES (4, 'cut_in_text');
INSERT INTO "turn_end_kinds" ("id", "name") VALUES (5, 'cut_in_call');
INSERT INTO "turn_end_kinds" ("id", "name") VALUES (6, 'interrupted');
INSERT INTO "turn_end_kinds" ("id", "name") VALUES (7, 'api_error');
INSERT INTO "turn_end_kinds" ("id", "name") VALUES (8, 'lost_call');
INSERT INTO "turn_end_kinds" ("id", "name") VALUES (9, 'unknown');
