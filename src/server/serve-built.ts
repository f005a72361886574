import { createSecureServer } from 'node:http2';
import { serve } from '@hono/node-server';
import type { Clock } from '../domain/clock';
import type { Config } from './config';
import { keepConnectionsAlive } from './http/keep-alive';
import { createLogger } from './logger';
import { createPageRenderer, loadBuiltApp } from './render';
import { startServerApp } from './start';

type Fetch = (req: Request, env: unknown) => Response | Promise<Response>;

/**
 * The built app (./dist) and the API on one port, as `npm run serve` runs it: pages rendered by the
 * server, HTTPS when the configuration has a certificate, idle connections kept 65 s, stopped
 * cleanly on SIGINT/SIGTERM. `wrap` may put a fetch of its own in front (the browser tests' movable
 * clock does).
 */
export async function serveBuilt(config: Config, clock: Clock, opts: { hostname: string; wrap?: (app: Fetch) => Fetch }) {
  const log = createLogger({ silent: process.env.LOG === '0' });
  const built = await loadBuiltApp(process.cwd());
  const started = await startServerApp(config, clock, log, (inner) => ({
    staticRoot: './dist/client',
    render: createPageRenderer({ ...built, apiFetch: (r, env) => inner.fetch(r, env) }),
  }));
  const appFetch: Fetch = (req, env) => started.app.fetch(req, env);
  const fetch = opts.wrap ? opts.wrap(appFetch) : appFetch;
  const listen = { fetch, port: config.port, hostname: opts.hostname };
  // with a certificate: HTTPS, HTTP/2 where the browser offers it (one connection for the page and
  // all it loads) and HTTP/1.1 beside it (decision 052)
  const server = config.tls
    ? serve({ ...listen, createServer: createSecureServer, serverOptions: { ...config.tls, allowHTTP1: true } })
    : serve(listen);
  keepConnectionsAlive(server);
  const stop = async () => {
    server.close();
    await started.close();
    process.exit(0);
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  return started;
}
