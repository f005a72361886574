import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Hono, type Context } from 'hono';
import { Errors } from '../../domain/errors';
import { ApiError } from '../http/api-error';
import type { AppEnv } from '../env';

/**
 * The browsable API page (demo mode only), fully offline: Swagger UI's files are served from
 * node_modules/swagger-ui-dist, never from a CDN. These paths, and the document itself, are the
 * only /api routes the OpenAPI document leaves out (test/server/openapi.test.ts reads this list).
 */
export const UNDOCUMENTED_API_PATHS = ['/api/openapi.json', '/api/docs', '/api/docs/', '/api/docs/:file'] as const;

const FILES: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'favicon-32x32.png': 'image/png',
};

const INIT_JS = `window.addEventListener('load', function () {
  window.ui = SwaggerUIBundle({
    url: document.documentElement.dataset.spec,
    dom_id: '#swagger-ui',
    deepLinking: true,
    validatorUrl: null,
    presets: [SwaggerUIBundle.presets.apis],
    layout: 'BaseLayout',
  });
});
`;

function page(base: string): string {
  return `<!doctype html>
<html lang="en" data-spec="${base}/openapi.json">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Yoga club member API</title>
<link rel="icon" type="image/png" href="${base}/docs/favicon-32x32.png">
<link rel="stylesheet" href="${base}/docs/swagger-ui.css">
</head>
<body>
<div id="swagger-ui"></div>
<script src="${base}/docs/swagger-ui-bundle.js"></script>
<script src="${base}/docs/init.js"></script>
</body>
</html>
`;
}

let distDir: string | undefined;
const cache = new Map<string, ArrayBuffer>();

async function distFile(name: string): Promise<ArrayBuffer> {
  const hit = cache.get(name);
  if (hit) return hit;
  distDir ??= dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
  const buf = await readFile(join(distDir, name));
  const bytes = buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.byteLength) as ArrayBuffer;
  cache.set(name, bytes);
  return bytes;
}

/**
 * Mounted at /api itself (not at /api/docs) by routes/index.ts, only when config.apiDocs is on (demo mode, or
 * API_DOCS=1): the page answers at both /api/docs and /api/docs/, and a router's '/' joins its prefix without the slash.
 */
export function docsApp(apiBase: string) {
  const app = new Hono<AppEnv>();
  const html = (c: Context<AppEnv>) => {
    c.header('Cache-Control', 'no-cache');
    return c.html(page(apiBase));
  };
  app.get('/docs', html);
  app.get('/docs/', html);
  app.get('/docs/:file', async (c) => {
    const file = c.req.param('file');
    c.header('Cache-Control', 'public, max-age=86400');
    if (file === 'init.js') {
      c.header('Content-Type', 'text/javascript; charset=utf-8');
      return c.body(INIT_JS);
    }
    const type = FILES[file];
    if (!type) throw new ApiError(Errors.notFound);
    c.header('Content-Type', type);
    return c.body(await distFile(file));
  });
  return app;
}
