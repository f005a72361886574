/**
 * `npm run dev`: the same server as `npm start` (API, database, demo seed, one port), with the app
 * served by Vite in middleware mode: hot reload in the browser, pages rendered on the server from the
 * sources. Server modules are loaded through `vite.ssrLoadModule`, so Lingui macros and `.po`
 * imports compile the same way as in the build. Changes to server code (src/server) need a restart;
 * changes to the app are picked up on the next request or by hot reload.
 */
import { createServer as createHttpServer } from 'node:http';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { getRequestListener } from '@hono/node-server';
import { createServer as createViteServer } from 'vite';

type StartModule = typeof import('./start');
type ConfigModule = typeof import('./config');
type LoggerModule = typeof import('./logger');
type RenderModule = typeof import('./render');
type SeedModule = typeof import('./db/seed/index');
type ClockModule = typeof import('../domain/clock');
type SummaryModule = typeof import('./startup-summary');

const root = process.cwd();
const ENTRY_SERVER = '/src/app/entry-server.tsx';
const STYLES = '/src/app/styles.css';

async function main() {
  const httpServer = createHttpServer();
  const vite = await createViteServer({
    root,
    appType: 'custom',
    server: { middlewareMode: true, hmr: { server: httpServer } },
  });
  const load = <T>(id: string) => vite.ssrLoadModule(id) as Promise<T>;

  const [
    { startServerApp },
    { loadConfig, environmentWith },
    { createLogger },
    render,
    { demoAccounts },
    { systemClock },
    { adapterSummary },
  ] = await Promise.all([
    load<StartModule>('/src/server/start.ts'),
    load<ConfigModule>('/src/server/config.ts'),
    load<LoggerModule>('/src/server/logger.ts'),
    load<RenderModule>('/src/server/render.ts'),
    load<SeedModule>('/src/server/db/seed/index.ts'),
    load<ClockModule>('/src/domain/clock.ts'),
    load<SummaryModule>('/src/server/startup-summary.ts'),
  ]);

  const config = loadConfig(environmentWith(process.argv.slice(2)));
  const log = createLogger({ silent: process.env.LOG === '0' });
  const indexHtml = path.join(root, 'index.html');

  const { app, database, seeded, close } = await startServerApp(config, systemClock, log, (inner) => ({
    // Each page: the current sources of the app and of index.html, through Vite, then the same
    // renderer as production (CSS inline, module scripts after the first paint, CSP with a nonce).
    render: async (c) => {
      const url = new URL(c.req.url);
      let html = await vite.transformIndexHtml(url.pathname + url.search, readFileSync(indexHtml, 'utf8'));
      // Vite's inline module scripts (the React refresh preamble) need the page's nonce under the CSP.
      html = html.replace(/<script type="module">/g, '<script type="module" nonce="__NONCE__">');
      // The styles as CSS, inlined like the build's, so the server-rendered page is styled before any JS.
      const css = ((await vite.ssrLoadModule(`${STYLES}?inline`)) as { default: string }).default;
      html = html.replace('</head>', () => `<link rel="stylesheet" href="${STYLES}"></head>`);
      const template = render.prepareTemplate(html, () => css);
      const ssr = (await vite.ssrLoadModule(ENTRY_SERVER)) as import('./render').SsrModule;
      try {
        return await render.createPageRenderer({ template, ssr, apiFetch: (r, env) => inner.fetch(r, env) })(c);
      } catch (err) {
        if (err instanceof Error) vite.ssrFixStacktrace(err);
        throw err;
      }
    },
  }));

  const honoListener = getRequestListener(app.fetch);
  httpServer.on('request', (req, res) => {
    vite.middlewares(req, res, () => {
      void honoListener(req, res);
    });
  });

  const host = process.env.HOST ?? '0.0.0.0';
  await new Promise<void>((resolve, reject) => {
    httpServer.once('error', reject);
    httpServer.listen(config.port, host, () => resolve());
  });

  const url = `http://localhost:${config.port}`;
  const lines = [
    `Yoga club app (dev, hot reload) on ${url}${seeded ? ' (demo chain seeded)' : ''}`,
    ...adapterSummary(config, database.kind),
  ];
  if (config.demo) {
    lines.push('Demo accounts (phone / password):');
    for (const a of demoAccounts) lines.push(`  ${a.role.padEnd(8)} ${a.phone} / ${a.password}  ${a.note}`);
  }
  process.stdout.write(lines.join('\n') + '\n');

  const stop = async () => {
    httpServer.close();
    await vite.close();
    await close();
    process.exit(0);
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch((err) => {
  process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
