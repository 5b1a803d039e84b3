import { lstatSync } from 'node:fs';
import { fsPath } from '../scan/file-name-bytes';
import { databaseState, isDatabaseEntry } from '../scan/opencode-db';
import { SCANNED_EXTENSIONS, type WalkResult, walkRootAsync } from '../scan/walk-inputs';
import type { Db } from '../store/database';
import { prepareIndexStatements, type RootRow } from '../store/index-statements';
import { prepareLiveStatements } from './live-statements';

const scanned = (name: string) => SCANNED_EXTENSIONS.some((ext) => name.endsWith(ext));

/**
 * What differs between one root on disk and its rows, by a stat walk (names, size, mtime; no file
 * is read): files new, changed, gone, back, or no longer regular files. null when `shouldStop` said
 * so after the walk (an index started, or changes are pending: their files differ for a known reason).
 * The server runs it in the watcher's writer thread (index-thread.ts): on 100,000 files the rows
 * and lstats took the event loop for hundreds of milliseconds every period.
 */
export async function rootDifferences(db: Db, root: RootRow, shouldStop: () => boolean): Promise<string[] | null> {
  const walk: WalkResult = { files: [], problems: [], symlinksSkipped: 0 };
  await walkRootAsync(root.path, walk);
  if (shouldStop()) return null;
  const known = new Map(
    prepareLiveStatements(db)
      .reconcileRows.all(root.id)
      .map((f) => [f.rel_path, f]),
  );
  const differs: string[] = [];
  let stats = 0;
  for (const f of walk.files) {
    if (!scanned(f.name)) continue;
    // Let the thread answer (a stop) between slices of a large root's lstats.
    if (++stats % 2000 === 0) await new Promise((resolve) => setImmediate(resolve));
    const row = known.get(f.name);
    known.delete(f.name);
    // New, or back on disk after it was kept as gone.
    if (!row || row.gone) {
      differs.push(f.name);
      continue;
    }
    const real = fsPath(f.path);
    let size = -1;
    let mtimeMs = -1;
    try {
      if (real !== null) ({ size, mtimeMs } = lstatSync(real));
    } catch {
      // gone meanwhile: the queued path finds out
    }
    // A row failed before any read keeps no size or mtime: the file differs when it changed after that row was written.
    const contentless = row.status === 'failed' && row.size === 0 && row.mtime_ms === 0;
    if (contentless ? mtimeMs > row.indexed_ms : row.size !== size || row.mtime_ms !== mtimeMs) differs.push(f.name);
  }
  // OpenCode's databases (issue 38): one differs when its files are not as the last read left them (two stats), or,
  // having failed, when it changed after that failure was written.
  const sources = prepareIndexStatements(db);
  for (const d of walk.databases ?? []) {
    let state: string | null = null;
    try {
      state = databaseState(d.path);
    } catch {
      // unreadable now: as its failed row says, or read again to say so
    }
    const saved = sources.databaseSource.get(root.id, d.name);
    const row = known.get(d.name);
    if (saved !== undefined) {
      if (saved.state !== state) differs.push(d.name);
    } else if (row?.status === 'failed') {
      if (state !== null && databaseChangedSince(d.path, row.indexed_ms)) differs.push(d.name);
    } else differs.push(d.name);
  }
  const badFolders: string[] = [];
  for (const p of walk.problems) {
    const row = known.get(p.name);
    known.delete(p.name);
    if (!scanned(p.name)) badFolders.push(p.name === '.' ? '' : `${p.name}/`);
    else if (row?.status !== 'failed' || row.error_code !== p.code) differs.push(p.name);
  }
  // Rows whose file the walk did not find (gone, or now a link), unless already kept as gone or under a folder it could not list.
  // A session of an OpenCode database is no file on disk (issue 38): its database differs when the walk no longer finds it.
  const walkedDatabases = new Set((walk.databases ?? []).map((d) => d.name));
  const missingDatabases = new Set<string>();
  for (const [name, row] of known) {
    if (row.gone || badFolders.some((b) => name.startsWith(b))) continue;
    if (!isDatabaseEntry(name)) differs.push(name);
    else {
      const database = name.slice(0, name.indexOf('#'));
      if (!walkedDatabases.has(database)) missingDatabases.add(database);
    }
  }
  differs.push(...missingDatabases);
  return differs;
}

/** The database or its `-wal` modified after `ms`. */
function databaseChangedSince(path: string, ms: number): boolean {
  for (const p of [path, `${path}-wal`]) {
    try {
      if (lstatSync(p).mtimeMs > ms) return true;
    } catch {
      // no -wal
    }
  }
  return false;
}
