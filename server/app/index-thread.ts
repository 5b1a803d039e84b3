import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import {
  ANALYSE_WORKER_BUNDLE,
  ANALYSE_WORKER_SOURCE,
  INDEX_THREAD_BUNDLE,
  INDEX_THREAD_SOURCE,
  newestMtime,
  SERVER_BUNDLE_OPTIONS,
} from '../build/build-tools.mjs';
import { projectRoot } from '../build/project-root';
import type { IndexOptions, IndexSummary } from '../index/index-folders';
import { type IndexRunBackend, sameThreadBackend } from '../index/index-runner';
import type { IndexBusy } from '../index/storage-port';
import { type LiveWriter, sameThreadWriter } from '../live/index-files';
import type { Db } from '../store/database';
import { DatabaseError } from '../store/database-errors';
import { sqliteIndexStore } from '../store/index-store';
import { indexDatabase } from './index-database';
import type { IndexThreadData, IndexThreadMessage, LiveThreadData, LiveThreadMessage, LiveThreadRequest } from './index-thread-worker';

/**
 * Composition: the server's index runs, each in a thread of its own that opens its own connection
 * and runs the whole run there (server/app/index-thread-worker.ts): walk, plan, the analysis pool, every
 * write, the closing transaction and a final WAL checkpoint. The event loop that answers requests
 * only hears progress and the summary. Why the whole run and not a writer thread behind the
 * IndexStore interface: see server/index/README.md ("The server's index thread").
 */

/** A run that failed in the index thread, as the runner logs it: a storage failure's code and message, else the error's kind. */
export class IndexThreadError extends Error {
  constructor(
    readonly kind: string,
    readonly known: { code: string; message: string } | null,
  ) {
    super(known ? `${known.code}: ${known.message}` : `internal failure (${kind})`);
    this.name = kind;
  }
}

let bundled: Promise<string> | null = null;

/**
 * The thread's bundle: beside this module when it runs from the CLI's bundle (server/cli/launch.mjs
 * builds it with the CLI); from source (tests, tsx), built once per state of the sources into
 * node_modules/.cache (packages stay external, so the bundle must sit inside the checkout), with the
 * analysis worker beside it, where the pool looks for it. esbuild's asynchronous build: in its own
 * process, not on this event loop.
 */
function threadBundle(): Promise<string> {
  bundled ??= (async () => {
    const beside = fileURLToPath(new URL(`./${INDEX_THREAD_BUNDLE}`, import.meta.url));
    if (existsSync(beside)) return beside;
    const cacheDir = join(projectRoot, 'node_modules', '.cache', 'tool-call-forensics');
    const stamp = Math.floor(Math.max(...['server', 'shared', 'package.json'].map((p) => newestMtime(join(projectRoot, p)))));
    const dir = join(cacheDir, `index-thread-${stamp}`);
    const file = join(dir, INDEX_THREAD_BUNDLE);
    if (existsSync(file)) return file;
    mkdirSync(cacheDir, { recursive: true });
    const partial = `${dir}.${process.pid}.partial`;
    const { build } = createRequire(import.meta.url)('esbuild') as typeof import('esbuild');
    await build({
      ...SERVER_BUNDLE_OPTIONS,
      entryPoints: {
        [INDEX_THREAD_BUNDLE.replace(/\.mjs$/, '')]: join(projectRoot, INDEX_THREAD_SOURCE),
        [ANALYSE_WORKER_BUNDLE.replace(/\.mjs$/, '')]: join(projectRoot, ANALYSE_WORKER_SOURCE),
      },
      outdir: partial,
      outExtension: { '.js': '.mjs' },
      packages: 'external',
    });
    try {
      renameSync(partial, dir);
    } catch {
      rmSync(partial, { recursive: true, force: true }); // another process finished the same bundle first
    }
    // Bundles of older sources, once nothing can still be loading them.
    const dayAgo = Date.now() - 24 * 3600 * 1000;
    for (const name of readdirSync(cacheDir)) {
      const path = join(cacheDir, name);
      if (path !== dir && name.startsWith('index-thread-') && statSync(path).mtimeMs < dayAgo) rmSync(path, { recursive: true, force: true });
    }
    return file;
  })();
  const pending = bundled;
  // A failed build is tried again by the next run.
  pending.catch(() => {
    if (bundled === pending) bundled = null;
  });
  return pending;
}

