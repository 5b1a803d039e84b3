-- Team verdict cards count sessions (issue 19): per machine, cell and code, the sessions (files)
-- that held the code's counted findings on that machine, and the findings capped per session as the
-- local cards cap them (aggregate schema version 2). Counts only; sessions never leave a machine.
-- NULL: rows imported from schema-1 files before this migration (the cards then count that
-- machine as one session, uncapped, as before). Imports from now on always fill both.
ALTER TABLE team_findings ADD COLUMN sessions INTEGER CHECK (sessions IS NULL OR sessions > 0);
ALTER TABLE team_findings ADD COLUMN capped_findings INTEGER CHECK (capped_findings IS NULL OR capped_findings > 0);
