// ESLint flat config: TypeScript rules, one-way imports between layers (DESIGN.md §2), no import
// cycles, kebab-case names. test/unit/lint-rules.test.ts runs this same config on the deliberately
// wrong tree in test/lint-fixtures and expects every rule below to fire there.
import path from 'node:path';
import { defineConfig } from 'eslint/config';
import { builtinRules } from 'eslint/use-at-your-own-risk';
import { configs as tseslintConfigs } from 'typescript-eslint';
import { importX } from 'eslint-plugin-import-x';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';

/**
 * ESLint's own recommended rules (what `@eslint/js` would list; that package is not installed).
 * typescript-eslint's preset then turns off the ones TypeScript already checks.
 */
const coreRecommended = Object.fromEntries(
  [...builtinRules].filter(([, rule]) => rule.meta?.docs?.recommended).map(([name]) => [name, 'error']),
);

const KEBAB = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
/** a file name: a kebab stem, then lower-case dotted parts (`booking-book.machine.ts`, `po.d.ts`) */
const KEBAB_FILE = /^[a-z0-9]+(?:-[a-z0-9]+)*(?:\.[a-z0-9]+(?:-[a-z0-9]+)*)+$/;

/** Reports a file whose name, or any folder between `root` and it, is not kebab-case. */
function kebabCasePlugin(root) {
  return {
    rules: {
      'kebab-case-files': {
        meta: {
          type: 'suggestion',
          docs: { description: 'file and folder names are kebab-case (DESIGN.md §2)' },
          schema: [],
          messages: { name: '"{{name}}" is not kebab-case (e.g. booking-book.machine.ts, entry-server.tsx).' },
        },
        create(context) {
          const rel = path.relative(root, context.physicalFilename);
          if (rel.startsWith('..') || path.isAbsolute(rel)) return {};
          const parts = rel.split(path.sep);
          const file = parts.pop() ?? '';
          const bad = parts.map((d) => d.replace(/^\./, '')).filter((d) => !KEBAB.test(d));
          if (!KEBAB_FILE.test(file)) bad.push(file);
          return {
            Program(node) {
              for (const name of bad) context.report({ node, messageId: 'name', data: { name } });
            },
          };
        },
      },
    },
  };
}

/**
 * The layer zones of DESIGN.md §2, relative to `root`. Type-only imports count like value imports
 * here (import-x cannot tell them apart), so machines' type imports from src/api are allowed by an
 * `except` and their value imports are refused by `@typescript-eslint/no-restricted-imports` below.
 */
function layerZones() {
  return [
    // domain holds the pure rules both sides share: it must import nothing of ours.
    {
      target: './src/domain',
      from: ['./src/app', './src/server', './src/api', './machines'],
      message: 'src/domain imports nothing of ours.',
    },
    // machines are pure charts: only other machines, src/domain, and types from src/api (their actors are provided, never imported).
    {
      target: './machines',
      from: './src',
      except: ['./domain', './api'],
      message: 'machines import only machines, src/domain and types from src/api.',
    },
    // the lifecycle charts are shared with the server, so they must not pull in the app's flow charts.
    {
      target: './machines/domain',
      from: './machines',
      except: ['./domain'],
      message: 'machines/domain imports only machines/domain and src/domain.',
    },
    // the app reaches the server only over HTTP through src/api; shared types live in src/domain.
    {
      target: './src/app',
      from: './src/server',
      message: 'src/app never imports src/server: share types through src/contracts or src/domain.',
    },
    // the server never depends on the browser side: not the app, not its API client.
    { target: './src/server', from: ['./src/app', './src/api'], message: 'src/server never imports src/app or src/api.' },
    // the server may run the shared lifecycle charts, never the app's flow machines.
    { target: './src/server', from: './machines', except: ['./domain'], message: 'src/server imports only machines/domain.' },
    // the API client is below the app and the machines, and talks to the server only over HTTP.
    {
      target: './src/api',
      from: ['./src/app', './src/server', './machines'],
      message: 'src/api never imports src/app, src/server or machines.',
    },
    // the request and response schemas both sides share (decision 019): they build on src/domain only.
    {
      target: './src/contracts',
      from: ['./src/app', './src/server', './src/api', './machines'],
      message: 'src/contracts imports only src/domain (and zod).',
    },
  ];
}

