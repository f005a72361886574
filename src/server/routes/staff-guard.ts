import { createMiddleware } from 'hono/factory';
import { Errors } from '../../domain/errors';
import type { AppEnv, Caller } from '../env';
import { ApiError } from '../http/api-error';

/** After requireAuth: the caller must be front-desk staff (or, where named, a teacher); members get 403. */
export function staffOnly(roles: readonly Caller['role'][] = ['staff']) {
  return createMiddleware<AppEnv>(async (c, next) => {
    if (!c.var.caller || !roles.includes(c.var.caller.role)) throw new ApiError(Errors.forbidden);
    await next();
  });
}
