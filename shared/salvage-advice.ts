/**
 * What keeps the complete rows of a file that failed as concatenated_rows (two whole rows on one
 * line, a Claude Code writer bug): reading it with salvage. Said wherever such a failure is shown.
 */
export const SALVAGE_ADVICE = {
  scan: 'read with --salvage to keep its complete rows',
  index: 'index with --salvage, or tick salvage for its folder, to keep its complete rows',
  page: 'tick salvage for this folder on the Folders page to keep its complete rows',
} as const;

/** The failure codes salvage helps with. */
export const SALVAGEABLE_CODES: readonly string[] = ['concatenated_rows'];
