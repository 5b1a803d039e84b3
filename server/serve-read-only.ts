import { accessSync, constants, existsSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { ReadOnlyReason } from '../shared/read-only';

type WriteProblem = Exclude<ReadOnlyReason, 'requested'>;

/** Why this process may not write `path` (asked of the operating system, which knows about mounts and ownership); null when it may. */
function writeProblem(path: string, denied: WriteProblem): WriteProblem | null {
  try {
    accessSync(path, constants.W_OK);
    return null;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EROFS' ? 'read_only_file_system' : denied;
  }
}

/**
 * Why `serve` cannot write the index at `path`: the database file, or its folder (where SQLite makes
 * the -wal and -shm files a WAL database needs, and where a new database is created); null when it
 * can write both (for a database not made yet: the nearest existing folder on its path). Root passes every mode bit (only a read-only mount stops it), as it does for SQLite.
 */
export function databaseWriteProblem(path: string): WriteProblem | null {
  const abs = resolve(path);
  // A folder that does not exist yet is made (openDatabase): the nearest one that exists must be writable.
  let folder = dirname(abs);
  while (!existsSync(folder) && dirname(folder) !== folder) folder = dirname(folder);
  // The folder first: when neither can be written, it is the folder that stops SQLite from even making its side files.
  return writeProblem(folder, 'folder_not_writable') ?? (existsSync(abs) ? writeProblem(abs, 'file_not_writable') : null);
}

function identity(path: string): string {
  try {
    const s = statSync(path);
    return `${s.dev}:${s.ino}:${s.size}:${s.mtimeMs}`;
  } catch {
    return 'gone';
  }
}

function walBytes(path: string): number {
  try {
    return statSync(`${path}-wal`).size;
  } catch {
    return 0;
  }
}

/**
 * For an index about to be opened as an immutable snapshot: a check of whether another process
 * has written it since (the file replaced, resized or modified, or a -wal holding changes: a
 * writer commits there first). Its state is taken now, before opening, so a change in between
 * counts as a change. Once true, always true.
 */
export function snapshotChangeCheck(path: string): () => boolean {
  const abs = resolve(path);
  const opened = identity(abs);
  let changed = false;
  return () => (changed ||= walBytes(abs) > 0 || identity(abs) !== opened);
}
