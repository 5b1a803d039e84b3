import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'test/**/*.test.tsx'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Two test files at a time even on two cores (vitest's default there is one): most files spend
    // their time waiting on child processes, servers, a browser or the disk, so the second core sat
    // idle. Each file still runs in its own process (forks, isolated), with its own temporary folders.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    globalSetup: [
      // Prints one NOTICE when suites that need ../shared are skipped (test/support/shared-notice.ts).
      'test/support/shared-notice.ts',
      // This run's shared fixture folder, and the page built once (test/support/global-setup.ts).
      'test/support/global-setup.ts',
    ],
  },
});
