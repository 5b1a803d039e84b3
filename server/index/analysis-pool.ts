import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ANALYSE_WORKER_BUNDLE, ANALYSE_WORKER_SOURCE, SERVER_BUNDLE_OPTIONS } from '../build/build-tools.mjs';
import { projectRoot } from '../build/project-root';
import { analyseForIndex, type IndexAnalysis } from './analyse-for-index';
import { type AnalysedBatch, decodedBatch, type EncodedAnalyses, plainBatch } from './analysis-batch';

export interface Analyser {
  /** Analyses a batch of files (one task per batch, so thousands of small files cost few round trips); `salvage[i]` per file. */
  analyse(paths: string[], salvage?: boolean[]): Promise<AnalysedBatch>;
  close(): Promise<void>;
}

/**
 * The bundled worker beside a module, or null. Run from the CLI's bundle (server/cli/launch.mjs),
 * this module is one of the bundle's chunks and `analyse-worker.mjs` sits in the same folder; run
 * from source (tests, tsx), this module is server/index/analysis-pool.ts and there is none beside it.
 */
export function bundledWorkerBeside(moduleUrl: string): string | null {
  const file = fileURLToPath(new URL(`./${ANALYSE_WORKER_BUNDLE}`, moduleUrl));
  return existsSync(file) ? file : null;
}

/**
 * The worker's code bundled into one plain JavaScript file: a worker that had to load the
 * TypeScript loader and resolve every module through it took ~400 ms to start; this takes
 * ~60 ms to build and the workers start at once. The CLI's launcher bundles it with the CLI
 * (from the same sources); run from source (tests, tsx, `npm run dev`) it is rebuilt per pool,
 * so it is never stale — with esbuild's asynchronous build, in esbuild's own process, so the
 * caller's event loop is not held while it bundles (buildSync held it 60–200 ms).
 */
