import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'test/**/*.test.tsx'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Prints one NOTICE when suites that need ../shared are skipped (test/support/shared-material.ts).
    globalSetup: ['test/support/shared-notice.ts'],
  },
});
