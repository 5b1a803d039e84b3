-- Detection on real transcripts (issues 12 and 21): per file and Claude Code version, counts that
-- are not findings: calls split from their result by auto-compaction, calls still open at the
-- end of the file, calls with non-empty input refused by validation (by error kind), and system
-- row subtypes the scanner does not know.
ALTER TABLE file_diagnostics ADD COLUMN compaction_splits INTEGER NOT NULL DEFAULT 0;
ALTER TABLE file_diagnostics ADD COLUMN calls_open_at_end INTEGER NOT NULL DEFAULT 0;
ALTER TABLE file_diagnostics ADD COLUMN rejected_tool_input TEXT NOT NULL DEFAULT '{}';     -- JSON object: error kind -> calls
ALTER TABLE file_diagnostics ADD COLUMN unknown_system_subtypes TEXT NOT NULL DEFAULT '{}'; -- JSON object: subtype -> rows

-- A file read in salvage mode around damaged lines (the user's explicit choice): labelled, with
-- its damage (JSON array of {code, line, torn}: the scan error code and line, and whether a torn
-- row was dropped there). A stream-json capture's terminal_reason (pattern-checked), or null.
ALTER TABLE files ADD COLUMN salvaged INTEGER NOT NULL DEFAULT 0 CHECK (salvaged IN (0, 1));
ALTER TABLE files ADD COLUMN damage TEXT;
ALTER TABLE files ADD COLUMN terminal_reason TEXT;
