import type { TestProject } from 'vitest/node';
import { ensureBuilt, startServer } from './server';

declare module 'vitest' {
  export interface ProvidedContext {
    /** http://127.0.0.1:<port> of the server shared by every browser test file */
    baseUrl: string;
  }
}

/** Builds the app if needed and starts one real server (fresh data dir) for the browser tests. */
export default async function setup(project: TestProject) {
  ensureBuilt();
  const server = await startServer();
  project.provide('baseUrl', server.url);
  return async () => {
    await server.stop();
  };
}
