import { dirname } from 'node:path';
import type { LiveUpdate } from '../../shared/live-update';
import type { IndexRunner } from '../index/index-runner';
import { childPath } from '../scan/file-name-bytes';
import { databaseOfChange } from '../scan/opencode-db';
import { databaseRootEntry, mayBeWalked, type WalkResult, walkDirectory } from '../scan/walk-inputs';
import type { Db } from '../store/database';
import { prepareIndexStatements, type RootRow } from '../store/index-statements';
import { FolderWatch } from './folder-watch';
import { type FilesUpdate, type LiveWriter, sameThreadWriter } from './index-files';
import { type LiveEvents, TypedEmitter } from './watcher-events';

export type { LiveUpdate };

export interface WatchOptions {
  /** Quiet time after the last change before the changed files are indexed. */
  debounceMs?: number;
  /** Longest a change waits while the folder keeps changing (a session writing steadily). */
  maxWaitMs?: number;
  /** How often, and how many times, a file whose last line is still being written is looked at again. */
  retryMs?: number;
  retries?: number;
  /**
   * How often every root is reconciled with the index: a walk that only lstats (no file is read
   * unless its size or mtime differs from its row), so a change the file-system watcher missed
   * (a folder swapped for a link and back, an overflowed event queue) is indexed within this time.
   * 0 turns it off.
   */
  reconcileMs?: number;
  /** Shortest time between two reads of one OpenCode database (each read copies it whole); DATABASE_GAP_MS by default. */
  databaseGapMs?: number;
  /** Where the updates are written (index-files.ts LiveWriter): the server's writer thread; this thread by default. */
  writer?: LiveWriter;
}

/** The default shortest time between two reads of one OpenCode database by the watcher (WatchOptions.databaseGapMs). */
export const DATABASE_GAP_MS = 2000;

/** The default reconciliation period (see WatchOptions.reconcileMs). */
export const RECONCILE_MS = 30_000;

// `.json` too: Gemini CLI up to v0.38 rewrites its chats in place (index-files.ts reads one only when it begins like a transcript).
const scanned = mayBeWalked;

/**
 * Watches every root (folder-watch.ts: one OS watch per folder, none per file, no polling, links never followed)
 * and re-indexes only the files that changed, a short quiet time after the last change. Waits
 * while a full index runs (it would read the same files) and stops between files when one
 * starts. Emits only the events of LiveEvents (watcher-events.ts): 'update' with a LiveUpdate after
 * each change, which /api/index-runs/events forwards to the page as a `live` event.
 */
export class RootWatcher extends TypedEmitter<LiveEvents> {
  private readonly watchers = new Map<number, { root: RootRow; watcher: FolderWatch }>();
  private readonly pending = new Map<number, Set<string>>();
  private readonly writing = new Map<string, number>();
  private timer: NodeJS.Timeout | null = null;
  private firstChangeAt = 0;
  private flushing: Promise<void> | null = null;
  private hold: Promise<unknown> = Promise.resolve();
  private closed = false;
  private readonly debounceMs: number;
  private readonly maxWaitMs: number;
  private readonly retryMs: number;
  private readonly retries: number;
  private readonly reconcileMs: number;
  private reconcileTimer: NodeJS.Timeout | null = null;
  private reconciling: Promise<void> | null = null;
  private readonly writer: LiveWriter;
  private readonly databaseGapMs: number;
  /** When each OpenCode database (`<root id>:<name>`) was last read, and those waiting for their gap to pass. */
  private readonly databaseReadAt = new Map<string, number>();
  private readonly databaseWaiting = new Set<string>();

  constructor(
    private readonly db: Db,
    private readonly indexRuns: IndexRunner,
    options: WatchOptions = {},
  ) {
    super();
    this.debounceMs = options.debounceMs ?? 150;
    this.maxWaitMs = options.maxWaitMs ?? 1000;
    this.retryMs = options.retryMs ?? 250;
    this.retries = options.retries ?? 8;
    this.reconcileMs = options.reconcileMs ?? RECONCILE_MS;
    this.writer = options.writer ?? sameThreadWriter(db);
    this.databaseGapMs = options.databaseGapMs ?? DATABASE_GAP_MS;
    // A full index that ends may have added or removed roots; changes queued meanwhile go now.
    this.indexRuns.on('progress', (state: { state: string }) => {
      if (state.state !== 'running') void this.syncRoots().then(() => this.schedule());
    });
  }

  /** Starts watching every root; resolves when the watchers are ready. */
  async start(): Promise<void> {
    await this.syncRoots();
    this.scheduleReconcile();
  }

  /** Delays indexing until `work` settles (an initial full index started elsewhere). */
  holdUntil(work: Promise<unknown>): void {
    this.hold = Promise.allSettled([this.hold, work]);
  }

