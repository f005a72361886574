// The built server as `npm run serve` starts it (src/server/main.ts: the app's pages, the API, the job
// runner, demo mode), but on an injected clock the browser tests move: the system's time plus an
// offset. Two calls of its own, outside /api, drive it (support/movable-clock.ts builds and calls it):
//   POST /__test/clock {advanceMs}  the clock moves forward (everything after reads the new time)
//   POST /__test/jobs               the due jobs run now, until none is due (the runner would, in 5 s)
import { keepConnectionsAlive } from '../../../src/server/http/keep-alive';
import { serve } from '@hono/node-server';
import type { Clock } from '../../../src/domain/clock';
import { loadConfig } from '../../../src/server/config';
import { runDueJobs } from '../../../src/server/jobs/runner';
import { createLogger } from '../../../src/server/logger';
import { createPageRenderer, loadBuiltApp } from '../../../src/server/render';
import { startServerApp } from '../../../src/server/start';

let offsetMs = 0;
const clock: Clock = { now: () => new Date(Date.now() + offsetMs) };

async function main() {
  const config = loadConfig();
  const log = createLogger({ silent: process.env.LOG === '0' });
  const built = await loadBuiltApp(process.cwd());
  const { app, deps, close } = await startServerApp(config, clock, log, (inner) => ({
    staticRoot: './dist/client',
    render: createPageRenderer({ ...built, apiFetch: (r, env) => inner.fetch(r, env) }),
  }));

  const control = async (req: Request, path: string): Promise<Response> => {
    if (req.method !== 'POST') return new Response(null, { status: 405 });
    if (path === '/__test/clock') {
      const { advanceMs } = (await req.json()) as { advanceMs: number };
      if (!Number.isFinite(advanceMs) || advanceMs < 0) return Response.json({ error: 'advanceMs: a number of ms, not negative' }, { status: 400 });
      offsetMs += advanceMs;
      return Response.json({ now: clock.now().toISOString() });
    }
    if (path === '/__test/jobs') {
      let ran = 0;
      for (let n = await runDueJobs(deps), rounds = 0; n > 0 && rounds < 100; n = await runDueJobs(deps), rounds++) ran += n;
      return Response.json({ ran });
    }
    return new Response(null, { status: 404 });
  };

  const server = serve({
    fetch: (req, env) => {
      const path = new URL(req.url).pathname;
      return path.startsWith('/__test/') ? control(req, path) : app.fetch(req, env);
    },
    port: config.port,
    hostname: process.env.HOST ?? '127.0.0.1',
  });
  keepConnectionsAlive(server);
  const stop = async () => {
    server.close();
    await close();
    process.exit(0);
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch((err) => {
  process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
