import { parentPort, workerData } from 'node:worker_threads';
import { type IndexOptions, indexRoots } from '../index/index-folders';
import { isIndexBusy } from '../index/storage-port';
import { type FilesUpdate, indexFilesOfRoot } from '../live/index-files';
import { rootDifferences } from '../live/reconcile-root';
import { describeDatabaseError, openDatabase } from '../store/database';
import type { RootRow } from '../store/index-statements';
import { sqliteIndexStore } from '../store/index-store';

/** What the server's index thread is asked (server/app/index-thread.ts). */
export interface IndexThreadData {
  path: string;
  rootIds?: number[];
  analyser: NonNullable<IndexOptions['analyser']>;
  /** Wait while another run holds the lock (serve's start-up index), or fail at once (a run asked for on the page). */
  wait: boolean;
}

/** What it tells: plain data only (no path, no payload: a summary, progress, codes). */
export type IndexThreadMessage =
  | { type: 'locked' }
  | { type: 'busy'; message: string; pid: number }
  | { type: 'waiting'; message: string; pid: number }
  | { type: 'progress'; progress: import('../index/index-summary').IndexProgress }
  | { type: 'done'; summary: import('../index/index-summary').IndexSummary; checkpointed: boolean }
  | { type: 'failed'; code: string | null; message: string | null; name: string };

/**
 * The watcher's writer thread (server/index-thread.ts liveWritesInThread): the same bundle, started with
 * `live`, lives while changes come and runs each batch of the watcher's per-file updates
 * (live/index-files.ts) on its own connection. `stop` is one shared flag: 1 while a full index runs (the
 * batch then stops between files, as it did on the main thread).
 */
export interface LiveThreadData {
  live: true;
  path: string;
  stop: SharedArrayBuffer;
}

export type LiveThreadRequest =
  | { type: 'files'; id: number; root: RootRow; relPaths: string[]; keepWhileWriting: boolean }
  | { type: 'reconcile'; id: number; root: RootRow }
  | { type: 'close' };

/** Plain data only: counts, relative names, finding ids and codes (as the LiveUpdate the page is sent). */
export type LiveThreadMessage =
  | { type: 'files-done'; id: number; update: FilesUpdate }
  | { type: 'reconcile-done'; id: number; differs: string[] | null }
  | { type: 'failed'; id: number; code: string | null; message: string | null; name: string };

/**
 * The server's index thread: one index run, start to end, on a connection of its own. Every
 * write of the run (lock, run record, file rows, removals, the closing transaction) happens
 * here, never on the thread that answers requests. At the end the WAL is checkpointed and
 * truncated (the server's own connection stays open, so closing this one does not remove it).
 */
const data = workerData as IndexThreadData;
const post = (message: IndexThreadMessage) => parentPort!.postMessage(message);

/** Asked to stop (the server is closing): the run ends at its next report, releasing its lock as any failed run does. */
class IndexThreadStopped extends Error {
  override name = 'IndexThreadStopped';
}
let stopped = false;
parentPort!.on('message', (m: { type?: string }) => {
  if (m.type === 'stop') stopped = true;
});

async function run(): Promise<void> {
  const db = openDatabase(data.path);
  try {
    const store = sqliteIndexStore(db);
    let lock: ReturnType<typeof store.tryAcquireLock>;
    if (data.wait) {
      lock = await store.acquireLock((holder) => post({ type: 'waiting', message: holder.message, pid: holder.pid }));
    } else {
      try {
        lock = store.tryAcquireLock();
      } catch (error) {
        if (!isIndexBusy(error)) throw error;
        post({ type: 'busy', message: error.message, pid: error.pid });
        return;
      }
    }
    post({ type: 'locked' });
    const summary = await indexRoots(store, {
      rootIds: data.rootIds,
      analyser: data.analyser,
      lock,
      onProgress: (progress) => {
        if (stopped) throw new IndexThreadStopped('stopped: the server is closing');
        post({ type: 'progress', progress });
      },
    });
    // Merged into the database and the WAL truncated (a PASSIVE checkpoint leaves its size; the
    // server's connection keeps the file open, so closing this one does not remove it). A reader
    // that still holds it makes this give up after the busy timeout: the next run merges it.
    let checkpointed = false;
    try {
      const [result] = db.pragma('wal_checkpoint(TRUNCATE)') as { busy: number }[];
      checkpointed = result?.busy === 0;
    } catch {
      // Busy or a full disk: the WAL stays as it is, and the next run's checkpoint merges it.
    }
    post({ type: 'done', summary, checkpointed });
  } finally {
    db.close();
  }
}

/** The watcher's writer: one batch at a time, in the order asked, until told to close. */
function runLive(live: LiveThreadData): void {
  const db = openDatabase(live.path);
  const stop = new Int32Array(live.stop);
  let chain: Promise<unknown> = Promise.resolve();
  parentPort!.on('message', (m: LiveThreadRequest) => {
    if (m.type === 'close') {
      chain = chain.finally(() => {
        db.close();
        parentPort!.close();
      });
      return;
    }
    const shouldStop = () => Atomics.load(stop, 0) === 1;
    const work = async (): Promise<LiveThreadMessage> =>
      m.type === 'files'
        ? { type: 'files-done', id: m.id, update: await indexFilesOfRoot(db, m.root, m.relPaths, { keepWhileWriting: m.keepWhileWriting, shouldStop }) }
        : { type: 'reconcile-done', id: m.id, differs: await rootDifferences(db, m.root, shouldStop) };
    chain = chain.then(() =>
      work().then(
        (answer) => parentPort!.postMessage(answer),
        (error: unknown) => {
          const known = describeDatabaseError(error);
          const failed: LiveThreadMessage = {
            type: 'failed',
            id: m.id,
            code: known?.code ?? null,
            message: known?.message ?? null,
            name: error instanceof Error ? error.name : 'unknown',
          };
          parentPort!.postMessage(failed);
        },
      ),
    );
  });
}

if ((workerData as Partial<LiveThreadData>).live === true) runLive(workerData as LiveThreadData);
else
  run()
    .catch((error: unknown) => {
      const known = describeDatabaseError(error);
      post({ type: 'failed', code: known?.code ?? null, message: known?.message ?? null, name: error instanceof Error ? error.name : 'unknown' });
    })
    // Nothing more to hear: the thread ends.
    .finally(() => parentPort!.close());
