-- Per file and Claude Code version: how many assistant rows hold text and how many hold a
-- tool_use (some versions stop writing text rows, and leak detection then undercounts), and
-- which row and content block types the scanner did not know (pattern-checked names, counts).
CREATE TABLE file_diagnostics (
  file_id             INTEGER NOT NULL REFERENCES files(id) ON DELETE CASCADE,
  version             TEXT NOT NULL,   -- '' when unknown
  text_rows           INTEGER NOT NULL,
  tool_use_rows       INTEGER NOT NULL,
  unknown_row_types   TEXT NOT NULL,   -- JSON object: type name -> rows
  unknown_block_types TEXT NOT NULL,   -- JSON object: type name -> blocks
  PRIMARY KEY (file_id, version)
) WITHOUT ROWID;
