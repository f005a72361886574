import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import { linguiMacros } from './vite.config';

/**
 * Browser tests (test/e2e): real Chromium against the real built server. Each worker has one
 * server (started by the global setup) and one Chromium (decision 015); a worker's files run one after another on
 * them, and the workers run side by side (a test waits on the browser and the server more than it
 * computes). E2E_WORKERS overrides the count.
 */
export const E2E_WORKERS = Number(process.env.E2E_WORKERS) || Math.min(4, Math.max(2, availableParallelism()));

export default defineConfig({
  // the route table (src/app/routes.tsx) names its pages with Lingui macros
  plugins: [linguiMacros()],
  test: {
    include: ['test/e2e/**/*.test.ts'],
    globalSetup: ['test/e2e/support/global-setup.ts'],
    maxWorkers: E2E_WORKERS,
    // a hang guard, not a speed check: the longest walks (a class created, booked, moved and cancelled;
    // a QR shown, scanned and expired) took 60-110 s in loaded clean-clone runs and 16-20 s alone
    testTimeout: 150_000,
    hookTimeout: 180_000,
    // a poll waits on a real server and browser, which a loaded 2-core machine slows: 1 s (vitest's
    // default) flaked a card's activation under the clean-clone run; a poll still fails within the test
    expect: { poll: { timeout: 10_000 } },
    pool: 'forks',
    // a worker's files share its modules, and with them its Chromium (support/browser.ts)
    isolate: false,
  },
});
