import { createHash } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import type { Context } from 'hono';
import { Errors } from '../../domain/errors';
import type { AppEnv } from '../env';
import { catalogFor, LOCALES, type Locale } from '../i18n';
import { ApiError } from './api-error';
import { acceptsGzip, FOREVER_CACHE_CONTROL } from './catalog-cache';

/**
 * A language's compiled catalog as a file named by its content (`/i18n/zh.<hash>.json`): the app
 * fetches it to hydrate (src/app/entry-client.tsx), a phone keeps it for good, and a page's HTML no
 * longer inlines it (32 kB of zh the first screen does not show, sent again with every page before).
 * The server's catalogs are the one source; a new build's catalog gets a new name.
 */
export interface MessagesFile {
  path: string;
  body: Buffer;
  gzip: Buffer;
}

const files = new Map<Locale, MessagesFile>();

export function messagesFile(locale: Locale): MessagesFile {
  let file = files.get(locale);
  if (!file) {
    const body = Buffer.from(JSON.stringify(catalogFor(locale)));
    const hash = createHash('sha256').update(body).digest('base64url').slice(0, 12);
    file = { path: `/i18n/${locale}.${hash}.json`, body, gzip: gzipSync(body) };
    files.set(locale, file);
  }
  return file;
}

/** GET /i18n/:name: the catalog under its current name; any other name is not found. */
export function serveMessages(c: Context<AppEnv>): Response {
  const file = LOCALES.map(messagesFile).find((f) => f.path === c.req.path);
  if (!file) throw new ApiError(Errors.notFound);
  const headers: Record<string, string> = {
    'Content-Type': 'application/json; charset=utf-8',
    'Cache-Control': FOREVER_CACHE_CONTROL,
    Vary: 'Accept-Encoding',
  };
  const gzip = acceptsGzip(c.req.header('accept-encoding'));
  const body = gzip ? file.gzip : file.body;
  if (gzip) headers['Content-Encoding'] = 'gzip';
  // with its length and encoding set, hono/compress leaves it alone
  headers['Content-Length'] = String(body.length);
  return c.body(body as Uint8Array<ArrayBuffer>, 200, headers);
}
