import { writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Reporter, TestModule } from 'vitest/node';

/** One test file's cost: everything vitest spent on it (environment, import and collect, tests). */
export interface FileTiming {
  file: string;
  seconds: number;
  tests: number;
}

/**
 * A vitest reporter for `npm test`'s slowest-files list: writes each file's whole time (its import,
 * suite callbacks and server start-up included, which the JSON reporter leaves out) to the JSON
 * file named by VITEST_TIMINGS_FILE.
 */
export default class FileTimingsReporter implements Reporter {
  onTestRunEnd(modules: ReadonlyArray<TestModule>) {
    const out = process.env.VITEST_TIMINGS_FILE;
    if (!out) return;
    const rows: FileTiming[] = modules.map((m) => {
      const d = m.diagnostic();
      const ms = d.environmentSetupDuration + d.prepareDuration + d.collectDuration + d.setupDuration + d.duration;
      return { file: path.relative(process.cwd(), m.moduleId), seconds: ms / 1000, tests: [...m.children.allTests()].length };
    });
    writeFileSync(out, JSON.stringify(rows));
  }
}
