import { defineConfig } from 'vitest/config';

/**
 * Browser tests (test/e2e): real Chromium against the real built server, which global-setup.ts
 * starts once per run. Files run one after another: each launches its own browser.
 */
export default defineConfig({
  test: {
    include: ['test/e2e/**/*.test.ts'],
    globalSetup: ['test/e2e/support/global-setup.ts'],
    fileParallelism: false,
    testTimeout: 60_000,
    hookTimeout: 180_000,
    pool: 'forks',
  },
});
