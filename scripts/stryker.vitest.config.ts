import type { ViteUserConfig as UserConfig } from 'vitest/config';
import base from '../vite.config';

/**
 * The vitest setup Stryker runs for src/domain's mutants (stryker.config.mjs): the project's setup
 * with the unit tests only (test/unit: not the lint rules test,
 * which lints the repository's own paths), no database templates, and each file isolated (Stryker's
 * per-test coverage needs every file to import the rules it tests itself).
 */
const config = base as UserConfig;
export default {
  ...config,
  test: {
    ...config.test,
    include: ['test/unit/**/*.test.{ts,tsx}'],
    exclude: [...(config.test?.exclude ?? []), 'test/unit/lint-rules.test.ts'],
    globalSetup: [],
    isolate: true,
  },
} satisfies UserConfig;
