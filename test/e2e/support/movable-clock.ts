import { startOwnServer } from './browser';
import { buildServerEntry, type RunningServer } from './server';

/** A server of the test file's own whose injected clock the test moves (support/movable-clock-server.ts). */
export interface MovableClockServer extends RunningServer {
  /** moves the server's clock forward; answers its new time */
  advance(ms: number): Promise<Date>;
  /** runs the jobs due by the server's clock now (as its job runner would on its next poll); answers how many ran */
  runJobs(): Promise<number>;
}

/**
 * Builds the movable-clock entry (about 7 s) and starts it on a copy of the run's seeded data, for a
 * browser test that lets time pass (an invitation's hour, a pay window) without waiting for it.
 */
export async function startMovableClockServer(): Promise<MovableClockServer> {
  const build = buildServerEntry('test/e2e/support/movable-clock-server.ts');
  let server: RunningServer;
  try {
    server = await startOwnServer({ nodeArgs: build.nodeArgs });
  } catch (err) {
    build.remove();
    throw err;
  }
  const post = async <T>(path: string, body: unknown): Promise<T> => {
    const res = await fetch(`${server.url}/__test/${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`POST /__test/${path}: HTTP ${res.status} ${await res.text()}`);
    return (await res.json()) as T;
  };
  return {
    ...server,
    advance: async (ms) => new Date((await post<{ now: string }>('clock', { advanceMs: ms })).now),
    runJobs: async () => (await post<{ ran: number }>('jobs', {})).ran,
    stop: async (opts) => {
      await server.stop(opts);
      build.remove();
    },
  };
}
