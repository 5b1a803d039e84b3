import { lstatSync, type Stats } from 'node:fs';
import { analyseForIndex, type IndexAnalysis } from '../index/analyse-for-index';
import { fileFingerprint } from '../index/file-fingerprint';
import { FilePlan } from '../index/file-plan';
import { emptySummary } from '../index/index-summary';
import { planDatabase } from '../index/plan-database';
import { yieldSoon } from '../index/plan-folder';
import type { FileJob, KnownFile } from '../index/storage-port';
import { storageSessionOf, storageSessionStat } from '../scan/agents/opencode-storage';
import { childPath, fsPath } from '../scan/file-name-bytes';
import { isOpenCodeDatabaseName } from '../scan/opencode-db';
import { OpenError, type OpenProblem } from '../scan/safe-open';
import { databaseRootEntry, jsonMayBeTranscript, mayBeWalked, SCANNED_EXTENSIONS } from '../scan/walk-inputs';
import type { Db } from '../store/database';
import { rebuildDenominatorsOffThread } from '../store/denominators-off-thread';
import { findingId } from '../store/finding-id';
import { acquireIndexLock, IndexBusyError, tryAcquireIndexLock } from '../store/index-lock';
import { type FileRow, type IndexStatements, prepareIndexStatements, type RootRow } from '../store/index-statements';
import {
  dropFileRows,
  failedRow,
  markChanged,
  markFileGone,
  rebuildDenominatorsIfNeeded,
  sqliteIndexStore,
  upsertFileRow,
  writeFileRows,
} from '../store/index-store';
import { prepareLiveStatements } from './live-statements';
import { rootDifferences } from './reconcile-root';

/** A finding that was not in the index before this update (same file, code, lines and digest). */
export interface NewFinding {
  /** The finding's id as the API names it (store/finding-id.ts). */
  id: string;
  code: string;
}

export interface FilesUpdate {
  filesChanged: number;
  /** Files no longer on disk: kept as gone when they were read (issue 27), their rows removed when not. */
  filesRemoved: number;
  findingsAdded: number;
  findingsRemoved: number;
  newFindings: NewFinding[];
  /** Files whose last line is still being written while an earlier complete state is indexed: left as they were, to look at again. */
  stillWriting: string[];
}

export interface IndexFilesOptions {
  /**
   * When a file already indexed as ok now ends in a line still being written, keep the rows
   * of its last complete state and report it in `stillWriting` (the watcher looks again
   * shortly), instead of recording it as in progress and dropping its findings until the line ends.
   */
  keepWhileWriting?: boolean;
  /** Asked before each file: stop (leaving the rest undone) when it says so, e.g. when a full index starts. */
  shouldStop?: () => boolean;
}

/**
 * Where the watcher's per-file updates run (and so where their SQLite writes happen). The server
 * gives one that runs them in a writer thread of their own connection (server/index-thread.ts
 * liveWritesInThread), so no write of the watcher holds the event loop that answers requests;
 * this module's own, on the caller's connection, serves a database in memory and the tests.
 */
export interface LiveWriter {
  indexFiles(root: RootRow, relPaths: string[], options: IndexFilesOptions): Promise<FilesUpdate>;
  /** The watcher's periodic reconciliation of one root (reconcile-root.ts): the names that differ, or null when stopped. */
  reconcile(root: RootRow, shouldStop: () => boolean): Promise<string[] | null>;
  close(): Promise<void>;
}

/** The updates on the caller's own thread and connection. */
export function sameThreadWriter(db: Db): LiveWriter {
  return {
    indexFiles: (root, relPaths, options) => indexFilesOfRoot(db, root, relPaths, options),
    reconcile: (root, shouldStop) => rootDifferences(db, root, shouldStop),
    close: async () => {},
  };
}

const scanned = (name: string) => SCANNED_EXTENSIONS.some((ext) => name.endsWith(ext));

/**
 * The state of one path under a root, without following any symbolic link: every folder
 * between the root and the file must be a real folder (a link there is never followed,
 * exactly as the full walk skips it).
 */
