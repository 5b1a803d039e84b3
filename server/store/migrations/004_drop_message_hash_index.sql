-- The index on messages(message_hash) had random keys, so every file's transaction dirtied
-- pages all over it: about a third of the writer thread's time in a full index. The only
-- query that used it (which copy of a finding's message is counted) now finds the first
-- copies in one pass at the end of a run, limited to the hashes that have findings.
DROP INDEX messages_by_hash;