interface ThreadRun {
  /** Resolves once the run holds the lock; rejects with an IndexBusy error (or the run's failure). */
  locked: Promise<void>;
  done: Promise<IndexSummary>;
  worker: Promise<Worker>;
}

function busyError(message: string, pid: number): IndexBusy {
  return Object.assign(new Error(message), { code: 'index_running' as const, pid });
}

function startThread(data: IndexThreadData, onProgress?: IndexOptions['onProgress'], onWaiting?: IndexOptions['onWaiting']): ThreadRun {
  let lockedResolve!: () => void;
  let lockedReject!: (error: unknown) => void;
  const locked = new Promise<void>((resolve, reject) => {
    lockedResolve = resolve;
    lockedReject = reject;
  });
  const worker = threadBundle().then((file) => new Worker(file, { workerData: data, execArgv: [] }));
  const done = worker.then(
    (w) =>
      new Promise<IndexSummary>((resolve, reject) => {
        const fail = (error: unknown) => {
          lockedReject(error);
          reject(error);
        };
        w.on('message', (m: IndexThreadMessage) => {
          if (m.type === 'locked') lockedResolve();
          else if (m.type === 'busy') fail(busyError(m.message, m.pid));
          else if (m.type === 'waiting') onWaiting?.(busyError(m.message, m.pid));
          else if (m.type === 'progress') onProgress?.(m.progress);
          else if (m.type === 'done') resolve(m.summary);
          else if (m.type === 'failed') fail(new IndexThreadError(m.name, m.code !== null && m.message !== null ? { code: m.code, message: m.message } : null));
        });
        w.once('error', (error) => fail(new IndexThreadError(error.name, null)));
        // Ended without its summary (terminated as the server closed, or out of memory).
        w.once('exit', () => fail(new IndexThreadError('exit', null)));
      }),
  );
  worker.catch(lockedReject);
  // The caller awaits `locked` first; a busy run's `done` is never awaited.
  done.catch(() => {});
  return { locked, done, worker };
}

/** How long a run asked to stop may take to end by itself (and release its lock) before its thread is ended. */
const STOP_GRACE_MS = 5000;

/**
 * Asks a run to stop at its next report (it then releases the index lock, as a failed run does);
 * ends its thread if it has not ended after STOP_GRACE_MS. A thread ended that way leaves its lock
 * row behind, which the next process takes over (its pid is gone) and this one after ten minutes.
 */
async function stopThread(worker: Worker | null): Promise<void> {
  // threadId is -1 once a thread has ended.
  if (!worker || worker.threadId === -1) return;
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  worker.postMessage({ type: 'stop' });
  const timer = setTimeout(() => void worker.terminate(), STOP_GRACE_MS);
  await exited;
  clearTimeout(timer);
}

/** The server's runs in the index thread; a database in memory (no other thread can open it) on this thread. */
export function serverIndexRuns(db: Db): IndexRunBackend {
  if (db.memory) return sameThreadBackend(sqliteIndexStore(db));
  const workers = new Set<Promise<Worker>>();
  return {
    start: async ({ rootIds, analyser, onProgress }) => {
      const run = startThread({ path: db.name, rootIds, analyser, wait: false }, onProgress);
      workers.add(run.worker);
      void run.done.catch(() => {}).finally(() => workers.delete(run.worker));
      await run.locked;
      return { done: run.done };
    },
    describeError: (error) =>
      error instanceof IndexThreadError
        ? (error.known ??
          (error.kind === 'IndexThreadStopped' ? { code: 'stopped', message: 'the server closed while it ran (the files written so far are kept)' } : null))
        : null,
    close: async () => {
      await Promise.all([...workers].map(async (w) => stopThread(await w.catch(() => null))));
    },
  };
}

/**
 * serve's start-up index (folders given on the command line) in the index thread, waiting while
 * another run holds the database (told once through `onWaiting`); on this thread for a database in memory.
 */
export async function indexInThread(db: Db, options: Pick<IndexOptions, 'onWaiting' | 'analyser'> = {}): Promise<IndexSummary> {
  if (db.memory) return indexDatabase(db, options);
  const run = startThread({ path: db.name, analyser: options.analyser ?? 'auto', wait: true }, undefined, options.onWaiting);
  try {
    return await run.done;
  } catch (error) {
    // Thrown as the same-thread run throws: a storage failure as the store describes it.
    if (error instanceof IndexThreadError && error.known) throw new DatabaseError(error.known.code as DatabaseError['code'], error.known.message);
    throw error;
  }
}

