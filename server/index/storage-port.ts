import type { IndexAnalysis } from './analyse-for-index';

/**
 * What an index run needs from storage, and nothing more. `server/index/` defines it and never
 * imports `server/store/`; `server/store/index-store.ts` implements it with its prepared
 * statements; the composition (CLI, server, folder watcher) hands that implementation to the run.
 * Every method that writes runs in one transaction of its own.
 */
export interface IndexStore {
  /** Takes the database's index lock, waiting while another run holds it (told once through `onWaiting`). */
  acquireLock(onWaiting?: (holder: IndexBusy) => void): Promise<IndexLock>;
  /** Takes the lock now, or throws an `IndexBusy` error when another run holds it. */
  tryAcquireLock(): IndexLock;
  /** Marks any run still recorded as running as interrupted (called holding the lock: such a run died) and records a new run. */
  startRun(rootId: number | null, startedAt: string): number;
  /** These roots in the order given (all, in id order, when absent); ids that do not exist are left out. */
  roots(ids?: readonly number[]): IndexRoot[];
  /**
   * What the index holds for the files of a root (how planning tells a changed file from an
   * unchanged one), a page at a time in id order: at most `limit` files whose id is above
   * `afterId`. Pages, so the caller can yield between them: 100,000 rows read at once held the
   * event loop ~460 ms.
   */
  knownFiles(rootId: number, afterId: number, limit: number): KnownFile[];
  /** Records a failed entry of a root (replacing what a known file had); false when the root was removed meanwhile. */
  writeFailedEntry(entry: FailedEntry, old: KnownFile | undefined): boolean;
  /** Drops the rows of files (one transaction: the caller passes a bounded number). */
  removeFiles(files: readonly KnownFile[]): void;
  /**
   * Files no longer on disk (one transaction, a bounded number): an `ok` file keeps its rows as gone, last seen
   * at its last read or its folder's last finished run, whichever is later; a failed or in-progress one, which
   * holds nothing worth keeping, is removed.
   */
  markGone(files: readonly KnownFile[]): void;
  /** A gone file found again on disk with the same size and fingerprint: present again without a re-read. */
  markBack(file: KnownFile, mtimeMs: number): void;
  /**
   * Replaces everything the index holds for each file with its analysis, all in one transaction,
   * taking the files in one pass inside it and telling `onWritten` of each as soon as it is written
   * (`written` false when its root was removed: nothing written), so no file's analysis outlives
   * its own write.
   */
  writeFiles(files: Iterable<{ job: FileJob; analysis: IndexAnalysis }>, onWritten: (job: FileJob, analysis: IndexAnalysis, written: boolean) => void): void;
  /**
   * What a database source of a root (OpenCode's `opencode.db`, issue 38) looked like at the last run that read it:
   * the digest of its files' sizes, mtimes and inodes, and how many of its sessions that run saw; null when never read.
   */
  databaseSource(rootId: number, relPath: string): { state: string; sessions: number } | null;
  /** Records a database source once its sessions are written (null state: forgets it, so the next run reads it). */
  saveDatabaseSource(rootId: number, relPath: string, source: { state: string; sessions: number } | null): void;
  /** A storage failure (disk full, database locked…) by code and a message that holds no path; null for any other error. */
  describeError(error: unknown): { code: string; message: string } | null;
  /**
   * The run's closing transaction: rebuilds the denominators when anything changed since they were
   * last built, marks the roots indexed, records the run's totals and duration (from `startedMs`,
   * the run's start on Date.now()'s clock), and returns every failed file of the roots (this
   * run's or an earlier one's, unchanged since) in path order. Asynchronous: the rebuild sorts
   * every message of the index, which the store may do off the caller's event loop first.
   */
  finishRun(runId: number, rootIds: readonly number[], totals: IndexRunTotals, startedMs: number): Promise<{ failures: IndexFailure[]; durationMs: number }>;
}

/** A folder the user added, as the index sees it. */
export interface IndexRoot {
  id: number;
  path: string;
  label: string;
  /** 1: the owner asked to salvage this folder's damaged files. */
  salvage: number;
}

export interface KnownFile {
  id: number;
  rel_path: string;
  size: number;
  mtime_ms: number;
  fingerprint: string;
  status: 'ok' | 'failed' | 'in_progress';
  findings: number;
  /** 1: no longer on disk, its rows kept (migration 017). */
  gone: number;
}

export interface FailedEntry {
  rootId: number;
  relPath: string;
  code: string;
  size: number;
  mtimeMs: number;
  fingerprint: string;
  /** A fixed name of shared/format-hints.ts (a database's schema: the table or column that differs). */
  hint?: string;
}

/** One file to (re)read, as planning found it. */
export interface FileJob {
  rootId: number;
  relPath: string;
  path: string;
  size: number;
  mtimeMs: number;
  fingerprint: string;
  /** Findings the index held for the file before: they are replaced. */
  previousFindings: number;
}

export interface IndexLock {
  /** Refreshes the heartbeat; throws when the lock was taken over (this run must stop writing). */
  heartbeat(): void;
  release(): void;
}

/** Another index run holds the database. */
export interface IndexBusy extends Error {
  readonly code: 'index_running';
  readonly pid: number;
}

export function isIndexBusy(error: unknown): error is IndexBusy {
  return error instanceof Error && (error as { code?: unknown }).code === 'index_running';
}

export interface IndexRunTotals {
  filesSeen: number;
  filesChanged: number;
  filesRemoved: number;
  filesFailed: number;
  bytesRead: number;
  findingsAdded: number;
  findingsRemoved: number;
}

export interface IndexFailure {
  root: string;
  file: string;
  code: string;
  line: number | null;
  /** unknown_format: what the file looks like (shared/format-hints.ts), when cheap to tell. */
  hint?: string | null;
}
