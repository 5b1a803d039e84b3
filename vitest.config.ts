import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

// Folders whose test files share a worker process (isolate: false): their modules are loaded once
// per worker instead of once per file, which was most of their CPU (test/detect: 18 s of CPU
// isolated, 5 s shared; test/routes, store, index, team and privacy: 284 s one process per file,
// 171 s shared, for the same 550 tests at load 6-9). Their files close every server, database and
// child process they start before they end, and change no process-wide state (no environment
// variable, working directory, process handler or mock left behind). The folders that start a
// browser, a watcher or the CLI's long-running commands (browser, live, cli, reliability, bench)
// keep a fresh process per file: a file that left one running would slow or break the next.
const SHARED_PROCESS = [
  'test/detect',
  'test/scan',
  'test/query',
  'test/docs',
  'test/shared',
  'test/web',
  'test/corpus',
  'test/routes',
  'test/store',
  'test/index',
  'test/team',
  'test/privacy',
];

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
