import { EventEmitter } from 'node:events';
import type { IndexRunState } from '../../shared/api-schemas';
import { type IndexProgress, type IndexSummary, indexRoots } from './index-folders';
import { type IndexStore, isIndexBusy } from './storage-port';

/** The server runs one index run at a time; another was asked for while one runs (or a CLI run holds the database). */
export class IndexRunningError extends Error {
  readonly code = 'index_running';
  constructor(message = 'an index run is already running') {
    super(message);
  }
}

/**
 * Where the runner's index runs happen. The server's runs happen in a thread of their own, which
 * owns the writing connection (server/app/index-thread.ts), so no write of a run ever holds the event
 * loop that answers requests; an `IndexStore` given instead runs them on this thread (tests, and a
 * database in memory, which no other thread can open).
 */
export interface IndexRunBackend {
  /**
   * Takes the database's index lock at once (rejecting with an IndexBusy error when another run
   * holds it), then starts the run; resolves once the lock is taken, with the run's end.
   */
  start(options: {
    rootIds?: number[];
    analyser: 'auto' | 'workers' | 'inline';
    onProgress: (p: IndexProgress) => void;
  }): Promise<{ done: Promise<IndexSummary> }>;
  /** A storage failure by code and a message that holds no path; null for any other error. */
  describeError(error: unknown): { code: string; message: string } | null;
  /** Stops a run still going (the server is closing); resolves once nothing of it runs. */
  close(): Promise<void>;
}

/** Runs on this thread, over a store (what IndexRunner does with an IndexStore). */
export function sameThreadBackend(store: IndexStore): IndexRunBackend {
  return {
    start: async (options) => {
      const lock = store.tryAcquireLock();
      return { done: indexRoots(store, { ...options, lock }) };
    },
    describeError: (error) => store.describeError(error),
    close: async () => {},
  };
}

const IDLE: IndexRunState = {
  state: 'idle',
  index_run_id: null,
  folder_id: null,
  phase: null,
  files_done: 0,
  files_total: 0,
  bytes_done: 0,
  bytes_total: 0,
  files_failed: 0,
  bytes_per_second: 0,
  eta_seconds: null,
  started_at: null,
  finished_at: null,
  findings_added: 0,
  findings_removed: 0,
};

/**
 * Runs one index run at a time for the server and publishes its progress ('progress' events with
 * the same IndexRunState that GET /api/index-runs/current returns), throttled for the progress bar.
 */
export class IndexRunner extends EventEmitter {
  private state: IndexRunState = { ...IDLE };
  private lastEmit = 0;
  private readonly backend: IndexRunBackend;

  /**
   * `progressIntervalMs` is the least time between two progress events while files are indexed
   * (the start and the end are always sent); 100 ms keeps the progress bar smooth without
   * flooding slow clients.
   */
  constructor(
    backend: IndexRunBackend | IndexStore,
    private readonly analyser: 'auto' | 'workers' | 'inline' = 'auto',
    private readonly progressIntervalMs = 100,
    private readonly log: (line: string) => void = (line) => process.stderr.write(`${line}\n`),
  ) {
    super();
    this.setMaxListeners(100);
    this.backend = 'tryAcquireLock' in backend ? sameThreadBackend(backend) : backend;
  }

  current(): IndexRunState {
    return { ...this.state };
  }

  get running(): boolean {
    return this.state.state === 'running';
  }

  /**
   * Starts an index run of all roots, or one; resolves once it has started (its lock taken), with
   * its end. Throws IndexRunningError when one runs, here or in another process (a CLI run).
   */
  async start(rootId?: number): Promise<{ state: IndexRunState; done: Promise<IndexSummary | null> }> {
    if (this.running) throw new IndexRunningError();
    // Running from now on, so a second request meanwhile is refused; published once the lock is taken.
    const before = this.state;
    const startedAt = new Date();
    this.state = { ...IDLE, state: 'running', folder_id: rootId ?? null, phase: 'walking', started_at: startedAt.toISOString() };
    // The database's index lock, taken now: when a CLI run holds it, the caller hears so at
    // once (409) instead of a run that waits or fails later.
    let run: { done: Promise<IndexSummary> };
    try {
      run = await this.backend.start({
        rootIds: rootId === undefined ? undefined : [rootId],
        analyser: this.analyser,
        onProgress: (p) => this.onProgress(p),
      });
    } catch (error) {
      this.state = before;
      if (isIndexBusy(error)) throw new IndexRunningError(error.message);
      throw error;
    }
    this.publish(true);
    const done = run.done.then(
      (summary) => {
        this.state = {
          ...this.state,
          state: 'done',
          index_run_id: summary.indexRunId,
          phase: 'done',
          finished_at: new Date().toISOString(),
          files_failed: summary.filesFailed,
          findings_added: summary.findingsAdded,
          findings_removed: summary.findingsRemoved,
          eta_seconds: 0,
        };
        this.publish(true);
        return summary;
      },
      (error: unknown) => {
        // Never silent: the reason goes to the server's log, by kind only (a message could hold a path).
        const known = this.backend.describeError(error);
        this.log(`index run failed: ${known ? `${known.code}: ${known.message}` : `internal failure (${error instanceof Error ? error.name : 'unknown'})`}`);
        this.state = { ...this.state, state: 'failed', finished_at: new Date().toISOString() };
        this.publish(true);
        return null;
      },
    );
    return { state: this.current(), done };
  }

  /** Stops a run still going (the server is closing). */
  close(): Promise<void> {
    return this.backend.close();
  }

  private onProgress(p: IndexProgress): void {
    const seconds = p.elapsedMs / 1000;
    const rate = seconds > 0 ? p.bytesDone / seconds : 0;
    this.state = {
      ...this.state,
      phase: p.phase,
      files_done: p.filesDone,
      files_total: p.filesTotal,
      bytes_done: p.bytesDone,
      bytes_total: p.bytesTotal,
      files_failed: p.filesFailed,
      bytes_per_second: rate,
      eta_seconds: rate > 0 ? (p.bytesTotal - p.bytesDone) / rate : null,
    };
    this.publish(p.phase !== 'indexing');
  }

  private publish(force: boolean): void {
    const now = Date.now();
    if (!force && now - this.lastEmit < this.progressIntervalMs) return;
    this.lastEmit = now;
    this.emit('progress', this.current());
  }
}
