-- Issue 38: OpenCode's database (`opencode.db`) read as a source of sessions. Each session is a
-- `files` row of its own (`opencode.db#<16 hex of the SHA-256 of its id>`); this table keeps, per
-- database of a folder, what its files looked like at the last run that read it (a digest of the
-- sizes, mtimes and inodes of the database and its -wal) and how many of its sessions that run
-- saw. Unchanged, and with as many of its sessions present in the index, nothing of it is copied or
-- read again: a no-change re-index of a 1 GB database costs two stats.
CREATE TABLE database_sources (
  root_id   INTEGER NOT NULL REFERENCES roots(id) ON DELETE CASCADE,
  rel_path  TEXT NOT NULL,
  state     TEXT NOT NULL CHECK (length(state) = 32 AND state NOT GLOB '*[^0-9a-f]*'),
  sessions  INTEGER NOT NULL,
  PRIMARY KEY (root_id, rel_path)
) WITHOUT ROWID;