  /** Watches the roots the database has now, and stops watching removed ones. */
  async syncRoots(): Promise<void> {
    if (this.closed) return;
    const roots = prepareIndexStatements(this.db).allRoots.all();
    const ids = new Set(roots.map((r) => r.id));
    for (const [id, w] of this.watchers) {
      if (!ids.has(id)) {
        this.watchers.delete(id);
        this.pending.delete(id);
        w.watcher.close();
      }
    }
    const ready: Promise<void>[] = [];
    for (const root of roots) {
      if (this.watchers.has(root.id)) continue;
      ready.push(this.arm(root));
    }
    await Promise.all(ready);
  }

  /** Starts (or restarts) the file-system watch of one root; resolves when it is ready. */
  private arm(root: RootRow): Promise<void> {
    // Names arrive as the full walk writes them: each component as its display name (scan/file-name-bytes.ts), so a
    // name with a backslash or a control character is the same file here as in a full index, never a second row.
    // A watch that fails (too many folders for the system's inotify limit, EMFILE) is said once, by folder label and
    // error code: changes there then wait for the reconciliation, or a full index.
    // OpenCode's database named itself (issue 38): the folder it is in is watched, not below, for it and its -wal only.
    const database = databaseRootEntry(root.path);
    const watcher =
      database === null
        ? new FolderWatch(root.path, {
            entry: (rel) => this.queue(root.id, rel),
            folderAdded: (rel) => this.queueFolder(root, rel),
            folderGone: (rel) => this.queueGoneFolder(root.id, rel),
            failed: (code) => this.emit('watch-error', root.label, code),
          })
        : new FolderWatch(
            dirname(root.path),
            {
              entry: (rel) => {
                if (databaseOfChange(rel) === database.name) this.queue(root.id, database.name);
              },
              folderAdded: () => {},
              folderGone: () => {},
              failed: (code) => this.emit('watch-error', root.label, code),
            },
            0,
          );
    this.watchers.set(root.id, { root, watcher });
    return watcher.start();
  }

  /** How many folder watches are held (one per folder, none per file; a test counts them). */
  watchCount(): number {
    let n = 0;
    for (const { watcher } of this.watchers.values()) n += watcher.size;
    return n;
  }

  /**
   * Re-arms one root: a new watch from scratch. Chokidar can lose a folder that went away and came
   * back as a real folder (folder -> link -> folder, faster than its events): its later changes were
   * never heard. A fresh watch lists every folder as it is now.
   */
  private async rearm(rootId: number): Promise<void> {
    const entry = this.watchers.get(rootId);
    if (!entry || this.closed) return;
    this.watchers.delete(rootId);
    entry.watcher.close();
    if (this.closed) return;
    await this.arm(entry.root);
    this.emit('rearmed', rootId);
  }

  private scheduleReconcile(): void {
    if (this.closed || this.reconcileMs <= 0 || this.reconcileTimer) return;
    this.reconcileTimer = setTimeout(() => {
      this.reconcileTimer = null;
      void this.reconcile().finally(() => this.scheduleReconcile());
    }, this.reconcileMs);
    this.reconcileTimer.unref();
  }

  /**
   * Compares every root with its rows by a stat walk (names, size, mtime; no file is read) and
   * queues each difference: a file new, changed, gone, or no longer a regular file. A difference
   * means the watch missed something, so that root is also re-armed. Skipped (until the next
   * period) while changes are pending or an index runs: their files differ for a known reason.
   * Resolves to the number of differences found.
   */
  async reconcile(): Promise<number> {
    if (this.reconciling) {
      await this.reconciling;
      return 0;
    }
    let found = 0;
    this.reconciling = (async () => {
      for (const { root } of [...this.watchers.values()]) {
        if (this.closed || this.indexRuns.running) return;
        const differs = await this.writer.reconcile(root, () => this.closed || this.indexRuns.running || this.busy());
        if (differs === null || this.closed || this.indexRuns.running || this.busy()) return;
        if (differs.length === 0) continue;
        found += differs.length;
        this.emit('reconciled', root.id, differs.length);
        await this.rearm(root.id);
        for (const name of differs) this.queue(root.id, name);
      }
    })();
    try {
      await this.reconciling;
    } finally {
      this.reconciling = null;
    }
    return found;
  }

  /** Changes are waiting or being indexed. */
  private busy(): boolean {
    return this.pending.size > 0 || this.flushing !== null || this.timer !== null;
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (this.reconcileTimer) clearTimeout(this.reconcileTimer);
    this.reconcileTimer = null;
    await this.reconciling;
    for (const w of this.watchers.values()) w.watcher.close();
    this.watchers.clear();
    await this.flushing;
    await this.writer.close();
  }

  private queue(rootId: number, changed: string): void {
    // OpenCode's database written (it or its -wal): the database is read again, its changed sessions only.
    const relPath = databaseOfChange(changed) ?? changed;
    if (relPath === '' || relPath.startsWith('..') || !(scanned(relPath) || relPath === databaseOfChange(relPath))) return;
    let set = this.pending.get(rootId);
    if (!set) this.pending.set(rootId, (set = new Set()));
    set.add(relPath);
    this.schedule();
  }

