-- How each session's last assistant turn ended (server/detect/session-end.ts), with the
-- version, model and day of the message judged: codes and pattern-checked metadata only.
-- Null for failed and in-progress files, stream captures and files without assistant messages.
-- Existing rows stay null until their file is read again: the next index run re-reads them
-- (their fingerprint is cleared here, so every transcript is classed once).
ALTER TABLE files ADD COLUMN session_end TEXT CHECK (session_end IN ('tool_call', 'text_answer', 'said_nothing', 'max_tokens', 'interrupted', 'api_error', 'lost_call', 'unknown'));
ALTER TABLE files ADD COLUMN session_end_version TEXT;
ALTER TABLE files ADD COLUMN session_end_model TEXT;
ALTER TABLE files ADD COLUMN session_end_day TEXT;
UPDATE files SET fingerprint = '' WHERE status = 'ok' AND format = 'transcript';
