import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { charts, statesOf } from '../../machines/catalogue';

/**
 * Every state of every chart says, in words, what the member sees and can do there (its
 * `description`, shown on /dev/machines and in the Stately visualizer). NOT_YET lists the charts
 * still to be described (none now): the list only shrinks, and a chart fully described must leave it.
 */
const NOT_YET = new Set<string>([]);

const files = (dir: string) =>
  readdirSync(dir)
    .filter((f) => f.endsWith('.machine.ts'))
    .map((f) => `${dir}/${f}`);

describe('the chart catalogue (machines/catalogue.ts)', () => {
  it('lists every chart in machines/ and machines/domain/, once', () => {
    expect(charts.map((c) => c.file).sort()).toEqual([...files('machines'), ...files('machines/domain')].sort());
  });
});

describe('every state has a description', () => {
  it.each(charts.map((c) => [c.file, c] as const))('%s', (file, { machine }) => {
    const missing = statesOf(machine)
      .filter((s) => !s.description?.trim())
      .map((s) => s.path);
    if (NOT_YET.has(file)) expect(missing.length, `${file} is fully described: take it off NOT_YET`).toBeGreaterThan(0);
    else expect(missing, `states of ${file} without a description`).toEqual([]);
  });

  it('NOT_YET names only charts that exist', () => {
    expect([...NOT_YET].filter((f) => !charts.some((c) => c.file === f))).toEqual([]);
  });
});
