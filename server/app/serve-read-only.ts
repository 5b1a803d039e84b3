import { accessSync, constants, existsSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { ReadOnlyReason } from '../../shared/read-only';
import type { Db } from '../store/database';

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
    // Usually absent: no exception for that (it is asked on every request of a snapshot).
    return statSync(`${path}-wal`, { throwIfNoEntry: false })?.size ?? 0;
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
function snapshotChangeCheck(abs: string): () => boolean {
  const opened = identity(abs);
  let changed = false;
  return () => (changed ||= walBytes(abs) > 0 || identity(abs) !== opened);
}

/** better-sqlite3 keeps the name a database was opened by: a `file:` URI only for an immutable snapshot (openDatabaseReadOnly). */
const isSnapshot = (db: Db) => db.name.startsWith('file:');

/** How long a replaced connection stays open for a request that may still hold it. */
const RETIRE_AFTER_MS = 30_000;

/**
 * A read-only index opened by `open` (openDatabaseReadOnly), followed. An immutable snapshot is
 * only good while nobody writes the file (SQLite takes no locks and reads no -wal), and a shared
 * folder's owner may index into it at any time. So, per request, a few stat calls look for a
 * change: none, the same connection; a -wal still holding changes (the writer is at work), null
 * (the caller refuses rather than read a file being rewritten); the writer done (its changes
 * merged, the -wal empty or gone), the index is opened again, by the same rules — a snapshot once
 * more, or, when side files are left that SQLite can use, an ordinary read-only connection, which
 * sees later commits by itself. A connection that is not a snapshot is never reopened.
 */
export function followReadOnlyIndex(path: string, open: () => Db): { first: Db; current: () => Db | null; close: () => void } {
  const abs = resolve(path);
  let changed = snapshotChangeCheck(abs);
  let db = open();
  if (!isSnapshot(db)) changed = () => false;
  const retired = new Set<Db>();
  const retire = (old: Db) => {
    retired.add(old);
    setTimeout(() => {
      retired.delete(old);
      old.close();
    }, RETIRE_AFTER_MS).unref();
  };
  return {
    first: db,
    current: () => {
      if (!changed()) return db;
      if (walBytes(abs) > 0) return null;
      const next = snapshotChangeCheck(abs);
      let fresh: Db;
      try {
        fresh = open();
      } catch {
        // Unreadable as it stands (a -wal that appeared meanwhile, a newer schema…): refused, and tried again next time.
        return null;
      }
      retire(db);
      db = fresh;
      changed = isSnapshot(fresh) ? next : () => false;
      return db;
    },
    close: () => {
      for (const old of retired) old.close();
      retired.clear();
      db.close();
    },
  };
}
