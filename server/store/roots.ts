import { lstatSync, type Stats } from 'node:fs';
import { basename, resolve } from 'node:path';
import type { Db } from './database';
import { prepareIndexStatements, type RootRow } from './index-statements';

export type RootProblem = 'not_found' | 'not_directory' | 'symlink' | 'unreadable';

/** A folder that cannot be a root. Its message never repeats the path. */
export class RootError extends Error {
  constructor(readonly problem: RootProblem) {
    super(
      {
        not_found: 'the folder does not exist',
        not_directory: 'the path is not a folder',
        symlink: 'the path is a symbolic link; links are never followed, give the real folder',
        unreadable: 'the folder cannot be read',
      }[problem],
    );
  }
}

/** Checks that `path` is an existing folder and not a symbolic link; returns it absolute. */
export function validateRootPath(path: string): string {
  const absolute = resolve(path);
  let stat: Stats;
  try {
    stat = lstatSync(absolute);
  } catch (error) {
    throw new RootError((error as NodeJS.ErrnoException).code === 'ENOENT' ? 'not_found' : 'unreadable');
  }
  if (stat.isSymbolicLink()) throw new RootError('symlink');
  if (!stat.isDirectory()) throw new RootError('not_directory');
  return absolute;
}

/**
 * Adds a folder as a root (or returns it when already added). Its label, shown instead of the
 * path everywhere but the owner's roots page, defaults to the folder's name, made unique.
 */
export function addRoot(db: Db, path: string, label?: string): RootRow {
  const absolute = validateRootPath(path);
  const st = prepareIndexStatements(db);
  const existing = st.rootByPath.get(absolute);
  if (existing) return existing;
  const base = (label ?? basename(absolute)).trim() || 'root';
  let candidate = base;
  for (let n = 2; st.labelTaken.get(candidate)!.n > 0; n++) candidate = `${base}-${n}`;
  const { id } = st.insertRoot.get(absolute, candidate, new Date().toISOString())!;
  return st.rootById.get(id)!;
}

/** Removes a root and, through the schema's cascades, every row indexed from it. */
export function removeRoot(db: Db, id: number): boolean {
  return db.prepare<[number]>('DELETE FROM roots WHERE id = ?').run(id).changes > 0;
}

/** Removes every root but one (the demo database keeps only the bundled corpus). */
export function removeRootsExcept(db: Db, keepId: number): void {
  db.prepare<[number]>('DELETE FROM roots WHERE id <> ?').run(keepId);
}
