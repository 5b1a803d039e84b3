-- Which reader a file needed: a Claude Code transcript, or a stream capture.
ALTER TABLE files ADD COLUMN format TEXT NOT NULL DEFAULT 'transcript' CHECK (format IN ('transcript', 'stream-json', 'sse'));
