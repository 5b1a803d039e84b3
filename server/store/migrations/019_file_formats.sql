-- Issue 37: a file counts only when a reader recognised it. A file no reader recognised fails
-- `unknown_format`, and the hint of what it looks like is kept beside its code: a fixed name from
-- shared/format-hints.ts (never file content), NULL otherwise. A zero-byte or blank-only file is
-- `empty`: status 'ok' with no messages, counted apart (files_empty), neither clean with messages
-- nor failed.
ALTER TABLE files ADD COLUMN format_hint TEXT CHECK (format_hint IS NULL OR (length(format_hint) BETWEEN 1 AND 40 AND format_hint NOT GLOB '*[^a-z_]*'));
ALTER TABLE files ADD COLUMN empty INTEGER NOT NULL DEFAULT 0 CHECK (empty IN (0, 1));
-- Read again at the next run every file an earlier build may have counted as clean without
-- recognising it (no model message), or refused for a shape that now has its own code.
UPDATE files SET fingerprint = X''
  WHERE (status = 'ok' AND assistant_messages = 0) OR (status = 'failed' AND error_code = 'invalid_structure');
