import { afterAll, describe, it } from 'vitest';
import { assertFullCoverage, modelSuite, type ModelOptions } from './model';

/**
 * One model-based test file per machine: an `it` per shortest path (named by its end state and
 * events), then the transition cover, then the coverage check that fails below 100%. The
 * coverage line is printed once, after the file.
 */
export function defineModelTest(opts: ModelOptions, extra?: (suite: ReturnType<typeof modelSuite>) => void) {
  const suite = modelSuite(opts);
  describe(`machine ${opts.machine.id} (model-based)`, () => {
    for (const p of suite.paths) it(p.name, () => suite.run(p));
    it('walks each transition the shortest paths did not', async () => {
      await suite.coverRemaining();
    });
    extra?.(suite);
    it('covers every state and every transition of the definition', () => {
      assertFullCoverage(suite.report());
    });
    afterAll(() => {
      console.log(suite.report().line);
    });
  });
  return suite;
}
