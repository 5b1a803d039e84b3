import { EventEmitter } from 'node:events';
import type { IndexRunState } from '../../shared/api-schemas';
import { type IndexProgress, type IndexSummary, indexRoots } from './index-roots';
import { type IndexLock, type IndexStore, isIndexBusy } from './index-store';

/** The server runs one index run at a time; another was asked for while one runs (or a CLI run holds the database). */
export class IndexRunningError extends Error {
  readonly code = 'index_running';
  constructor(message = 'an index run is already running') {
    super(message);
  }
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

  /**
   * `progressIntervalMs` is the least time between two progress events while files are indexed
   * (the start and the end are always sent); 100 ms keeps the progress bar smooth without
   * flooding slow clients.
   */
  constructor(
    private readonly store: IndexStore,
    private readonly analyser: 'auto' | 'workers' | 'inline' = 'auto',
    private readonly progressIntervalMs = 100,
    private readonly log: (line: string) => void = (line) => process.stderr.write(`${line}\n`),
  ) {
    super();
    this.setMaxListeners(100);
  }

  current(): IndexRunState {
    return { ...this.state };
  }

  get running(): boolean {
    return this.state.state === 'running';
  }

  /** Starts an index run of all roots, or one; resolves when it ends. Throws IndexRunningError when one runs. */
  start(rootId?: number): { state: IndexRunState; done: Promise<IndexSummary | null> } {
    if (this.running) throw new IndexRunningError();
    // The database's index lock, taken now: when a CLI run holds it, the caller hears so at
    // once (409) instead of a run that waits or fails later.
    let lock: IndexLock;
    try {
      lock = this.store.tryAcquireLock();
    } catch (error) {
      if (isIndexBusy(error)) throw new IndexRunningError(error.message);
      throw error;
    }
    const startedAt = new Date();
    this.state = { ...IDLE, state: 'running', folder_id: rootId ?? null, phase: 'walking', started_at: startedAt.toISOString() };
    this.publish(true);
    const done = indexRoots(this.store, {
      rootIds: rootId === undefined ? undefined : [rootId],
      analyser: this.analyser,
      lock,
      onProgress: (p) => this.onProgress(p),
    }).then(
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
        const known = this.store.describeError(error);
        this.log(`index run failed: ${known ? `${known.code}: ${known.message}` : `internal failure (${error instanceof Error ? error.name : 'unknown'})`}`);
        this.state = { ...this.state, state: 'failed', finished_at: new Date().toISOString() };
        this.publish(true);
        return null;
      },
    );
    return { state: this.current(), done };
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
