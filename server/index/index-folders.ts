import { availableParallelism } from 'node:os';
import type { IndexAnalysis } from './analyse-for-index';
import { type Analyser, helpedAnalyser, inlineAnalyser, workerAnalyser } from './analysis-pool';
import { FilePlan } from './file-plan';
import { countWrittenFile, emptySummary, type IndexProgress, type IndexSummary } from './index-summary';
import { planRoot, yieldSoon } from './plan-folder';
import { analyseAndWrite } from './schedule';
import type { FileJob, IndexBusy, IndexLock, IndexStore } from './storage-port';

export type { IndexProgress, IndexSummary } from './index-summary';

export interface IndexOptions {
  /** Only these roots; all roots when absent. */
  rootIds?: number[];
  onProgress?: (progress: IndexProgress) => void;
  /** 'auto' starts worker threads only when there is enough to read to pay for them. */
  analyser?: 'auto' | 'workers' | 'inline';
  /**
   * With worker threads, this thread analyses too, beside one worker fewer (helpedAnalyser): for a
   * caller whose thread has nothing else to do (the CLI). Not for a thread that must stay responsive.
   */
  analyseHere?: boolean;
  /**
   * The database's index lock, already taken (the server takes it before answering 202).
   * Without one, the run takes it, waiting while another run holds it.
   */
  lock?: IndexLock;
  /** Told once when another run holds the lock and this one waits for it. */
  onWaiting?: (holder: IndexBusy) => void;
  /**
   * Read the complete rows of damaged files instead of failing them: for every root (true) or
   * per root (a per-folder setting). Files that failed before are read again when it is on.
   */
  salvage?: boolean | ((rootId: number) => boolean);
  /**
   * Analysis threads in all, the calling thread included when it analyses (`analyseHere`): 1 analyses on one
   * thread only; more start workers whatever the size. Without it, by size (workersFrom) and cores.
   */
  threads?: number;
}

/** Bytes to read from which a run whose thread does not analyse (serve's index thread) starts workers. */
const WORKERS_WORTH_BYTES = 16 * 1024 * 1024;
/**
 * Bytes to read from which a run that analyses on its own thread too (the CLI) starts a worker beside it. A
 * worker's isolate, bundle and JIT warm-up cost ~0.35 s of CPU and bought no wall time on 65 MB of real
 * transcripts (one thread: 1.04x the bare parse's CPU, 1.00x its wall; with a worker 1.42x and 1.04x); on 130 MB
 * it saved 12% of the wall for 10% more CPU (test/bench/README.md).
 */
const HELPED_WORKERS_WORTH_BYTES = 96 * 1024 * 1024;

/** The bytes to read from which a run starts workers. */
function workersFrom(options: IndexOptions): number {
  if (options.threads !== undefined) return options.threads > 1 ? 0 : Number.POSITIVE_INFINITY;
  return options.analyseHere ? HELPED_WORKERS_WORTH_BYTES : WORKERS_WORTH_BYTES;
}
/**
 * Below this mean size per planned file, one analysis thread: the single writer (this thread,
 * ~5,000 tiny files a second) is the bottleneck, one worker analyses tiny files several times
 * faster than that, and a second worker's isolate and heap (~40-50 MB) bought no time.
 */
const ONE_WORKER_MEAN_BYTES = 8 * 1024;
const HEARTBEAT_MS = 30_000;

/** Worker threads for a plan: one when its files are small on average (ONE_WORKER_MEAN_BYTES), else one per core. */
export function analysisThreads(bytes: number, files: number, cores: number): number {
  return bytes < ONE_WORKER_MEAN_BYTES * files ? 1 : Math.max(1, cores);
}

/**
 * One index run over roots, incrementally: unchanged files (size, mtime, fingerprint) are not
 * read again; changed ones are analysed in worker threads and written by this thread, one
 * transaction per file, so a crash at any moment leaves a consistent database that the next
 * run completes. plan (each root) → analyse (workers) → write (each file) → finish (denominators).
 */
export async function indexRoots(store: IndexStore, options: IndexOptions = {}): Promise<IndexSummary> {
  const lock = options.lock ?? (await store.acquireLock(options.onWaiting));
  try {
    return await indexLocked(store, options, lock);
  } finally {
    lock.release();
  }
}

/**
 * One run, holding the database's index lock: runs on one database are serialized, so two
 * never interleave their writes (and the store's generation numbers keep the denominators
 * right even if they did).
 */
async function indexLocked(store: IndexStore, options: IndexOptions, lock: IndexLock): Promise<IndexSummary> {
  const started = Date.now();
  // Each folder once: `index corp ./corp/` names one folder twice (both resolve to the same root).
  const roots = store.roots(options.rootIds && [...new Set(options.rootIds)]);
  const indexRunId = store.startRun(roots.length === 1 ? roots[0]!.id : null, new Date(started).toISOString());
  const summary = emptySummary(indexRunId, roots.length);
  const progress: IndexProgress = { phase: 'walking', filesTotal: 0, filesDone: 0, bytesTotal: 0, bytesDone: 0, filesFailed: 0, elapsedMs: 0 };
  const report = () => options.onProgress?.({ ...progress, elapsedMs: Date.now() - started });
  report();

  let lastBeat = Date.now();
  const beat = () => {
    if (Date.now() - lastBeat < HEARTBEAT_MS) return;
    lock.heartbeat();
    lastBeat = Date.now();
  };
  // --salvage (true) or a caller's choice per root; without either, each folder's own setting.
  const ownSetting = new Map(roots.map((r) => [r.id, r.salvage === 1]));
  const salvageOf = (rootId: number) =>
    typeof options.salvage === 'function'
      ? options.salvage(rootId)
      : options.salvage === true || (options.salvage === undefined && ownSetting.get(rootId) === true);

  const plan = new FilePlan();
  const early = earlyPool(options, plan);
  try {
    return await runPlanned(store, options, roots, plan, summary, progress, report, beat, salvageOf, indexRunId, started, early);
  } finally {
    // Started while planning but not used (a root removed meanwhile, or an error): closed here.
    // Its failure (a worker that could not start) must not hide the run's own error.
    if (early.pool !== null && !early.used) await early.pool.close().catch(() => {});
    // Temporary copies (OpenCode's sessions, issue 38) are deleted however the run ends.
    for (const cleanup of plan.cleanups) cleanup();
  }
}

