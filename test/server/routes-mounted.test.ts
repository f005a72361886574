import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { apiMounts } from '../../src/server/routes/index';
import { startTestServer } from './support/harness';

/**
 * One router per resource, each mounted at its own prefix under /api with paths relative to it
 * (src/server/routes/index.ts). A route belongs in the router whose prefix is the longest prefix of its
 * path, so a new /api/staff/complaints/... route lands in the staff complaints router, not in whichever
 * file was open; and every router a route file exports is mounted, so none is forgotten.
 */
const s = await startTestServer({ config: { demo: true, apiDocs: true } });
const mounts = apiMounts(s.deps, s.app);

/** A router's relative path joined to its prefix, as Hono's app.route joins them. */
const join = (prefix: string, path: string) => (path === '/' ? prefix || '/' : `${prefix}${path}`);
/** The prefix that owns a path: the longest one it equals or lies under, segment by segment. */
const ownerOf = (path: string) =>
  mounts
    .map(([prefix]) => prefix)
    .filter((p) => p === '' || path === p || path.startsWith(`${p}/`))
    .sort((a, b) => b.length - a.length)[0];
/** Middleware (app.use) registers as ALL on a wildcard; those are not routes. */
const routesOf = (router: Hono<any, any, any>) => router.routes.filter((r) => !(r.method === 'ALL' && r.path.endsWith('*')));

describe('the API routers (routes/index.ts apiMounts)', () => {
  it('each has a prefix of its own, written /a/b (no trailing slash)', () => {
    const prefixes = mounts.map(([p]) => p);
    expect(prefixes.filter((p, i) => prefixes.indexOf(p) !== i)).toEqual([]);
    for (const p of prefixes) expect(p === '' || /^(\/[^/]+)+$/.test(p), p).toBe(true);
  });

  it("keeps each route in the router with the longest prefix of the route's path", () => {
    const misplaced: string[] = [];
    for (const [prefix, router] of mounts)
      for (const r of routesOf(router)) {
        const path = join(prefix, r.path);
        const owner = ownerOf(path);
        if (owner !== prefix) misplaced.push(`${r.method} /api${path} is in the router at '${prefix}', belongs at '${owner}'`);
      }
    expect([...new Set(misplaced)]).toEqual([]);
  });

  it('are the whole API: every /api route the app serves comes from one of them, at its prefix', () => {
    const mounted = new Set(mounts.flatMap(([prefix, router]) => routesOf(router).map((r) => `${r.method} /api${join(prefix, r.path)}`)));
    const served = s.app.routes
      .filter((r) => r.path.startsWith('/api/') && !(r.method === 'ALL' && r.path.endsWith('*')))
      .map((r) => `${r.method} ${r.path}`)
      .filter((r) => r !== 'GET /api/openapi.json');
    expect([...new Set(served)].filter((r) => !mounted.has(r))).toEqual([]);
    expect([...mounted].filter((r) => !served.includes(r))).toEqual([]);
  });

  it('mounts every router a route file exports', () => {
    const modules = import.meta.glob<Record<string, unknown>>('../../src/server/routes/*.ts', { eager: true });
    const routers = new Set(mounts.map(([, router]) => router));
    const unmounted = Object.entries(modules).flatMap(([file, exports]) =>
      Object.entries(exports)
        .filter(([, value]) => value instanceof Hono && !routers.has(value))
        .map(([name]) => `${file.replace(/^.*\//, '')}: ${name}`),
    );
    expect(unmounted).toEqual([]);
  });

  it('serves the dev and stand-in routers in demo mode only', () => {
    const dev = (m: typeof mounts) => m.map(([p]) => p).filter((p) => p === '/dev' || p.startsWith('/dev/'));
    expect(dev(mounts).sort()).toEqual(['/dev', '/dev/pay', '/dev/wechat']);
    expect(dev(apiMounts({ ...s.deps, config: { ...s.deps.config, demo: false } }, s.app))).toEqual([]);
  });
});
