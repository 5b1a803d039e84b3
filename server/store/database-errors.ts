// No import of better-sqlite3 here: the CLI names these errors without loading the database driver.

/** A database the tool cannot use as it stands; the message names no path and says what to do. */
export class DatabaseError extends Error {
  constructor(
    readonly code: 'future_schema' | 'disk_full' | 'corrupt' | 'read_only' | 'busy' | 'cannot_open',
    message: string,
  ) {
    super(message);
  }
}

export function isSqliteCode(error: unknown, prefix: string): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && code.startsWith(prefix);
}

/**
 * A specific, path-free message for the SQLite failures a user can act on (disk full, a
 * damaged or foreign file, read-only, locked); null for anything else.
 */
export function describeDatabaseError(error: unknown): DatabaseError | null {
  if (error instanceof DatabaseError) return error;
  if (isSqliteCode(error, 'SQLITE_FULL')) {
    return new DatabaseError('disk_full', 'the disk holding the index database is full: free some space and run again (completed files are kept)');
  }
  if (isSqliteCode(error, 'SQLITE_CORRUPT') || isSqliteCode(error, 'SQLITE_NOTADB')) {
    return new DatabaseError('corrupt', 'the index database is damaged or is not an index database: move it aside (or delete it) and index again');
  }
  if (isSqliteCode(error, 'SQLITE_READONLY')) {
    return new DatabaseError('read_only', 'the index database (or its folder) is read-only: this command needs to write it');
  }
  if (isSqliteCode(error, 'SQLITE_BUSY') || isSqliteCode(error, 'SQLITE_LOCKED')) {
    return new DatabaseError('busy', 'another process held the index database locked for too long: try again when it finishes');
  }
  if (isSqliteCode(error, 'SQLITE_CANTOPEN') || isSqliteCode(error, 'SQLITE_PERM') || isSqliteCode(error, 'SQLITE_IOERR')) {
    return new DatabaseError('cannot_open', 'the index database cannot be opened or read: check that its folder exists and is yours');
  }
  return null;
}
