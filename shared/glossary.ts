/**
 * The project's words, one meaning each, as the README's glossary and the page's Glossary page
 * say them (a test checks that the README lists exactly these terms). Code, API, page and docs
 * use these words; where an older internal name remains (a SQL table or column), the entry says so.
 */
export const GLOSSARY: ReadonlyArray<{ term: string; meaning: string }> = [
  {
    term: 'folder',
    meaning:
      'What you add to be read (the Folders page, POST /api/folders, `index <dir>`). Every file is counted under exactly one folder. The database calls it a root (table `roots`, column `root_id`); that name stays inside the store and query layers.',
  },
  {
    term: 'scan',
    meaning: 'Reading files and reporting findings without storing anything: the `scan` command.',
  },
  {
    term: 'index',
    meaning: 'The SQLite file that holds the metadata of what was read (never what a conversation said).',
  },
  {
    term: 'index run',
    meaning:
      'One pass that reads folders into the index (the `index` command, or from the Folders page: POST /api/index-runs), incremental: unchanged files are skipped. The server runs one at a time and reports its progress (GET /api/index-runs/current and /events); each finished run is a record in table `index_runs`.',
  },
  {
    term: 'finding',
    meaning:
      'One place in a file where a detector saw a lost or broken tool call: a code, lines, a digest of the evidence and metadata. Its id is stable across re-indexing an unchanged file.',
  },
  {
    term: 'code',
    meaning: 'The kind of a finding (`missing_tool_use_block`, …), listed with its definition below.',
  },
  {
    term: 'opportunity',
    meaning:
      'A message where a code could have fired; each code has its own kind (tool-use turns, messages with a recorded stop reason, …). A rate is findings per 1,000 opportunities.',
  },
  {
    term: 'not measurable',
    meaning: 'A code with no opportunities in a selection: no rate (a gap, never 0‰), with the reason.',
  },
  {
    term: 'unknown',
    meaning: 'A version, model or day that was not recorded: `null` in the API, "unknown" on the page, `version=unknown` or `model=unknown` in a filter.',
  },
  {
    term: 'session',
    meaning: 'The files sharing one session id: a main transcript and its subagents’ transcripts.',
  },
  {
    term: 'turn end',
    meaning:
      'A point where control went back to the user (a typed prompt, an interrupt, the end of the file), classed by how the turn ended; the last one of a file is its session end. Rates are per 1,000 turn ends.',
  },
  {
    term: 'effort',
    meaning:
      'The effort a reply was asked at (`high`, `xhigh`, …), recorded on assistant rows from Claude Code 2.1.212: a dimension next to version and model; `effort=unknown` where none was recorded.',
  },
  {
    term: 'verdict card',
    meaning: 'One change point (a version or a day) with the codes that step up there, how strongly, and the figures on both sides.',
  },
  {
    term: 'verdict',
    meaning: 'The regression test of one code (and model) over versions or days, that verdict cards are built from.',
  },
  {
    term: 'evidence report',
    meaning: 'The shareable Markdown or JSON document about the findings, redacted as chosen: the Evidence page, GET /api/export, the `export` command.',
  },
  {
    term: 'rate table',
    meaning: 'The tables the `report` command prints in a terminal: per version, day or week, and model, counts and rates per code.',
  },
  {
    term: 'team database',
    meaning:
      'Figures imported from other machines (`import-aggregates`): counts only, no files or findings. Each team machine counts once in the number of folders; a folder filter leaves them out.',
  },
  {
    term: 'salvage',
    meaning: 'A folder setting: read the complete rows of a damaged file instead of failing it closed.',
  },
  {
    term: 'read-only index',
    meaning:
      'An index the dashboard opened without writing it: `serve --read-only`, or a database file or folder this user cannot write. The page says so in a banner; index runs and folder changes are refused (409 `read_only`) and no folder is watched.',
  },
  {
    term: 'gone',
    meaning:
      "A transcript that was read whole and later deleted on disk (by Claude Code's cleanup or by hand): the index keeps its metadata, still counted everywhere, until you forget it (`forget`, the Files page). GET /api/files?status=gone lists them; the database marks them in column `files.gone_ms`.",
  },
];
