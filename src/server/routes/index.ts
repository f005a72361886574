import type { OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv, Deps } from '../env';
import { health } from './health';

/**
 * The one list of API areas: each is a sub-app in its own file, mounted under /api.
 * The OpenAPI document is generated from the same route schemas that parse requests.
 */
export function mountApi(app: OpenAPIHono<AppEnv>, deps: Deps) {
  app.route('/api', health);

  app.doc31('/api/openapi.json', {
    openapi: '3.1.0',
    info: { title: 'Yoga club member API', version: '1.0.0' },
    servers: [{ url: '/' }],
  });
  void deps;
}