function statUnderRoot(
  rootPath: string,
  relPath: string,
): { kind: 'file'; stat: Stats } | { kind: 'gone' } | { kind: 'unreadable' } | { kind: 'not_regular_file' } {
  const parts = relPath.split('/');
  let path = rootPath;
  for (let i = 0; i < parts.length; i++) {
    // Display names (scan/file-name-bytes.ts) stand for the name's bytes.
    path = childPath(path, parts[i]!);
    const real = fsPath(path);
    if (real === null) return { kind: 'gone' };
    let stat: Stats;
    try {
      stat = lstatSync(real);
    } catch (error) {
      return (error as NodeJS.ErrnoException).code === 'ENOENT' || (error as NodeJS.ErrnoException).code === 'ENOTDIR'
        ? { kind: 'gone' }
        : { kind: 'unreadable' };
    }
    const last = i === parts.length - 1;
    // A FIFO, socket or device named like a transcript is listed as failed, exactly as the full walk lists it.
    if (last && !stat.isSymbolicLink() && !stat.isDirectory() && !stat.isFile()) return { kind: 'not_regular_file' };
    if (stat.isSymbolicLink() || (!last && !stat.isDirectory()) || (last && !stat.isFile())) return { kind: 'gone' };
    if (last) return { kind: 'file', stat };
  }
  return { kind: 'gone' };
}

/**
 * Re-indexes exactly these files of one root (relative, '/'-separated names as the full walk
 * writes them), through the full index's own per-file write path: files changed or new are
 * read again, files gone (deleted, or now a link or not a file) are kept as gone (failed ones removed), files
 * unchanged (size, mtime, fingerprint) are left alone. No other file of the root is looked at.
 * The denominators are rebuilt afterwards when anything changed, as a full run does.
 */
export async function indexFilesOfRoot(db: Db, root: RootRow, relPaths: Iterable<string>, options: IndexFilesOptions = {}): Promise<FilesUpdate> {
  // The database's index lock, as a full run takes it: a CLI index of the same database waits for this update
  // (and this update for it), so their writes never interleave.
  const lock = await acquireIndexLock(db);
  try {
    return await indexFilesLocked(db, root, relPaths, options);
  } finally {
    lock.release();
  }
}

/**
 * The same, without waiting for the index lock (the Stop hook: it must never block the session): null, and nothing
 * written, when an index run or the folder watcher holds it (that run or the watcher will see the file).
 */
export async function indexFilesOfRootNow(db: Db, root: RootRow, relPaths: Iterable<string>): Promise<FilesUpdate | null> {
  let lock: ReturnType<typeof tryAcquireIndexLock>;
  try {
    lock = tryAcquireIndexLock(db);
  } catch (error) {
    if (error instanceof IndexBusyError) return null;
    throw error;
  }
  try {
    return await indexFilesLocked(db, root, relPaths, {});
  } finally {
    lock.release();
  }
}