  /** A new folder: its files may have been written before it was watched. */
  private queueFolder(root: RootRow, relPath: string): void {
    if (relPath === '' || relPath.startsWith('..')) return;
    const walk: WalkResult = { files: [], problems: [], symlinksSkipped: 0 };
    walkDirectory(childPath(root.path, relPath), relPath, walk);
    for (const f of walk.files) this.queue(root.id, f.name);
  }

  /** A folder removed: every indexed file under it. The root itself going is left to the next full index. */
  private queueGoneFolder(rootId: number, relPath: string): void {
    if (relPath === '' || relPath.startsWith('..')) return;
    for (const f of prepareIndexStatements(this.db).filesOfRoot.all(rootId)) if (f.rel_path.startsWith(`${relPath}/`)) this.queue(rootId, f.rel_path);
  }

  private schedule(): void {
    if (this.closed || this.pending.size === 0) return;
    const now = Date.now();
    if (this.timer) clearTimeout(this.timer);
    else this.firstChangeAt = now;
    const wait = Math.max(0, Math.min(this.debounceMs, this.maxWaitMs - (now - this.firstChangeAt)));
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.flush();
    }, wait);
  }

  /** Indexes what is pending, one root at a time; runs once at a time. */
  private async flush(): Promise<void> {
    if (this.flushing) return;
    this.flushing = (async () => {
      await this.hold;
      while (this.pending.size > 0 && !this.closed && !this.indexRuns.running) {
        const [rootId, paths] = this.pending.entries().next().value as [number, Set<string>];
        this.pending.delete(rootId);
        const entry = this.watchers.get(rootId);
        if (!entry) continue;
        this.spaceDatabaseReads(rootId, paths);
        if (paths.size === 0) continue;
        const giveUp = [...paths].filter((p) => (this.writing.get(`${rootId}:${p}`) ?? 0) >= this.retries);
        let update: FilesUpdate;
        try {
          update = await this.writer.indexFiles(entry.root, [...paths], { keepWhileWriting: giveUp.length === 0, shouldStop: () => this.indexRuns.running });
        } catch {
          // The database is closing or broken: nothing to publish; a full index will report what it can.
          continue;
        }
        if (this.indexRuns.running) {
          // A full index started: it reads these files itself; queue them again for after it, in case it read them too early.
          for (const p of paths) this.queue(rootId, p);
        }
        this.retryWriting(rootId, paths, update.stillWriting);
        if (update.filesChanged + update.filesRemoved === 0) continue;
        const live: LiveUpdate = {
          files_changed: update.filesChanged,
          files_removed: update.filesRemoved,
          findings_added: update.findingsAdded,
          findings_removed: update.findingsRemoved,
          new_findings: update.newFindings,
          at: new Date().toISOString(),
        };
        this.emit('update', live);
      }
    })();
    try {
      await this.flushing;
    } finally {
      this.flushing = null;
    }
    // Changes that came in while indexing.
    if (this.pending.size > 0 && !this.timer && !this.indexRuns.running) this.schedule();
  }

  /**
   * An OpenCode database is copied whole for every read (opencode-db.ts), and OpenCode writes it all
   * through a session: one read every databaseGapMs at most. A database read less than that ago is
   * taken out of `paths` and queued again for when the gap has passed (its later changes join it).
   */
  private spaceDatabaseReads(rootId: number, paths: Set<string>): void {
    const now = Date.now();
    for (const p of paths) {
      if (databaseOfChange(p) !== p) continue;
      const key = `${rootId}:${p}`;
      const last = this.databaseReadAt.get(key) ?? Number.NEGATIVE_INFINITY;
      if (now - last >= this.databaseGapMs) {
        this.databaseReadAt.set(key, now);
        continue;
      }
      paths.delete(p);
      if (this.databaseWaiting.has(key)) continue;
      this.databaseWaiting.add(key);
      setTimeout(
        () => {
          this.databaseWaiting.delete(key);
          this.queue(rootId, p);
        },
        this.databaseGapMs - (now - last),
      ).unref();
    }
  }

  /** Files still being written are looked at again shortly, a bounded number of times, then recorded as in progress. */
  private retryWriting(rootId: number, paths: Set<string>, stillWriting: string[]): void {
    const writing = new Set(stillWriting);
    for (const p of paths) if (!writing.has(p)) this.writing.delete(`${rootId}:${p}`);
    if (writing.size === 0) return;
    this.emit('still-writing', rootId, writing.size);
    for (const p of writing) this.writing.set(`${rootId}:${p}`, (this.writing.get(`${rootId}:${p}`) ?? 0) + 1);
    setTimeout(() => {
      for (const p of writing) this.queue(rootId, p);
    }, this.retryMs).unref();
  }
}
