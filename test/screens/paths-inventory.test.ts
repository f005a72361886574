import { existsSync, readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

/**
 * Every chart has path tests that check the system under test (decision 016): each app
 * machine in machines/ a screen path test (test/screens/<name>.paths.test.tsx, defineScreenPaths),
 * each domain lifecycle chart in machines/domain a server path test
 * (test/server/lifecycles/<name>.paths.test.ts). A state without a check fails inside each file.
 *
 * PENDING lists the charts still tested the old way (test/machines/<name>.machine.test.ts, the
 * machine against itself): the list only shrinks, and a chart that has its path test must leave it.
 */
// every chart has its path tests now (the payment-part, refund and friend-invitation charts included)
const PENDING = new Set<string>([]);

const names = (dir: string) =>
  readdirSync(dir)
    .filter((f) => f.endsWith('.machine.ts'))
    .map((f) => f.replace(/\.machine\.ts$/, ''));

const charts = [...names('machines'), ...names('machines/domain').map((n) => `domain/${n}`)];
const pathTest = (chart: string) =>
  chart.startsWith('domain/')
    ? `test/server/lifecycles/${chart.slice('domain/'.length)}.paths.test.ts`
    : `test/screens/${chart}.paths.test.tsx`;

describe('every chart has path tests against the system under test', () => {
  it.each(charts)('%s', (chart) => {
    if (PENDING.has(chart)) {
      expect(existsSync(pathTest(chart)), `${pathTest(chart)} exists: take ${chart} off PENDING`).toBe(false);
    } else {
      expect(existsSync(pathTest(chart)), `${chart} has no path test (${pathTest(chart)})`).toBe(true);
    }
  });

  it('PENDING names only charts that exist', () => {
    expect([...PENDING].filter((c) => !charts.includes(c))).toEqual([]);
  });
});
