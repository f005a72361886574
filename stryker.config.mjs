// @ts-check
/**
 * Stryker for the rules in src/domain (issue 11): every mutant of a rule is run against the unit
 * tests that cover it (vitest, per-test coverage). `npm run mutants` runs it after the charts'
 * mutation check and prints its score; `npx stryker run` runs it alone. The HTML report is written
 * to reports/stryker/ (not committed).
 * @type {import('@stryker-mutator/api/core').PartialStrykerOptions}
 */
export default {
  testRunner: 'vitest',
  plugins: ['@stryker-mutator/vitest-runner'],
  vitest: { configFile: 'scripts/stryker.vitest.config.ts', related: false },
  mutate: ['src/domain/**/*.ts'],
  coverageAnalysis: 'perTest',
  reporters: ['clear-text', 'progress', 'html', 'json'],
  htmlReporter: { fileName: 'reports/stryker/index.html' },
  jsonReporter: { fileName: 'reports/stryker/mutation.json' },
  // outside node_modules: the Lingui macro's babel step skips paths under node_modules
  tempDirName: '.stryker-tmp',
  cleanTempDir: 'always',
  thresholds: { high: 90, low: 80, break: null },
};
