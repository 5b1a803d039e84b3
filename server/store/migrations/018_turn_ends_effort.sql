-- foreign_keys: off
-- Issue 33: how every turn ends, and effort as a dimension next to version and model.
--
-- Cells gain `effort` (the effort an assistant row records, 2.1.212+, pattern-checked; '' when unknown):
-- every message, finding and denominator is counted under it, so every rate can be filtered and grouped
-- by effort the way it is by version and model. The inline UNIQUE constraint cannot change in place, so
-- the table is copied with the same ids (SQLite's 12-step change; foreign keys off, checked before the
-- commit, as in migration 016). Existing cells get effort ''.
CREATE TABLE cells_018 (
  id         INTEGER PRIMARY KEY,
  day        TEXT NOT NULL,   -- YYYY-MM-DD (UTC) or '' when unknown
  version    TEXT NOT NULL,   -- Claude Code version or '' when unknown
  model      TEXT NOT NULL,   -- pattern-checked model id or '' when unknown
  sidechain  INTEGER NOT NULL,
  effort     TEXT NOT NULL DEFAULT '',   -- pattern-checked effort (low, medium, high, xhigh, ...) or '' when unknown
  UNIQUE (day, version, model, sidechain, effort)
);
INSERT INTO cells_018 (id, day, version, model, sidechain) SELECT id, day, version, model, sidechain FROM cells;
DROP TABLE cells;
ALTER TABLE cells_018 RENAME TO cells;

-- The turn-end classes (shared/turn-ends.ts); a test checks this table holds every name.
CREATE TABLE turn_end_kinds (
  id   INTEGER PRIMARY KEY,
  name TEXT NOT NULL UNIQUE
);
INSERT INTO turn_end_kinds (id, name) VALUES
  (0, 'text_answer'), (1, 'tool_call'), (2, 'said_nothing'), (3, 'cut_while_thinking'), (4, 'cut_in_text'),
  (5, 'cut_in_call'), (6, 'interrupted'), (7, 'api_error'), (8, 'lost_call'), (9, 'unknown');

-- Per file: how many of its turns ended each way, under the cell (day, version, model, thread, effort)
-- of the turn's last message; api_error_kind only for api_error ends (the fixed kinds of
-- server/scan/harness-markers.ts), '' otherwise; last = 1 for the file's last turn end (its session end).
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

-- Every transcript is read again at the next index run: its messages get their effort, its turns their ends
-- (the fingerprint no file has, as migration 015 does).
UPDATE files SET fingerprint = X'' WHERE status = 'ok' AND format IS NULL;
INSERT INTO meta (key, value) VALUES ('root_cells_dirty', '1') ON CONFLICT (key) DO UPDATE SET value = excluded.value;