interface EarlyPool {
  /** The workers started while planning, or null. */
  pool: Analyser | null;
  /** Handed to the run's analyser (which closes it). */
  used: boolean;
}

/**
 * For a caller that analyses on its own thread too (the CLI: `analyseHere`), the workers start
 * while the folders are still being walked, as soon as the files planned so far are worth them
 * (workersFrom, the same rule as below, on bytes that only grow): a worker's start (its
 * isolate and bundle, ~0.1 s) then overlaps the walk and fingerprinting instead of following them,
 * and the largest file, which goes to a worker, no longer waits for one. As many workers as the run
 * would start (one fewer than the cores; one when the files so far are small, analysisThreads).
 * A re-index with nothing to read never plans those bytes, so never starts one.
 */
function earlyPool(options: IndexOptions, plan: FilePlan): EarlyPool {
  const early: EarlyPool = { pool: null, used: false };
  const mode = options.analyser ?? 'auto';
  if (!options.analyseHere || mode === 'inline') return early;
  const from = workersFrom(options);
  plan.onAdd = (bytes, files) => {
    if (bytes < from || files < 2) return;
    plan.onAdd = null;
    const threads = options.threads ?? analysisThreads(bytes, files, availableParallelism());
    early.pool = workerAnalyser(Math.max(1, threads - 1), { tasksPerWorker: 2 });
  };
  return early;
}

async function runPlanned(
  store: IndexStore,
  options: IndexOptions,
  roots: ReturnType<IndexStore['roots']>,
  plan: FilePlan,
  summary: IndexSummary,
  progress: IndexProgress,
  report: () => void,
  beat: () => void,
  salvageOf: (rootId: number) => boolean,
  indexRunId: number,
  started: number,
  early: EarlyPool,
): Promise<IndexSummary> {
  for (const root of roots) await planRoot(store, root, summary, salvageOf(root.id), plan);
  // Planning's last slice, the sort (100,000 files: 16-23 ms) and starting the analysis threads
  // (8-15 ms) each get a turn of the event loop of their own: together, in one turn, they held the
  // server's loop for 56-69 ms as indexing started.
  await yieldSoon();
  plan.sortLargestFirst();
  await yieldSoon();
  progress.phase = 'indexing';
  progress.filesTotal = plan.length;
  progress.bytesTotal = plan.bytes;
  report();

  const mode = options.analyser ?? 'auto';
  const parallel = mode === 'workers' || (mode === 'auto' && progress.bytesTotal >= workersFrom(options) && plan.length > 1);
  await yieldSoon();
  plan.onAdd = null;
  const threads = options.threads ?? analysisThreads(plan.bytes, plan.length, availableParallelism());
  let analyser: Analyser;
  if (parallel && early.pool !== null) {
    // The workers started while planning: as many as the plan so far wanted (its final mean may differ a little).
    early.used = true;
    analyser = threads > 1 ? helpedAnalyser(threads, early.pool) : early.pool;
  } else {
    analyser = !parallel ? inlineAnalyser() : options.analyseHere && threads > 1 ? helpedAnalyser(threads) : workerAnalyser(threads);
  }
  try {
    await analyseAndWrite(plan, {
      analyser,
      parallel,
      batchInline: options.analyseHere === true,
      salvageOf,
      onSlice: beat,
      write: (files: Iterable<{ job: FileJob; analysis: IndexAnalysis }>) => {
        store.writeFiles(files, (job, analysis, written) => {
          // Removed (by another process) since the walk: nothing of it came back, nothing is counted.
          if (written) countWrittenFile(summary, job, analysis);
          progress.filesDone++;
          progress.bytesDone += job.size;
          if (analysis.status === 'failed') progress.filesFailed++;
        });
        report();
      },
    });
  } finally {
    await analyser.close();
  }
  // Every planned file is written: a database source's state may now be recorded (the next run skips it when unchanged).
  for (const record of plan.afterWrite) record();

  progress.phase = 'finishing';
  report();
  const finished = await store.finishRun(
    indexRunId,
    roots.map((r) => r.id),
    {
      filesSeen: summary.filesSeen,
      filesChanged: summary.filesChanged,
      filesRemoved: summary.filesRemoved,
      filesFailed: summary.filesFailed,
      bytesRead: summary.bytesRead,
      findingsAdded: summary.findingsAdded,
      findingsRemoved: summary.findingsRemoved,
    },
    started,
  );
  summary.failures = finished.failures;
  summary.durationMs = finished.durationMs;
  progress.phase = 'done';
  report();
  return summary;
}
