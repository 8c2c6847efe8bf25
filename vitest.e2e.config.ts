import { defineConfig } from 'vitest/config';

// End-to-end: the built renderer in Debian's Chromium through the UI test host.
export default defineConfig({
  test: {
    include: ['test/e2e/**/*.e2e.ts'],
    environment: 'node',
    testTimeout: 90_000,
    hookTimeout: 90_000,
    // A wait on the window or the core (expect.poll) gets 5 s, not Vitest's 1 s: on a loaded two-core machine the
    // core's answer and the next paint can take longer than a second, and a longer wait only slows a failure.
    expect: { poll: { timeout: 5_000 } },
    pool: 'forks',
    fileParallelism: false,
    reporters: ['default', './test/support/summary-reporter.ts'],
  },
});