async function bundleWorker(): Promise<{ file: string; dispose: () => void }> {
  const prebuilt = bundledWorkerBeside(import.meta.url);
  if (prebuilt !== null) return { file: prebuilt, dispose: () => {} };
  const dir = mkdtempSync(join(tmpdir(), 'tcf-worker-'));
  const file = join(dir, ANALYSE_WORKER_BUNDLE);
  const require = createRequire(import.meta.url);
  const { build } = require('esbuild') as typeof import('esbuild');
  // better-sqlite3 (a native addon, CommonJS: OpenCode's database, issue 38) cannot be bundled into an ES module;
  // the bundle in its temporary folder loads the installed one by its absolute path (server/scan/opencode-db.ts
  // loads it only when a database is opened, through __SQLITE_DRIVER__).
  const sqlite = require.resolve('better-sqlite3');
  await build({
    ...SERVER_BUNDLE_OPTIONS,
    entryPoints: [join(projectRoot, ANALYSE_WORKER_SOURCE)],
    outfile: file,
    define: { __SQLITE_DRIVER__: JSON.stringify(sqlite) },
    plugins: [{ name: 'installed-sqlite', setup: (b) => b.onResolve({ filter: /^better-sqlite3$/ }, () => ({ path: sqlite, external: true })) }],
  });
  return { file, dispose: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Young generation of each analysis thread (MB); see workerAnalyser. */
const WORKER_YOUNG_GENERATION_MB = 16;

/** Parse and detect in worker threads, one per core; results come back to the single writer. */
export function workerAnalyser(threads = availableParallelism(), options: { tasksPerWorker?: number } = {}): Analyser {
  // Started at once, awaited by the first batch: the pool exists once its worker's bundle does.
  // Piscina is loaded here, not with this module: a run that needs no pool (a few small files, a
  // re-index with nothing to do) does not pay for loading it.
  const started = Promise.all([bundleWorker(), import('piscina')]).then(([bundle, { Piscina }]) => ({
    bundle,
    pool: new Piscina<string[] | { paths: string[]; salvage: boolean[] }, EncodedAnalyses>({
      filename: bundle.file,
      // Start every thread at once, so neither core waits for a late one.
      minThreads: Math.max(1, threads),
      maxThreads: Math.max(1, threads),
      // The bundle is plain JavaScript: the workers need none of the parent's loader flags (tsx).
      execArgv: [],
      // Parsing gigabytes of JSON lines makes V8 grow each thread's young generation towards its
      // default ceiling, and peak RSS with it (~305 MB over a 3 GB corpus, ~180 MB over 300 MB). At
      // 16 MB per worker: ~277 MB and ~165 MB (8 MB gave ~237 and ~151). Objects that outlive a
      // scavenge move to the old generation as before; nothing is limited but the nursery's size.
      resourceLimits: { maxYoungGenerationSizeMb: WORKER_YOUNG_GENERATION_MB },
      // More than one: the next batch already waits in the worker when it finishes one, so it never
      // waits for this thread to hand it over (helpedAnalyser's thread is busy analysing meanwhile).
      concurrentTasksPerWorker: options.tasksPerWorker ?? 1,
    }),
  }));
  // A failed build is reported by the first analyse (and by close), never as an unhandled rejection.
  started.catch(() => {});
  return {
    analyse: async (paths, salvage) => decodedBatch(await (await started).pool.run(salvage?.some(Boolean) ? { paths, salvage } : paths)),
    close: async () => {
      const { bundle, pool } = await started;
      await pool.destroy();
      bundle.dispose();
    },
  };
}

/**
 * `threads` analysing, this thread one of them: a pool of one worker fewer, and the batches it is not
 * given are analysed here, one at a time, between writes (for the CLI, whose thread has no event loop
 * to keep free and otherwise waits on the workers). Each worker costs its own isolate, bundle load and
 * JIT warm-up (~0.2 s of CPU on this machine): on the 65 MB real corpus that was a tenth of the run.
 * The first batch (the largest file) goes to the pool, so the thread that writes is not the one held
 * longest. Work is shared as it comes, so both sides finish together: each worker holds at most
 * two batches (the one it analyses and the next), and a batch goes to whichever side is free first.
 * Handing the pool every batch this thread was too busy to take had queued up to 15 there, and this
 * thread then waited idle for the pool to work through them at the end of the run.
 * `pool` is a pool already started (`threads - 1` workers, two tasks each), or one is started here.
 */
export function helpedAnalyser(threads: number, pool: Analyser = workerAnalyser(threads - 1, { tasksPerWorker: 2 })): Analyser {
  const here = inlineAnalyser();
  const poolDepth = 2 * Math.max(1, threads - 1);
  let inPool = 0;
  let busy = false;
  let first = true;
  const waiting: Array<() => void> = [];
  const wake = () => {
    for (const resolve of waiting.splice(0)) resolve();
  };
  return {
    analyse: async (paths, salvage) => {
      for (;;) {
        if (first || (busy && inPool < poolDepth)) {
          first = false;
          inPool++;
          try {
            return await pool.analyse(paths, salvage);
          } finally {
            inPool--;
            wake();
          }
        }
        if (!busy) {
          busy = true;
          try {
            return await here.analyse(paths, salvage);
          } finally {
            busy = false;
            wake();
          }
        }
        await new Promise<void>((resolve) => waiting.push(resolve));
      }
    },
    close: () => pool.close(),
  };
}

/** Same work on the calling thread: cheaper than starting workers for a handful of small files. */
export function inlineAnalyser(): Analyser {
  return {
    analyse: async (paths, salvage) => {
      const out: IndexAnalysis[] = [];
      for (const [i, path] of paths.entries()) {
        // Yield to the event loop between files, so a server stays responsive and progress flows.
        await new Promise((resolve) => setImmediate(resolve));
        out.push(analyseForIndex(path, { salvage: salvage?.[i] === true }));
      }
      return plainBatch(out);
    },
    close: async () => {},
  };
}