/** How long the watcher's writer thread stays when no change comes (it starts again with the next one). */
const LIVE_IDLE_MS = 60_000;
/** How often a batch running in the writer thread is told whether to stop (a full index started). */
const LIVE_STOP_POLL_MS = 50;

/**
 * The folder watcher's writes in a thread of their own connection (issue 31): each batch of changed
 * files (live/index-files.ts, stat, read, analyse, write, the closing rebuild) runs there, so the
 * event loop only posts the names and hears the counts. One thread, started with the first batch,
 * ended after LIVE_IDLE_MS without one; a thread that fails fails its batch (the watcher logs nothing
 * and a later change or the reconciliation tries again) and the next batch starts a new one. On this
 * thread for a database in memory (no other connection can open it).
 */
export function liveWritesInThread(db: Db): LiveWriter {
  if (db.memory) return sameThreadWriter(db);
  const stop = new Int32Array(new SharedArrayBuffer(4));
  const pending = new Map<number, { resolve: (answer: LiveThreadMessage) => void; reject: (e: unknown) => void }>();
  let thread: Promise<Worker> | null = null;
  let idle: NodeJS.Timeout | null = null;
  let nextId = 1;
  const failAll = (error: unknown) => {
    for (const p of pending.values()) p.reject(error);
    pending.clear();
  };
  const started = (): Promise<Worker> => {
    if (thread) return thread;
    const current = threadBundle().then((file) => {
      const w = new Worker(file, { workerData: { live: true, path: db.name, stop: stop.buffer as SharedArrayBuffer } satisfies LiveThreadData, execArgv: [] });
      w.on('message', (m: LiveThreadMessage) => {
        const p = pending.get(m.id);
        if (!p) return;
        pending.delete(m.id);
        if (m.type !== 'failed') p.resolve(m);
        else p.reject(new IndexThreadError(m.name, m.code !== null && m.message !== null ? { code: m.code, message: m.message } : null));
      });
      w.once('error', (error) => failAll(new IndexThreadError(error.name, null)));
      w.once('exit', () => {
        if (thread === current) thread = null;
        failAll(new IndexThreadError('exit', null));
      });
      return w;
    });
    thread = current;
    current.catch(() => {
      if (thread === current) thread = null;
    });
    return current;
  };
  const post = async (w: Worker, m: LiveThreadRequest) => w.postMessage(m);
  const endThread = async () => {
    const current = thread;
    thread = null;
    const w = await current?.catch(() => null);
    if (!w || w.threadId === -1) return;
    const exited = new Promise<void>((resolve) => w.once('exit', () => resolve()));
    await post(w, { type: 'close' });
    const timer = setTimeout(() => void w.terminate(), STOP_GRACE_MS);
    await exited;
    clearTimeout(timer);
  };
  /** One request to the thread, the stop flag kept current while it runs. */
  const ask = async (request: Exclude<LiveThreadRequest, { type: 'close' }>, shouldStop: (() => boolean) | undefined): Promise<LiveThreadMessage> => {
    if (idle) clearTimeout(idle);
    idle = null;
    const w = await started();
    const answer = new Promise<LiveThreadMessage>((resolve, reject) => pending.set(request.id, { resolve, reject }));
    const poll = setInterval(() => Atomics.store(stop, 0, shouldStop?.() ? 1 : 0), LIVE_STOP_POLL_MS);
    Atomics.store(stop, 0, shouldStop?.() ? 1 : 0);
    try {
      await post(w, request);
      return await answer;
    } finally {
      clearInterval(poll);
      if (pending.size === 0) {
        idle = setTimeout(() => void endThread(), LIVE_IDLE_MS);
        idle.unref();
      }
    }
  };
  return {
    indexFiles: async (root, relPaths, options) => {
      const answer = await ask({ type: 'files', id: nextId++, root, relPaths, keepWhileWriting: options.keepWhileWriting ?? false }, options.shouldStop);
      return (answer as Extract<LiveThreadMessage, { type: 'files-done' }>).update;
    },
    reconcile: async (root, shouldStop) => {
      const answer = await ask({ type: 'reconcile', id: nextId++, root }, shouldStop);
      return (answer as Extract<LiveThreadMessage, { type: 'reconcile-done' }>).differs;
    },
    close: async () => {
      if (idle) clearTimeout(idle);
      idle = null;
      await endThread();
    },
  };
}
