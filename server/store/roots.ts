import { lstatSync, realpathSync, type Stats } from 'node:fs';
import { basename, parse, resolve, sep } from 'node:path';
import { isOpenCodeDatabaseName } from '../scan/opencode-db';
import type { Db } from './database';
import { IndexBusyError, indexLockHolder } from './index-lock';
import { prepareIndexStatements, type RootRow } from './index-statements';
import { markFileGone } from './index-store';

export type RootProblem = 'not_found' | 'not_directory' | 'symlink' | 'symlink_parent' | 'unreadable' | 'overlapping_root' | 'filesystem_root';

/** A folder that cannot be a root. Its message never repeats the path. */
export class RootError extends Error {
  constructor(readonly problem: RootProblem) {
    super(
      {
        not_found: 'the folder does not exist',
        not_directory: 'the path is not a folder (nor an OpenCode database, opencode.db)',
        symlink: 'the path is a symbolic link; links are never followed, give the real folder',
        unreadable: 'the folder cannot be read',
        symlink_parent: 'a folder on the path is a symbolic link; links are never followed, give the real path',
        overlapping_root: 'the folder is inside, or contains, a folder already added; each file is counted under one folder only',
        filesystem_root: 'the filesystem root cannot be a folder to index; give the folder that holds the transcripts',
      }[problem],
    );
  }
}

/**
 * Checks that `path` is an existing folder reached without any symbolic link (neither it nor
 * a folder above it), and not the filesystem root; returns it absolute, which is then its
 * real path. OpenCode's database file itself (`~/.local/share/opencode/opencode.db`, a regular
 * file so named, issue 38) is a root too: it is read as when its folder is named.
 */
export function validateRootPath(path: string): string {
  const absolute = resolve(path);
  let stat: Stats;
  try {
    stat = lstatSync(absolute);
  } catch (error) {
    throw new RootError((error as NodeJS.ErrnoException).code === 'ENOENT' ? 'not_found' : 'unreadable');
  }
  if (stat.isSymbolicLink()) throw new RootError('symlink');
  if (!stat.isDirectory() && !(stat.isFile() && isOpenCodeDatabaseName(basename(absolute)))) throw new RootError('not_directory');
  let real: string;
  try {
    real = realpathSync(absolute);
  } catch {
    throw new RootError('unreadable');
  }
  if (real !== absolute) throw new RootError('symlink_parent');
  if (parse(real).root === real) throw new RootError('filesystem_root');
  return real;
}

const inside = (child: string, parent: string) => child.startsWith(parent.endsWith(sep) ? parent : parent + sep);

/**
 * Adds a folder as a root (or returns it when already added). Its label, shown instead of the
 * path everywhere but the owner's roots page, defaults to the folder's name, made unique.
 */
export function addRoot(db: Db, path: string, label?: string): RootRow {
  const absolute = validateRootPath(path);
  const st = prepareIndexStatements(db);
  const existing = st.rootByPath.get(absolute);
  if (existing) {
    // A folder removed with its history kept comes back with it: its files on disk are found again unchanged.
    if (existing.removed_ms !== null) st.restoreRoot.run(existing.id);
    return st.rootById.get(existing.id)!;
  }
  if (st.everyRootPath.all().some((r) => inside(absolute, r.path) || inside(r.path, absolute))) throw new RootError('overlapping_root');
  const base = (label ?? basename(absolute)).trim() || 'root';
  let candidate = base;
  for (let n = 2; st.labelTaken.get(candidate)!.n > 0; n++) candidate = `${base}-${n}`;
  const { id } = st.insertRoot.get(absolute, candidate, new Date().toISOString())!;
  return st.rootById.get(id)!;
}

/**
 * Removes a root. With `forget`, every row indexed from it goes too (the schema's cascades); without it (issue 27:
 * the Folders page's default), the folder is no longer indexed or watched and its read files are kept as gone, still
 * counted, until forgotten (`forget --folder`). Refused with IndexBusyError while an index run (this process's or
 * another's) holds the database. False when there is no such folder.
 */
export function removeRoot(db: Db, id: number, options: { forget?: boolean } = { forget: true }): boolean {
  return db
    .transaction(() => {
      const holder = indexLockHolder(db);
      if (holder) throw new IndexBusyError(holder.pid);
      const st = prepareIndexStatements(db);
      if (!st.rootById.get(id)) {
        // A folder already removed with its history kept: forgetting it now drops that history.
        return options.forget === true && db.prepare<[number]>('DELETE FROM roots WHERE id = ? AND removed_ms IS NOT NULL').run(id).changes > 0;
      }
      if (options.forget) return db.prepare<[number]>('DELETE FROM roots WHERE id = ?').run(id).changes > 0;
      for (const f of st.filesOfRoot.all(id)) if (!f.gone) markFileGone(st, f);
      db.prepare<[number, number]>('UPDATE roots SET removed_ms = ? WHERE id = ?').run(Date.now(), id);
      return true;
    })
    .immediate();
}

/** Removes every root but one (the demo database keeps only the bundled corpus). */
export function removeRootsExcept(db: Db, keepId: number): void {
  db.prepare<[number]>('DELETE FROM roots WHERE id <> ?').run(keepId);
}

/** Sets a folder's salvage setting; false when there is no such folder. The next index run applies it. */
export function setRootSalvage(db: Db, id: number, salvage: boolean): boolean {
  return db.prepare('UPDATE roots SET salvage = ? WHERE id = ?').run(salvage ? 1 : 0, id).changes > 0;
}