/** The whole configuration, rooted at `root` (the repository, or the lint fixture tree in its test). */
export function projectConfig(root) {
  return defineConfig(
    {
      // build output, data, compiled catalogs; the fixtures are wrong on purpose and linted only by their test
      ignores: [
        'dist/**',
        'node_modules/**',
        'data/**',
        'coverage/**',
        '.test-data/**',
        '.bench/**',
        '.stryker-tmp/**', // Stryker's sandbox copies (stryker.config.mjs)
        'reports/**',
        'docs/**',
        'locales/**',
        'src/locales-compiled/**',
        'test/lint-fixtures/**',
        '.scratch/**', // local, untracked experiments
      ],
    },
    {
      files: ['**/*.{ts,tsx,mts,js,mjs}'],
      extends: [{ rules: coreRecommended }, tseslintConfigs.recommended, importX.flatConfigs.recommended, importX.flatConfigs.typescript],
      plugins: { local: kebabCasePlugin(root) },
      languageOptions: { ecmaVersion: 2023, sourceType: 'module' },
      settings: {
        // without the resolver-next setting import-x/no-cycle silently reports nothing (STACK-NOTES.md)
        'import-x/resolver-next': [createTypeScriptImportResolver({ project: path.join(root, 'tsconfig.json') })],
      },
      rules: {
        'local/kebab-case-files': 'error',
        'import-x/no-restricted-paths': ['error', { basePath: root, zones: layerZones() }],
        // TypeScript already checks what these check, and they parse every dependency (70% of lint time)
        'import-x/namespace': 'off',
        'import-x/default': 'off',
        'import-x/no-named-as-default': 'off',
        'import-x/no-named-as-default-member': 'off',
        // Vite query imports (`?url`, `?inline`) and virtual modules resolve only inside Vite
        'import-x/no-unresolved': ['error', { ignore: ['\\?', '^virtual:'] }],
        '@typescript-eslint/no-unused-vars': [
          'error',
          {
            argsIgnorePattern: '^_',
            varsIgnorePattern: '^_',
            caughtErrorsIgnorePattern: '^_',
            destructuredArrayIgnorePattern: '^_',
            ignoreRestSiblings: true,
          },
        ],
        '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports', disallowTypeAnnotations: false }],
        '@typescript-eslint/no-explicit-any': 'warn',
        // TypeScript checks names in .ts files; the few .js/.mjs tooling files run on Node
        'no-undef': 'off',
        'no-var': 'error',
        'prefer-const': 'error',
        'no-debugger': 'error',
        eqeqeq: ['error', 'smart'],
      },
    },
    {
      // no import cycles in the product. Not run on tests, scripts and the bench: nothing of the product
      // imports them, so a cycle through them cannot exist, and walking the whole import graph from
      // each of the 250 test files was three quarters of lint's time (decision 015, third pass)
      files: ['src/**/*.{ts,tsx}', 'machines/**/*.ts'],
      rules: { 'import-x/no-cycle': ['error', { ignoreExternal: true }] },
    },
    {
      // machines may use src/api's types for their actors' input and output, never its values
      files: ['machines/**/*.ts'],
      rules: {
        '@typescript-eslint/no-restricted-imports': [
          'error',
          {
            patterns: [
              {
                group: ['**/src/api', '**/src/api/**'],
                allowTypeImports: true,
                message: 'machines invoke API calls as provided actors: import only types from src/api.',
              },
            ],
          },
        ],
      },
    },
    {
      // the browser side takes only the types of the shared contracts: their zod values stay on the server
      files: ['src/app/**/*.{ts,tsx}', 'src/api/**/*.ts'],
      rules: {
        '@typescript-eslint/no-restricted-imports': [
          'error',
          {
            patterns: [
              {
                group: ['**/contracts', '**/contracts/**'],
                allowTypeImports: true,
                message: 'the app imports only types from src/contracts (z.infer), so zod stays out of the client bundle.',
              },
            ],
            paths: [
              {
                name: 'konsta/react',
                importNames: ['ListInput'],
                message: "use LabelledInput (src/app/ui/labelled-input.tsx): Konsta's label names no input.",
              },
            ],
          },
        ],
      },
    },
    {
      // tests read JSON answers loosely; `any` there is a choice, not an accident
      files: ['test/**/*.{ts,tsx}'],
      rules: { '@typescript-eslint/no-explicit-any': 'off' },
    },
    {
      // plain JavaScript tooling files run on Node
      files: ['**/*.{js,mjs}'],
      rules: { '@typescript-eslint/no-require-imports': 'off' },
    },
  );
}

export default projectConfig(import.meta.dirname);
