-- foreign_keys: off
-- Issue 34: the agent as a dimension. Every file is read by the adapter of its format (decided from
-- its content), so each file says whose transcript it is, and every message, finding and
-- denominator is counted under a cell that names the agent: versions are per agent (`codex 0.146.0`
-- never mixes with `claude-code 2.1.146`), and every rate can be filtered by agent.
--
-- Cells gain `agent` (a name from shared/agents.ts). The inline UNIQUE constraint cannot change in
-- place, so the table is copied with the same ids (as in migration 018). Existing cells are Claude
-- Code's: before this migration nothing else was read.
CREATE TABLE cells_023 (
  id         INTEGER PRIMARY KEY,
  day        TEXT NOT NULL,   -- YYYY-MM-DD (UTC) or '' when unknown
  version    TEXT NOT NULL,   -- the agent's version or '' when unknown
  model      TEXT NOT NULL,   -- pattern-checked model id or '' when unknown
  sidechain  INTEGER NOT NULL,
  effort     TEXT NOT NULL DEFAULT '',
  agent      TEXT NOT NULL DEFAULT 'claude-code' CHECK (length(agent) BETWEEN 1 AND 20 AND agent NOT GLOB '*[^a-z-]*'),
  UNIQUE (day, version, model, sidechain, effort, agent)
);
INSERT INTO cells_023 (id, day, version, model, sidechain, effort) SELECT id, day, version, model, sidechain, effort FROM cells;
DROP TABLE cells;
ALTER TABLE cells_023 RENAME TO cells;

-- Per file read: its agent and that agent's version as the file records it (the first; NULL when the
-- format records none), and the format's own counts (../shared/corpus/agents/SOURCES.md: model
-- messages as the format records them, calls the model emitted, results paired to a call by id).
-- NULL agent: a file that was not read (failed, in progress).
ALTER TABLE files ADD COLUMN agent TEXT CHECK (agent IS NULL OR (length(agent) BETWEEN 1 AND 20 AND agent NOT GLOB '*[^a-z-]*'));
ALTER TABLE files ADD COLUMN agent_version TEXT CHECK (agent_version IS NULL OR length(agent_version) BETWEEN 1 AND 60);
ALTER TABLE files ADD COLUMN model_messages INTEGER NOT NULL DEFAULT 0;
ALTER TABLE files ADD COLUMN tool_calls INTEGER NOT NULL DEFAULT 0;
ALTER TABLE files ADD COLUMN tool_results INTEGER NOT NULL DEFAULT 0;
CREATE INDEX files_by_agent ON files (agent) WHERE agent IS NOT NULL;

-- Read again at the next index run: every file read (it gets its agent and counts), and the files
-- refused in a way a new reader may now read: `unknown_format` (Codex rollouts), and `malformed_json`
-- at line 1 (a pretty-printed document, such as an OpenCode export, fails there line by line).
UPDATE files SET fingerprint = X''
  WHERE status = 'ok' OR (status = 'failed' AND (error_code = 'unknown_format' OR (error_code = 'malformed_json' AND error_line = 1)));
INSERT INTO meta (key, value) VALUES ('root_cells_dirty', '1') ON CONFLICT (key) DO UPDATE SET value = excluded.value;
