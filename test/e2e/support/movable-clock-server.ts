// The built server as `npm run serve` starts it (src/server/main.ts: the app's pages, the API, the job
// runner, demo mode), but on an injected clock the browser tests move: the system's time plus an
// offset. Two calls of its own, outside /api, drive it (support/movable-clock.ts builds and calls it):
//   POST /__test/clock {advanceMs}  the clock moves forward (everything after reads the new time)
//   POST /__test/jobs               the due jobs run now, until none is due (the runner would, in 5 s)
import type { Clock } from '../../../src/domain/clock';
import { loadConfig } from '../../../src/server/config';
import type { Deps } from '../../../src/server/env';
import { runDueJobs } from '../../../src/server/jobs/runner';
import { serveBuilt } from '../../../src/server/serve-built';

let offsetMs = 0;
const clock: Clock = { now: () => new Date(Date.now() + offsetMs) };

async function main() {
  // the server's deps, once it has started (the control calls come after)
  const started: { deps?: Deps } = {};
  const control = async (req: Request, path: string): Promise<Response> => {
    if (req.method !== 'POST') return new Response(null, { status: 405 });
    if (path === '/__test/clock') {
      const { advanceMs } = (await req.json()) as { advanceMs: number };
      if (!Number.isFinite(advanceMs) || advanceMs < 0)
        return Response.json({ error: 'advanceMs: a number of ms, not negative' }, { status: 400 });
      offsetMs += advanceMs;
      return Response.json({ now: clock.now().toISOString() });
    }
    if (path === '/__test/jobs' && started.deps) {
      const deps = started.deps;
      let ran = 0;
      for (let n = await runDueJobs(deps), rounds = 0; n > 0 && rounds < 100; n = await runDueJobs(deps), rounds++) ran += n;
      return Response.json({ ran });
    }
    return new Response(null, { status: 404 });
  };
  const wrap = (app: (req: Request, env: unknown) => Response | Promise<Response>) => (req: Request, env: unknown) => {
    const path = new URL(req.url).pathname;
    return path.startsWith('/__test/') ? control(req, path) : app(req, env);
  };
  started.deps = (await serveBuilt(loadConfig(), clock, { hostname: process.env.HOST ?? '127.0.0.1', wrap })).deps;
}

main().catch((err) => {
  process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
