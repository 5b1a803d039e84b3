import { availableParallelism } from 'node:os';
import { Piscina } from 'piscina';
import { analyseFile, type FileAnalysis } from '../detect/analyse-file';

export interface Analyser {
  analyse(path: string): Promise<FileAnalysis>;
  close(): Promise<void>;
}

/** The worker threads need the TypeScript loader too when the process runs from sources. */
function workerExecArgv(): string[] {
  const argv = [...process.execArgv];
  const hasTsx = argv.some((a, i) => a.includes('tsx') && (argv[i - 1] === '--import' || a.startsWith('--import')));
  return hasTsx ? argv : [...argv, '--import', 'tsx'];
}

/** Parse and detect in worker threads, one per core; results come back to the single writer. */
export function workerAnalyser(threads = availableParallelism()): Analyser {
  const pool = new Piscina<string, FileAnalysis>({
    filename: new URL('../detect/analyse-worker.ts', import.meta.url).href,
    minThreads: 1,
    maxThreads: Math.max(1, threads),
    execArgv: workerExecArgv(),
  });
  return { analyse: (path) => pool.run(path), close: () => pool.destroy() };
}

/** Same work on the calling thread: cheaper than starting workers for a handful of small files. */
export function inlineAnalyser(): Analyser {
  return {
    analyse: async (path) => {
      // Yield to the event loop between files, so a server stays responsive and progress flows.
      await new Promise((resolve) => setImmediate(resolve));
      return analyseFile(path, { forIndex: true });
    },
    close: async () => {},
  };
}
