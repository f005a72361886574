import { rmSync } from 'node:fs';
import { chromium, type BrowserServer } from 'playwright-core';
import type { TestProject } from 'vitest/node';
import { CHROMIUM, CHROMIUM_ARGS, assertChromium } from './chromium';
import { ensureBuilt, makeDataTemplate, startServer, type RunningServer } from './server';

declare module 'vitest' {
  export interface ProvidedContext {
    /** per worker (VITEST_POOL_ID - 1): http://127.0.0.1:<port> of the server its test files share */
    baseUrls: string[];
    /** per worker: the WebSocket endpoint of the Chromium its test files open pages in */
    browserEndpoints: string[];
    /** a migrated and seeded PGlite data dir: files that start a server of their own start on a copy */
    dataTemplate: string;
  }
}

/**
 * Builds the app if needed, migrates and seeds one data dir through the real server, then starts
 * one server (on its own copy of that data) and one Chromium per worker. A worker's test files run
 * one after another on its server and browser; each test opens fresh browser contexts.
 */
export default async function setup(project: TestProject) {
  ensureBuilt();
  assertChromium();
  const workers = Math.max(1, project.config.maxWorkers);
  const dataTemplate = await makeDataTemplate();
  const servers: RunningServer[] = [];
  const browsers: BrowserServer[] = [];
  const stopAll = async () => {
    await Promise.all([...servers.map((s) => s.stop()), ...browsers.map((b) => b.close())]);
    rmSync(dataTemplate, { recursive: true, force: true });
  };
  try {
    for (let i = 0; i < workers; i++) {
      const [server, browser] = await Promise.all([
        startServer({ dataTemplate }),
        chromium.launchServer({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS }),
      ]);
      servers.push(server);
      browsers.push(browser);
    }
  } catch (err) {
    await stopAll();
    throw err;
  }
  project.provide('baseUrls', servers.map((s) => s.url));
  project.provide('browserEndpoints', browsers.map((b) => b.wsEndpoint()));
  project.provide('dataTemplate', dataTemplate);
  return stopAll;
}
