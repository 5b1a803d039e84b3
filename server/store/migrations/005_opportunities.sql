-- Every rate over its own opportunities (issue 12). Per message: whether some row recorded a
-- stop reason, whether it was read from a stream capture, and whether the harness wrote it
-- (`<synthetic>` model or isApiErrorMessage: stored so a copy in several files counts once, but
-- in no rate's denominator). tool_use_turn now also holds messages whose stop reason is unknown
-- and which call a tool (2.1.12–2.1.52 record no stop reason at all).
ALTER TABLE messages ADD COLUMN stop_known INTEGER NOT NULL DEFAULT 0;
ALTER TABLE messages ADD COLUMN capture INTEGER NOT NULL DEFAULT 0;
ALTER TABLE messages ADD COLUMN synthetic INTEGER NOT NULL DEFAULT 0;

-- Denominators per root and cell, as before, plus the new ones. assistant_messages leaves
-- synthetic rows out; synthetic_messages counts them on their own.
ALTER TABLE root_cells ADD COLUMN stop_known_messages INTEGER NOT NULL DEFAULT 0;
ALTER TABLE root_cells ADD COLUMN capture_messages INTEGER NOT NULL DEFAULT 0;
ALTER TABLE root_cells ADD COLUMN synthetic_messages INTEGER NOT NULL DEFAULT 0;

-- Rows written before this migration carry the old tool-use-turn rule and no stop-reason facts,
-- and cannot be corrected without reading the files again. So every file is read again at the
-- next index run (a fingerprint no file can have), and until then no denominator is shown: the
-- old ones are dropped and rebuilt from the re-read messages (the dirty flag forces the rebuild).
UPDATE files SET fingerprint = 'reindex:005';
DELETE FROM root_cells;
INSERT INTO meta (key, value) VALUES ('root_cells_dirty', '1') ON CONFLICT (key) DO UPDATE SET value = excluded.value;
