import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

// Folders whose test files share a worker process (isolate: false): their modules are loaded once
// per worker instead of once per file, which was most of their CPU (test/detect: 18 s of CPU
// isolated, 5 s shared). They start no server, watcher, browser or CLI of their own that could
// outlive a file, and change no process-wide state. Every other folder keeps a fresh process per file.
const SHARED_PROCESS = ['test/detect', 'test/scan', 'test/query', 'test/docs', 'test/shared', 'test/web', 'test/corpus'];

export default defineConfig({
  test: {
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Two test files at a time even on two cores (vitest's default there is one): most files spend
    // their time waiting on child processes, servers, a browser or the disk, so the second core sat
    // idle. Each file keeps its own temporary folders; the own-process project's files also their own process.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    globalSetup: [
      // Prints one NOTICE when suites that need ../shared are skipped (test/support/shared-notice.ts).
      'test/support/shared-notice.ts',
      // This run's shared fixture folder, and the page built once (test/support/global-setup.ts).
      'test/support/global-setup.ts',
    ],
    projects: [
      {
        extends: true,
        test: {
          name: 'own-process',
          include: ['test/**/*.test.ts', 'test/**/*.test.tsx'],
          exclude: SHARED_PROCESS.map((dir) => `${dir}/**`),
        },
      },
      {
        extends: true,
        test: {
          name: 'shared-process',
          include: SHARED_PROCESS.flatMap((dir) => [`${dir}/**/*.test.ts`, `${dir}/**/*.test.tsx`]),
          isolate: false,
        },
      },
    ],
  },
});
