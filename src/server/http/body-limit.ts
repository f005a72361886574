import { bodyLimit } from 'hono/body-limit';
import type { MiddlewareHandler } from 'hono';
import { Errors } from '../../domain/errors';
import type { AppEnv } from '../env';
import { ApiError } from './api-error';

/**
 * Bodies larger than `maxSize` bytes are refused 413 (70005, or `tooLarge`'s refusal) before a route reads them.
 *
 * A body with a Content-Length is judged by the header alone. hono's `bodyLimit` reads
 * `c.req.raw.body` for every request, which makes @hono/node-server build a whole web `Request`
 * (headers, an AbortController, a body stream) that the route's body read then goes through: the
 * booking race spent a tenth of its CPU there (decision 048). Without the header (chunked, or an
 * HTTP/2 stream without it) hono's `bodyLimit` counts the bytes as they come. A GET or HEAD is let
 * through: no route reads their body, and node drops an unread body without keeping it.
 */
export function limitBody(
  maxSize: number,
  tooLarge: () => never = () => {
    throw new ApiError(Errors.tooLarge);
  },
): MiddlewareHandler<AppEnv> {
  const counting = bodyLimit({ maxSize, onError: tooLarge });
  return async (c, next) => {
    if (c.req.method === 'GET' || c.req.method === 'HEAD') return next();
    const length = c.req.header('content-length');
    if (length !== undefined && c.req.header('transfer-encoding') === undefined) {
      if (!/^\d+$/.test(length) || Number(length) > maxSize) tooLarge();
      return next();
    }
    return counting(c, next);
  };
}
