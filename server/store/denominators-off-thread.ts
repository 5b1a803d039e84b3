import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type { Db } from './database';
import { DENOMINATOR_REBUILD } from './index-statements';

/**
 * The denominator rebuild sorts every message of the index (one window over all of them): on
 * 100,000 small files that is one synchronous statement of 200–600 ms, which held the server's
 * event loop that long. Here it runs on a second connection in a worker thread, in its own
 * BEGIN IMMEDIATE transaction that checks the generation numbers first, exactly as
 * rebuildDenominatorsIfNeeded does on the caller's connection; the caller's own closing
 * transaction then finds nothing left to do (or, if anything changed meanwhile, or this could
 * not run, does it itself: the result is the same either way).
 *
 * The worker is a few lines of plain JavaScript (no TypeScript loader, no bundle to find): it
 * gets the SQL from index-statements.ts, so there is one text of each statement.
 */
const WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.path, { fileMustExist: true });
try {
  db.pragma('busy_timeout = ' + workerData.busyMs);
  const needed = db.prepare(workerData.needed).pluck();
  const steps = workerData.steps.map((sql) => db.prepare(sql));
  let rebuilt = false;
  db.transaction(() => {
    if (!needed.get()) return;
    for (const step of steps) step.run();
    rebuilt = true;
  }).immediate();
  parentPort.postMessage({ rebuilt });
} finally {
  db.close();
}
`;

/**
 * Rebuilds the denominators off the event loop when they need it. Resolves to true when it
 * rebuilt them, false when there was nothing to do or it could not run here (a database in
 * memory, a worker that failed): the caller's synchronous rebuild then stays the one that counts.
 * The caller must hold the index lock and no open transaction, so nothing writes rows meanwhile.
 */
export async function rebuildDenominatorsOffThread(db: Db): Promise<boolean> {
  if (db.memory || db.readonly) return false;
  // Nothing changed (a re-index that found no new file): no worker. Starting one, and
  // better-sqlite3 in it, cost ~40 ms of every such run.
  if (!db.prepare(DENOMINATOR_REBUILD.needed).pluck().get()) return false;
  const driver = createRequire(import.meta.url).resolve('better-sqlite3');
  const worker = new Worker(WORKER, {
    eval: true,
    workerData: { driver, path: db.name, busyMs: 30_000, needed: DENOMINATOR_REBUILD.needed, steps: DENOMINATOR_REBUILD.steps },
    // Plain JavaScript: none of the parent's loader flags (tsx).
    execArgv: [],
  });
  try {
    return await new Promise<boolean>((resolve) => {
      worker.once('message', (m: { rebuilt: boolean }) => resolve(m.rebuilt === true));
      worker.once('error', () => resolve(false));
      worker.once('exit', () => resolve(false));
    });
  } finally {
    await worker.terminate();
  }
}
