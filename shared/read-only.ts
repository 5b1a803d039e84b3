/**
 * Why a dashboard opened its index read-only, one code each, said the same way in `serve`'s
 * line, the API's refusal (409 `read_only`) and the page's banner.
 */
export const READ_ONLY_REASONS = {
  requested: 'started with --read-only',
  read_only_file_system: 'its file system is mounted read-only',
  file_not_writable: 'this user cannot write the database file',
  folder_not_writable: "this user cannot write the database's folder",
} as const;

export type ReadOnlyReason = keyof typeof READ_ONLY_REASONS;

/** What is off on a read-only index, as the page's banner and the API's refusal say it. */
export const READ_ONLY_OFF = 'index runs and folder changes are off';
