/**
 * Per-file error codes. A file with any of these contributes no findings and no counts:
 * the scanner fails closed, and every failure reaches the user as a code and a line.
 */
export const SCAN_ERROR_CODES = [
  'invalid_utf8',
  'malformed_json',
  'concatenated_rows',
  'duplicate_key',
  'unreadable',
  'invalid_structure',
  'not_regular_file',
  'path_changed',
  'nesting_too_deep',
  'line_too_long',
  'unfinished_last_line',
  'unsupported_file_name',
  'unknown_format',
  'entire_compact_transcript',
  'gemini_text_only',
  'database_schema_unknown',
  'database_busy',
  'database_too_large',
] as const;

export type ScanErrorCode = (typeof SCAN_ERROR_CODES)[number];

export const SCAN_ERROR_DEFINITIONS: Record<ScanErrorCode, string> = {
  invalid_utf8: 'The line is not valid UTF-8.',
  malformed_json: 'The line is not exactly one JSON value (for example a row torn mid-string, with or without the next row after it).',
  concatenated_rows:
    'The line holds two or more complete rows with no newline between them: a Claude Code writer bug after an unclean shutdown (the resumed session appended its first row to the last one). Reported at the line of the junction; with salvage, the rows are read.',
  duplicate_key: 'An object in the row (at any depth) has the same key twice.',
  unreadable: 'The file or folder could not be opened or read.',
  invalid_structure:
    'A row a detector relies on (assistant or user row, or a row that is not a JSON object) does not have the shape the detectors need, or a row with no type carries a message.',
  not_regular_file: 'The entry is named like a transcript but is not a regular file (a FIFO, socket or device): it was not opened for reading.',
  path_changed: 'The path led somewhere else while it was opened (a folder swapped for a symbolic link): nothing was read from it.',
  nesting_too_deep: 'The row nests arrays or objects deeper than the fixed limit (512 levels).',
  line_too_long: 'The line is longer than the fixed limit (256 MiB).',
  unfinished_last_line:
    'The last line has no newline and no valid value, and the file has not been modified for 10 minutes (the quiet period scan and index share): it will not be completed.',
  unsupported_file_name:
    'Earlier builds only: a file name that was not valid UTF-8 was listed, not read. Such files are now read under an escaped name; index again to replace this row.',
  unknown_format:
    'No reader recognised the file (no row of a Claude Code transcript or stream-json capture): reported at its first non-blank line, with a hint of what it looks like when that is cheap to tell.',
  entire_compact_transcript:
    "Entire's compact transcript.jsonl (rows {v, agent, cli_version, type, ts, content}): a condensed copy without stop reasons or thinking, beside the full transcript; refused, never counted as a Claude Code transcript.",
  gemini_text_only:
    "A Gemini CLI conversation kept as text only, without the chat recording's ids, times, model or call statuses: the `/chat share` Markdown export (`## USER` / `## MODEL` sections) or the history `/chat share <file>.json` and `/chat save` checkpoints write (`[{role, parts}]`). Calls cannot be paired or dated, so it is refused.",
  database_schema_unknown:
    "OpenCode's database (`opencode.db`) lacks a table or column that is read, has one of another type, or has a column not known here: nothing of it is read; the hint names the table or column that differs.",
  database_busy:
    "OpenCode's database changed while it was being copied, on every attempt (or the copy took longer than the time limit): nothing of it is read this time, and the sessions read before are kept.",
  database_too_large: "OpenCode's database with its write-ahead log is larger than the copy limit (64 GiB): it is not copied, nothing of it is read.",
};
