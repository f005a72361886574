import type { TestProject } from 'vitest/node';
import { assertChromium } from './chromium';
import { ensureBuilt, makeDataTemplate, removeDataTemplate, startServer, type DataTemplate, type RunningServer } from './server';

declare module 'vitest' {
  export interface ProvidedContext {
    /** per worker (VITEST_POOL_ID - 1): http://127.0.0.1:<port> of the server its test files share */
    baseUrls: string[];
    /** migrated and seeded data (a PGlite dir or a PostgreSQL database): files that start a server of their own start on a copy */
    dataTemplate: DataTemplate;
  }
}

/**
 * Builds the app if needed, migrates and seeds one data dir through the real server, then starts
 * one server per worker on its own copy of that data. A worker's test files run one after another
 * on its server and in its Chromium (support/browser.ts); each test opens fresh browser contexts.
 */
export default async function setup(project: TestProject) {
  ensureBuilt();
  assertChromium();
  const workers = Math.max(1, project.config.maxWorkers);
  const dataTemplate = await makeDataTemplate();
  const servers: RunningServer[] = [];
  const stopAll = async () => {
    await Promise.all(servers.map((s) => s.stop()));
    await removeDataTemplate(dataTemplate);
  };
  try {
    servers.push(...(await Promise.all(Array.from({ length: workers }, () => startServer({ dataTemplate })))));
  } catch (err) {
    await stopAll();
    throw err;
  }
  project.provide(
    'baseUrls',
    servers.map((s) => s.url),
  );
  project.provide('dataTemplate', dataTemplate);
  return stopAll;
}
