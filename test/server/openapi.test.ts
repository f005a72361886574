import { describe, expect, it } from 'vitest';
import { UNDOCUMENTED_API_PATHS } from '../../src/server/routes/docs';
import { startTestServer } from './support/harness';

/** Hono's ":name" path parameters as OpenAPI's "{name}". */
const toOpenApiPath = (path: string) => path.replace(/:(\w+)(\{[^}]*\})?/g, '{$1}');

describe('the OpenAPI document (GET /api/openapi.json)', async () => {
  const s = await startTestServer({ config: { demo: true } });
  const doc = (await (await s.app.request('/api/openapi.json')).json()) as {
    openapi: string;
    paths: Record<string, Record<string, { responses?: Record<string, unknown> }>>;
  };

  it('is OpenAPI 3.1 with paths', () => {
    expect(doc.openapi).toBe('3.1.0');
    expect(Object.keys(doc.paths).length).toBeGreaterThan(10);
  });

  it('documents every /api route registered on the app', () => {
    const missing: string[] = [];
    for (const r of s.app.routes) {
      if (!r.path.startsWith('/api/')) continue;
      if ((UNDOCUMENTED_API_PATHS as readonly string[]).includes(r.path)) continue;
      // middleware (app.use) and the /api/* not-found catch-all register as ALL on a wildcard
      if (r.method === 'ALL' && r.path.endsWith('*')) continue;
      const methods = r.method === 'ALL' ? ['all'] : [r.method.toLowerCase()];
      for (const m of methods) if (!doc.paths[toOpenApiPath(r.path)]?.[m]) missing.push(`${r.method} ${r.path}`);
    }
    expect([...new Set(missing)]).toEqual([]);
  });

  it('documents nothing the app does not serve', () => {
    const served = new Set(s.app.routes.map((r) => `${r.method.toLowerCase()} ${toOpenApiPath(r.path)}`));
    const stale = Object.entries(doc.paths).flatMap(([p, ops]) =>
      Object.keys(ops)
        .filter((m) => !served.has(`${m} ${p}`))
        .map((m) => `${m} ${p}`),
    );
    expect(stale).toEqual([]);
  });

  it('gives every operation a success (2xx) or redirect (3xx) answer', () => {
    for (const [p, ops] of Object.entries(doc.paths)) {
      for (const [m, op] of Object.entries(ops))
        expect(
          Object.keys(op.responses ?? {}).some((code) => /^[23]/.test(code)),
          `${m} ${p}`,
        ).toBe(true);
    }
  });

  it('lists the catalogue endpoints with their spec paths', () => {
    for (const p of [
      '/api/school/clubs',
      '/api/school/clubs/detail',
      '/api/school/clubs/distance',
      '/api/school/teachers',
      '/api/school/teachers/detail',
      '/api/index/home/banner',
      '/api/sys/notification',
      '/api/activity/goods',
      '/api/index/home/search',
      '/api/product/goods/goodList',
      '/api/product/goods/detail',
      '/api/index/home/dict/select',
      '/api/survey',
      '/api/stats/pageview',
    ]) {
      expect(doc.paths[p], p).toBeDefined();
    }
    expect(Object.keys(doc.paths['/api/survey']!).sort()).toEqual(['get', 'post']);
  });
});

describe('the API docs page (/api/docs)', () => {
  it('is served offline in demo mode: the page and Swagger UI files come from this server', async () => {
    const s = await startTestServer({ config: { demo: true } });
    const page = await s.app.request('/api/docs');
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('/api/docs/swagger-ui-bundle.js');
    expect(html).toContain('/api/openapi.json');
    expect(html).not.toMatch(/https?:\/\//);
    for (const [file, type] of [
      ['swagger-ui-bundle.js', 'javascript'],
      ['swagger-ui.css', 'text/css'],
      ['init.js', 'javascript'],
      ['favicon-32x32.png', 'image/png'],
    ]) {
      const res = await s.app.request(`/api/docs/${file}`);
      expect(res.status, file).toBe(200);
      expect(res.headers.get('content-type'), file).toContain(type);
      expect((await res.arrayBuffer()).byteLength, file).toBeGreaterThan(100);
    }
    const init = await (await s.app.request('/api/docs/init.js')).text();
    expect(init).toContain('validatorUrl: null');
    expect((await s.app.request('/api/docs/package.json')).status).toBe(404);
    expect((await s.app.request('/api/docs/..%2Fpackage.json')).status).toBe(404);
  });

  it('is off in production unless API_DOCS turns it on (the document itself stays)', async () => {
    const s = await startTestServer({ config: { demo: false, apiDocs: false } });
    for (const path of ['/api/docs', '/api/docs/', '/api/docs/swagger-ui-bundle.js', '/api/docs/init.js']) {
      const r = await s.call('GET', path);
      expect(r.status, path).toBe(404);
      expect(r.body).toMatchObject({ code: 70004, status: false });
    }
    expect((await s.app.request('/api/openapi.json')).status).toBe(200);
    expect(s.app.routes.some((r) => r.path.startsWith('/api/docs'))).toBe(false);
  });
});
