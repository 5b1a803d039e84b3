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
 * (from the same sources); run from source (tests, tsx, `npm run dev`) it is rebuilt per pool,
 * so it is never stale — with esbuild's asynchronous build, in esbuild's own process, so the
 * caller's event loop is not held while it bundles (buildSync held it 60–200 ms).
 */
async function bundleWorker(): Promise<{ file: string; dispose: () => void }> {
  const prebuilt = (globalThis as Record<symbol, unknown>)[PREBUILT_WORKER];
  if (typeof prebuilt === 'string') return { file: prebuilt, dispose: () => {} };
  const dir = mkdtempSync(join(tmpdir(), 'tcf-worker-'));
  const file = join(dir, 'analyse-worker.mjs');
  const { build } = createRequire(import.meta.url)('esbuild') as typeof import('esbuild');
  await build({
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

/** Parse and detect in worker threads, one per core; results come back to the single writer. */
export function workerAnalyser(threads = availableParallelism()): Analyser {
  // Started at once, awaited by the first batch: the pool exists once its worker's bundle does.
  const started = bundleWorker().then((bundle) => ({
    bundle,
    pool: new Piscina<string[] | { paths: string[]; salvage: boolean[] }, FileAnalysis[]>({
      filename: bundle.file,
      // Start every thread at once, so neither core waits for a late one.
      minThreads: Math.max(1, threads),
      maxThreads: Math.max(1, threads),
      // The bundle is plain JavaScript: the workers need none of the parent's loader flags (tsx).
      execArgv: [],
    }),
  }));
  // A failed build is reported by the first analyse (and by close), never as an unhandled rejection.
  started.catch(() => {});
  return {
    analyse: async (paths, salvage) => (await started).pool.run(salvage?.some(Boolean) ? { paths, salvage } : paths),
    close: async () => {
      const { bundle, pool } = await started;
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
