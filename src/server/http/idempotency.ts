import { createHash } from 'node:crypto';
import { and, eq, lt } from 'drizzle-orm';
import { createMiddleware } from 'hono/factory';
import { Errors } from '../../domain/errors';
import { idempotencyKeys } from '../db/schema/index';
import type { AppEnv } from '../env';
import { ApiError } from './api-error';
import { clientIp } from './client-ip';

/** How long a first answer is kept and replayed (DESIGN.md §4). */
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;
const KEY_RE = /^[A-Za-z0-9_\-:.]{8,128}$/;

/**
 * Money and capacity POSTs: the first answer to an Idempotency-Key is stored and replayed for a
 * retry; the same key with a different body is refused (70007); a retry while the first request
 * still runs is refused (70010). 5xx answers are not kept, so a retry after a crash runs again.
 * Put it after requireAuth so keys are scoped to the caller.
 */
export const idempotent = createMiddleware<AppEnv>(async (c, next) => {
  const key = c.req.header('idempotency-key');
  if (key === undefined) return next();
  if (!KEY_RE.test(key)) throw new ApiError(Errors.invalidField, { field: 'Idempotency-Key', values: { field: 'Idempotency-Key' } });

  const { db, clock } = c.var.deps;
  const caller = c.get('caller');
  const scope = caller ? `a:${caller.accountId}` : `v:${clientIp(c)}`;
  const body = await c.req.text();
  const bodyHash = createHash('sha256').update(`${c.req.method} ${c.req.path}\n${body}`).digest('hex');
  const now = clock.now();

  // an expired key is as good as new
  await db
    .delete(idempotencyKeys)
    .where(and(eq(idempotencyKeys.scope, scope), eq(idempotencyKeys.key, key), lt(idempotencyKeys.createdAt, new Date(now.getTime() - IDEMPOTENCY_TTL_MS))));

  const inserted = await db
    .insert(idempotencyKeys)
    .values({ scope, key, method: c.req.method, path: c.req.path, bodyHash, createdAt: now })
    .onConflictDoNothing()
    .returning({ id: idempotencyKeys.id });

  if (inserted.length === 0) {
    const [row] = await db
      .select()
      .from(idempotencyKeys)
      .where(and(eq(idempotencyKeys.scope, scope), eq(idempotencyKeys.key, key)))
      .limit(1);
    if (!row) throw new ApiError(Errors.requestInProgress);
    if (row.bodyHash !== bodyHash) throw new ApiError(Errors.idempotencyMismatch);
    if (row.status === null) throw new ApiError(Errors.requestInProgress);
    c.header('Idempotent-Replayed', 'true');
    return c.json(row.response as object, row.status as 200);
  }

  const id = inserted[0]!.id;
  try {
    await next();
  } catch (err) {
    await db.delete(idempotencyKeys).where(eq(idempotencyKeys.id, id));
    throw err;
  }
  const status = c.res.status;
  if (status >= 500) {
    await db.delete(idempotencyKeys).where(eq(idempotencyKeys.id, id));
    return;
  }
  const response: unknown = await c.res
    .clone()
    .json()
    .catch(() => null);
  await db.update(idempotencyKeys).set({ status, response }).where(eq(idempotencyKeys.id, id));
});
