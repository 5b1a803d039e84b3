-- Issue 27: history that outlives Claude Code's cleanup. A transcript that disappears from its folder
-- (Claude Code deletes every transcript older than cleanupPeriodDays, 30 by default) keeps its row,
-- messages, findings and diagnostics: only metadata, still counted in every rate, chart and verdict.
-- `gone_ms` is NULL for a file on disk; for a gone file, the last time the index saw it on disk (UTC
-- milliseconds): the later of its last read and its folder's last finished index run. The status keeps
-- saying how the file was read (only an 'ok' file is kept when gone: a failed or in-progress one holds
-- nothing worth keeping and is removed as before). A column added in place: no row is copied or read again.
ALTER TABLE files ADD COLUMN gone_ms INTEGER;
-- The gone files of a folder (Folders and Files show them, `forget --gone` takes them).
CREATE INDEX files_gone_by_root ON files (root_id, gone_ms) WHERE gone_ms IS NOT NULL;
-- A folder removed while keeping its history (the default on the Folders page): no longer indexed or watched,
-- its files kept as gone until forgotten. Adding the same path again brings it back. NULL: an active folder.
ALTER TABLE roots ADD COLUMN removed_ms INTEGER;
