import { defineConfig } from 'vitest/config';

// End-to-end: the built renderer in Debian's Chromium through the UI test host.
export default defineConfig({
  test: {
    include: ['test/e2e/**/*.e2e.ts'],
    environment: 'node',
    testTimeout: 90_000,
    hookTimeout: 90_000,
    pool: 'forks',
    fileParallelism: false,
    reporters: ['default', './test/support/summary-reporter.ts'],
  },
});
