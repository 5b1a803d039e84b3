-- An opaque id of this index, made once: /api/health says which index a dashboard serves, and the
-- Stop hook links to a dashboard only when it serves the index the hook's transcript goes to
-- (a demo server, or one on another database, never matches). Random: it names no path.
INSERT OR IGNORE INTO meta (key, value) VALUES ('index_id', lower(hex(randomblob(16))));
