/**
 * Per-file error codes. A file with any of these contributes no findings and no counts:
 * the scanner fails closed, and every failure reaches the user as a code and a line.
 */
export const SCAN_ERROR_CODES = ['invalid_utf8', 'malformed_json', 'concatenated_rows', 'duplicate_key', 'unreadable', 'invalid_structure'] as const;

export type ScanErrorCode = (typeof SCAN_ERROR_CODES)[number];

export const SCAN_ERROR_DEFINITIONS: Record<ScanErrorCode, string> = {
  invalid_utf8: 'The line is not valid UTF-8.',
  malformed_json: 'The line is not exactly one JSON value (for example a row torn mid-string, with or without the next row after it).',
  concatenated_rows:
    'The line holds two or more complete rows with no newline between them: a Claude Code writer bug after an unclean shutdown (the resumed session appended its first row to the last one). Reported at the line of the junction; with salvage, the rows are read.',
  duplicate_key: 'An object in the row (at any depth) has the same key twice.',
  unreadable: 'The file or folder could not be opened or read.',
  invalid_structure: 'A row a detector relies on (assistant or user row, or a row that is not a JSON object) does not have the shape the detectors need.',
};
