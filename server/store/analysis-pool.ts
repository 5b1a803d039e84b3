import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Piscina } from 'piscina';
import { analyseFile, type FileAnalysis } from '../detect/analyse-file';
import { projectRoot } from '../project-root';

export interface Analyser {
  /** Analyses a batch of files (one task per batch, so thousands of small files cost few round trips); `salvage[i]` per file. */
  analyse(paths: string[], salvage?: boolean[]): Promise<FileAnalysis[]>;
  close(): Promise<void>;
}

/** Where server/cli/launch.mjs puts the worker it bundled with the CLI, when the CLI runs from its bundle. */
const PREBUILT_WORKER = Symbol.for('tool-call-forensics.analyse-worker');

/**
 * The worker's code bundled into one plain JavaScript file: a worker that had to load the
 * TypeScript loader and resolve every module through it took ~400 ms to start; this takes
 * ~60 ms to build and the workers start at once. The CLI's launcher bundles it with the CLI
 * (from the same sources); run from source (tests, tsx) it is rebuilt per pool, so it is
 * never stale.
 */
function bundleWorker(): { file: string; dispose: () => void } {
  const prebuilt = (globalThis as Record<symbol, unknown>)[PREBUILT_WORKER];
  if (typeof prebuilt === 'string') return { file: prebuilt, dispose: () => {} };
  const dir = mkdtempSync(join(tmpdir(), 'tcf-worker-'));
  const file = join(dir, 'analyse-worker.mjs');
  const { buildSync } = createRequire(import.meta.url)('esbuild') as typeof import('esbuild');
  buildSync({
    entryPoints: [join(projectRoot, 'server/detect/analyse-worker.ts')],
    outfile: file,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    logLevel: 'silent',
  });
  return { file, dispose: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Young generation of each analysis thread (MB); see workerAnalyser. */
const WORKER_YOUNG_GENERATION_MB = 16;

/** Parse and detect in worker threads, one per core; results come back to the single writer. */
export function workerAnalyser(threads = availableParallelism()): Analyser {
  const bundle = bundleWorker();
  const pool = new Piscina<string[] | { paths: string[]; salvage: boolean[] }, FileAnalysis[]>({
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
  });
  return {
    analyse: (paths, salvage) => pool.run(salvage?.some(Boolean) ? { paths, salvage } : paths),
    close: async () => {
      await pool.destroy();
      bundle.dispose();
    },
  };
}

/** Same work on the calling thread: cheaper than starting workers for a handful of small files. */
export function inlineAnalyser(): Analyser {
  return {
    analyse: async (paths, salvage) => {
      const out: FileAnalysis[] = [];
      for (const [i, path] of paths.entries()) {
        // Yield to the event loop between files, so a server stays responsive and progress flows.
        await new Promise((resolve) => setImmediate(resolve));
        out.push(analyseFile(path, { forIndex: true, salvage: salvage?.[i] === true }));
      }
      return out;
    },
    close: async () => {},
  };
}
