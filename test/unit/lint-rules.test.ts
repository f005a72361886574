import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { ESLint, type Linter } from 'eslint';
import { beforeAll, describe, expect, it } from 'vitest';

/**
 * The lint rules that keep the layers one-way (DESIGN.md §2) must be proven to fire: a config
 * mistake (a wrong base path, a missing resolver) makes them pass silently. This lints the
 * deliberately wrong tree in test/lint-fixtures with the project's own config, rooted there.
 */
const repo = path.resolve(import.meta.dirname, '../..');
const fixtures = path.join(repo, 'test/lint-fixtures');

/** Each fixture file and exactly the rules it must break (none for the allowed ones). */
const expected: Record<string, string[]> = {
  'src/domain/imports-server.ts': ['import-x/no-restricted-paths'],
  'src/domain/cycle-a.ts': ['import-x/no-cycle'],
  'src/domain/cycle-b.ts': ['import-x/no-cycle'],
  'src/domain/BadName.ts': ['local/kebab-case-files'],
  'src/domain/ok-money.ts': [],
  'src/domain/ok-units.ts': [],
  'src/server/imports-app.ts': ['import-x/no-restricted-paths'],
  'src/server/imports-machines.ts': ['import-x/no-restricted-paths'],
  'src/server/secret.ts': [],
  'src/app/imports-server.ts': ['import-x/no-restricted-paths'],
  'src/app/screen.ts': [],
  'src/app/screens/MyArea/list-screen.ts': ['local/kebab-case-files'],
  'src/api/imports-app.ts': ['import-x/no-restricted-paths'],
  'src/api/client.ts': [],
  'src/api/imports-contract-value.ts': ['@typescript-eslint/no-restricted-imports'],
  'src/api/ok-contract-type.ts': [],
  'src/contracts/imports-server.ts': ['import-x/no-restricted-paths'],
  'src/contracts/ok-order.ts': [],
  'machines/imports-app.machine.ts': ['import-x/no-restricted-paths'],
  'machines/imports-api-value.machine.ts': ['@typescript-eslint/no-restricted-imports'],
  'machines/ok-login.machine.ts': [],
  'machines/domain/imports-flow.machine.ts': ['import-x/no-restricted-paths'],
  'machines/domain/ok-card.machine.ts': [],
};

describe('lint rules fire on the deliberately wrong fixture tree', () => {
  let results: Map<string, ESLint.LintResult>;

  beforeAll(async () => {
    const { projectConfig } = (await import(pathToFileURL(path.join(repo, 'eslint.config.js')).href)) as {
      projectConfig: (root: string) => Linter.Config[];
    };
    const eslint = new ESLint({ cwd: fixtures, overrideConfigFile: true, overrideConfig: projectConfig(fixtures), ignore: false });
    const lint = await eslint.lintFiles(['src', 'machines']);
    results = new Map(lint.map((r) => [path.relative(fixtures, r.filePath).split(path.sep).join('/'), r]));
  }, 60_000);

  it('lints every fixture file and no other', () => {
    expect([...results.keys()].sort()).toEqual(Object.keys(expected).sort());
  });

  for (const [file, rules] of Object.entries(expected)) {
    it(rules.length ? `${file} breaks ${rules.join(', ')}` : `${file} is allowed`, () => {
      const messages = results.get(file)?.messages ?? [];
      const fatal = messages.filter((m) => m.fatal);
      expect(fatal, 'parse errors').toEqual([]);
      const fired = [...new Set(messages.filter((m) => m.severity === 2).map((m) => m.ruleId))].sort();
      expect(fired).toEqual([...rules].sort());
    });
  }

  it('the repository lint ignores the fixtures (they are wrong on purpose)', async () => {
    const eslint = new ESLint({ cwd: repo });
    expect(await eslint.isPathIgnored(path.join(fixtures, 'src/domain/imports-server.ts'))).toBe(true);
    expect(await eslint.isPathIgnored(path.join(repo, 'src/domain/money.ts'))).toBe(false);
  });
});
