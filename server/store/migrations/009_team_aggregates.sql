-- The team source: payload-free aggregates that other machines wrote with `export-aggregates`
-- and `import-aggregates` loaded. The dashboard only reads these tables; an import replaces a
-- machine's rows in one transaction. Counts and metadata-shaped values only (pattern-checked
-- on import): no file names, digests, paths or session hashes ever arrive here.
CREATE TABLE team_machines (
  id                           INTEGER PRIMARY KEY,
  machine                      TEXT NOT NULL UNIQUE,   -- the pseudonymous id chosen on that machine
  schema_version               INTEGER NOT NULL,
  detector_definitions_version INTEGER NOT NULL,
  tool_version                 TEXT NOT NULL,
  exported_at                  TEXT NOT NULL,
  imported_at                  TEXT NOT NULL,
  files_ok                     INTEGER NOT NULL CHECK (files_ok >= 0),
  files_damaged                INTEGER NOT NULL CHECK (files_damaged >= 0),
  files_excluded               INTEGER NOT NULL CHECK (files_excluded >= 0)
);

-- A machine's denominators per cell (day, version, model, main/sidechain), as its root_cells summed
-- (stored counts of migration 005, synthetic messages included).
CREATE TABLE team_cells (
  machine_id          INTEGER NOT NULL REFERENCES team_machines(id) ON DELETE CASCADE,
  cell_id             INTEGER NOT NULL REFERENCES cells(id),
  assistant_messages  INTEGER NOT NULL CHECK (assistant_messages >= 0),
  tool_use_turns      INTEGER NOT NULL CHECK (tool_use_turns >= 0),
  stop_known_messages INTEGER NOT NULL CHECK (stop_known_messages >= 0),
  capture_messages    INTEGER NOT NULL CHECK (capture_messages >= 0),
  synthetic_messages  INTEGER NOT NULL CHECK (synthetic_messages >= 0),  -- in no denominator, reported beside them
  PRIMARY KEY (machine_id, cell_id)
) WITHOUT ROWID;

-- A machine's counted findings per cell and code (only codes with at least one).
CREATE TABLE team_findings (
  machine_id INTEGER NOT NULL REFERENCES team_machines(id) ON DELETE CASCADE,
  cell_id    INTEGER NOT NULL REFERENCES cells(id),
  code       TEXT NOT NULL,
  findings   INTEGER NOT NULL CHECK (findings > 0),
  PRIMARY KEY (machine_id, cell_id, code)
) WITHOUT ROWID;
