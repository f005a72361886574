import { createRoute, z } from '@hono/zod-openapi';
import { createRouter, refusals } from '../http/router';
import { FOREVER_CACHE_CONTROL } from '../http/catalog-cache';
import { MEDIA_KINDS, MEDIA_SLUG_RE, renderMedia } from '../services/catalog-media';

const FILE_RE = new RegExp(`${MEDIA_SLUG_RE.source.slice(0, -1)}\\.svg$`);

/** Generated demo pictures (services/catalog-media.ts): same URL, same bytes, so cached for a year. */
export const media = createRouter().openapi(
  createRoute({
    method: 'get',
    path: '/{kind}/{file}',
    tags: ['media'],
    summary: 'A generated SVG picture (avatars, club covers, banners, activities, goods)',
    request: {
      params: z.object({
        kind: z.enum(MEDIA_KINDS).openapi({ param: { name: 'kind', in: 'path' }, example: 'avatar' }),
        file: z
          .string()
          .regex(FILE_RE)
          .openapi({ param: { name: 'file', in: 'path' }, example: 'lin-mei.svg' }),
      }),
    },
    responses: {
      200: { description: 'SVG image', content: { 'image/svg+xml': { schema: z.string() } } },
      400: refusals[400],
    },
  }),
  (c) => {
    const { kind, file } = c.req.valid('param');
    c.header('Content-Type', 'image/svg+xml; charset=utf-8');
    c.header('Cache-Control', FOREVER_CACHE_CONTROL);
    c.header('X-Content-Type-Options', 'nosniff');
    return c.body(renderMedia(kind, file.slice(0, -'.svg'.length)), 200);
  },
);