async function indexFilesLocked(db: Db, root: RootRow, relPaths: Iterable<string>, options: IndexFilesOptions): Promise<FilesUpdate> {
  const st = prepareIndexStatements(db);
  const live = prepareLiveStatements(db);
  const known = new Map(st.filesOfRoot.all(root.id).map((f) => [f.rel_path, f]));
  const update: FilesUpdate = { filesChanged: 0, filesRemoved: 0, findingsAdded: 0, findingsRemoved: 0, newFindings: [], stillWriting: [] };
  /** One file's rows written through the full index's own write path, with the findings that are new. */
  const writeOne = (job: FileJob, analysis: IndexAnalysis, old: { id: number } | undefined) => {
    db.transaction(() => {
      const before = old ? new Set(live.findingKeysOfFile.all(old.id).map(findingKey)) : new Set<string>();
      // Nothing is counted when the root was removed meanwhile.
      if (!writeFileRows(st, job, analysis)) return;
      const added = analysis.status === 'ok' ? analysis.findings.length : 0;
      update.findingsAdded += added;
      update.findingsRemoved += job.previousFindings;
      const fileId = live.fileIdByPath.get({ root_id: root.id, rel_path: job.relPath })?.id;
      if (fileId !== undefined && added > 0) {
        for (const f of live.findingKeysOfFile.all(fileId))
          if (!before.has(findingKey(f))) update.newFindings.push({ id: findingId(root.id, job.relPath, f.code, f.first_line), code: f.code });
      }
    }).immediate();
    update.filesChanged++;
  };

  for (const relPath of new Set(relPaths)) {
    if (options.shouldStop?.()) break;
    // OpenCode's database (issue 38): its sessions, each an entry, as a full index run reads them.
    if (isOpenCodeDatabaseName(relPath.slice(relPath.lastIndexOf('/') + 1))) {
      await indexDatabaseOfRoot(db, root, relPath, known, update, writeOne);
      continue;
    }
    if (!mayBeWalked(relPath)) continue;
    const old = known.get(relPath);
    const state = statUnderRoot(root.path, relPath);
    if (state.kind === 'gone') {
      // Already gone, or never indexed: nothing to do. Otherwise kept as gone when it was read (issue 27), removed when not.
      if (!old || old.gone) continue;
      const kept = db.transaction(() => markFileGone(st, old)).immediate();
      update.filesRemoved++;
      if (!kept) update.findingsRemoved += old.findings;
      continue;
    }
    const path = childPath(root.path, relPath);
    // A `.json` the index does not hold is read only when it begins like a whole-file transcript, as a full walk decides.
    if (!old && !scanned(relPath) && !(state.kind === 'file' && (jsonMayBeTranscript(path) || storageSessionOf(path) !== null))) continue;
    let fingerprint = '';
    let openProblem: OpenProblem = 'unreadable';
    if (state.kind === 'file') {
      try {
        fingerprint = fileFingerprint(path, state.stat.size);
      } catch (error) {
        // Swapped since the lstat (a FIFO now, a link): the open's own code, as a full index records it.
        if (error instanceof OpenError) openProblem = error.problem;
      }
    }
    if (state.kind === 'unreadable' || state.kind === 'not_regular_file' || fingerprint === '') {
      const code = state.kind === 'not_regular_file' ? state.kind : state.kind === 'file' ? openProblem : 'unreadable';
      db.transaction(() => {
        if (old) dropFileRows(st, old.id);
        upsertFileRow(st, failedRow(root.id, relPath, 0, 0, '', code, null, Date.now()));
        markChanged(st);
      }).immediate();
      update.filesChanged++;
      update.findingsRemoved += old?.findings ?? 0;
      continue;
    }
    let { size, mtimeMs } = (state as { stat: Stats }).stat;
    // A session of OpenCode's storage tree is compared by all its pieces, as an index run compares it.
    const storage = storageSessionOf(path);
    if (storage) {
      try {
        ({ size, mtimeMs, fingerprint } = storageSessionStat(storage.root, storage.projectId, storage.sessionId, fingerprint));
      } catch {
        fingerprint = '';
      }
    }
    if (old?.gone && old.size === size && old.fingerprint === fingerprint) {
      // Back on disk as it was: present again, not read again (as an index run does).
      db.transaction(() => st.markFileBack.run({ id: old.id, mtime_ms: mtimeMs })).immediate();
      continue;
    }
    if (old && !old.gone && old.size === size && old.mtime_ms === mtimeMs && old.fingerprint === fingerprint) continue;
    // Let the server answer requests between files.
    await new Promise((resolve) => setImmediate(resolve));
    const analysis: IndexAnalysis = analyseForIndex(path, { salvage: root.salvage === 1 });
    if (analysis.status === 'in_progress' && options.keepWhileWriting && old?.status === 'ok') {
      update.stillWriting.push(relPath);
      continue;
    }
    const job: FileJob = { rootId: root.id, relPath, path, size, mtimeMs, fingerprint, previousFindings: old?.findings ?? 0 };
    writeOne(job, analysis, old);
  }
  if (update.filesChanged + update.filesRemoved > 0) await rebuildDenominators(db, st);
  return update;
}

