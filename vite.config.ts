import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';
import babel, { defineRolldownBabelPreset } from '@rolldown/plugin-babel';
import { lingui } from '@lingui/vite-plugin';
import tailwindcss from '@tailwindcss/vite';

/**
 * Lingui's macros compiled by Babel, which sees only the modules that import one: a preset with a
 * code filter lets rolldown skip the rest (Babel on every module was 85% of each build's time).
 * The browser tests' config uses it too (they read the route table).
 */
export function linguiMacros() {
  return babel({
    presets: [
      defineRolldownBabelPreset({
        preset: { plugins: ['@lingui/babel-plugin-lingui-macro'] },
        rolldown: { filter: { code: /@lingui\/(?:core|react)\/macro/ } },
      }),
    ],
  });
}

export default defineConfig({
  plugins: [react(), linguiMacros(), lingui(), tailwindcss()],
  build: {
    manifest: true,
    target: 'es2020',
    sourcemap: false,
    rollupOptions: {
      // Konsta ships no "sideEffects" flag and sets displayName on every component, so importing one
      // component from its barrel kept all of them (~20 kB gzip in the first load). Its modules are pure.
      treeshake: { moduleSideEffects: (id: string) => !/[\\/]node_modules[\\/]konsta[\\/]/.test(id) },
    },
  },
  ssr: {
    // keep node_modules external on the server build
  },
  test: {
    include: ['test/**/*.test.{ts,tsx}'],
    exclude: ['test/e2e/**', 'node_modules/**'],
    setupFiles: ['test/setup.ts'],
    globalSetup: ['test/global-setup.ts'],
    testTimeout: 20000,
    hookTimeout: 60000,
    pool: 'forks',
    // decision 015: a worker's test files share its loaded modules (the server, PGlite, React) instead
    // of importing them again per file; no file keeps state in a module that another file reads.
    isolate: false,
    // vitest leaves a core free by default; on 2 cores that is one worker
    maxWorkers: availableParallelism(),
    // the transformed modules kept on disk (node_modules/.experimental-vitest-cache, this vitest's default):
    // npm test's vitest steps transform the same app and server once between them, not once each
    experimental: { fsModuleCache: true },
  },
});