/**
 * One OpenCode database of a root, after the watcher heard it (or its `-wal`) change: planned exactly
 * as a full index run plans it (plan-database.ts: skipped when its files are as the last read left
 * them, else copied, its schema checked, each session whose `time_updated` or row counts changed
 * planned), each planned session analysed here and written through the same write path as a changed
 * transcript, sessions no longer in it kept as gone, its copy deleted.
 */
async function indexDatabaseOfRoot(
  db: Db,
  root: RootRow,
  relPath: string,
  rows: Map<string, FileRow>,
  update: FilesUpdate,
  writeOne: (job: FileJob, analysis: IndexAnalysis, old: { id: number } | undefined) => void,
): Promise<void> {
  const store = sqliteIndexStore(db);
  const entry = { path: databaseRootEntry(root.path)?.path ?? childPath(root.path, relPath), name: relPath };
  const known = new Map<string, KnownFile>();
  for (const [name, row] of rows) if (name === relPath || name.startsWith(`${relPath}#`)) known.set(name, row);
  // The database deleted (or the folder holding it): what a full run's walk, no longer finding it, does to its entries —
  // sessions read before kept as gone (issue 27), a failed entry removed. Reading it would fail it `unreadable` instead,
  // and keep its sessions as if still there.
  if (databaseMissing(entry.path)) {
    const gone = [...known.values()].filter((f) => !f.gone);
    if (gone.length > 0) {
      store.markGone(gone);
      update.filesRemoved += gone.length;
      for (const f of gone) if (f.status !== 'ok') update.findingsRemoved += f.findings;
    }
    return;
  }
  const summary = emptySummary(0, 1);
  const plan = new FilePlan();
  const writeFailed = (name: string, code: string, hint?: string): boolean => {
    const old = known.get(name);
    const ok = store.writeFailedEntry(
      { rootId: root.id, relPath: name, code, size: 0, mtimeMs: 0, fingerprint: '', ...(hint === undefined ? {} : { hint }) },
      old,
    );
    if (ok) {
      update.filesChanged++;
      update.findingsRemoved += old?.findings ?? 0;
    }
    return ok;
  };
  try {
    if (!(await planDatabase({ store, root, summary, plan, known, writeFailed, yieldSoon }, entry))) return;
    for (let k = 0; k < plan.length; k++) {
      const job = plan.jobAt(k);
      await yieldSoon();
      writeOne(job, analyseForIndex(job.path, { salvage: root.salvage === 1 }), rows.get(job.relPath));
    }
    // Sessions no longer in the database: kept as gone (issue 27), as a full run keeps them.
    const gone = [...known.values()].filter((f) => !f.gone && f.rel_path !== relPath);
    if (gone.length > 0) {
      store.markGone(gone);
      update.filesRemoved += gone.length;
      for (const f of gone) if (f.status !== 'ok') update.findingsRemoved += f.findings;
    }
    for (const after of plan.afterWrite) after();
  } finally {
    for (const cleanup of plan.cleanups) cleanup();
  }
}

/** Whether nothing is at `path` (nor at the folders above it): a link or any other kind of file is there, and fails as it is. */
function databaseMissing(path: string): boolean {
  try {
    lstatSync(path);
    return false;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code === 'ENOENT' || code === 'ENOTDIR';
  }
}

const findingKey = (f: { code: string; first_line: number; last_line: number; evidence_sha256: string }) =>
  `${f.code}|${f.first_line}|${f.last_line}|${f.evidence_sha256}`;

/**
 * The full index's closing step, run after a live update that changed anything: the
 * per-root denominators and which copy of a message is counted, rebuilt from the messages.
 * It must stay the same as indexRoots' finishing phase (a test compares a live-updated index
 * with a full index of the same files).
 */
async function rebuildDenominators(db: Db, st: IndexStatements): Promise<void> {
  // Off the event loop first (it sorts every message of the index), then checked here.
  await rebuildDenominatorsOffThread(db);
  db.transaction(() => {
    rebuildDenominatorsIfNeeded(st);
  }).immediate();
}
