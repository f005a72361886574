import { hash, randomUUID } from 'node:crypto';
import { and, eq, isNull, lte, or, sql } from 'drizzle-orm';
import type { Context } from 'hono';
import { createMiddleware } from 'hono/factory';
import { Errors } from '../../domain/errors';
import type { Db } from '../db/client';
import { perTurn } from '../db/per-turn';
import { executePrepared } from '../db/prepared';
import { rowsOf } from '../db/rows';
import { idempotencyKeys } from '../db/schema/index';
import type { AppEnv } from '../env';
import { ApiError } from './api-error';
import { clientIp } from './client-ip';
import { jsonTextOf } from './sized-json';

/** How long a first answer is kept and replayed (DESIGN.md §4). */
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;
export const KEY_RE = /^[A-Za-z0-9_\-:.]{8,128}$/;

/**
 * How long a running request holds its key without a sign of life (decision 037). The owner extends
 * the lease every third of it while it runs; a retry that finds the lease run out (the owner's process
 * was killed, or lost its database) takes the key over and runs the request itself.
 */
export const IDEMPOTENCY_LEASE_MS = 10_000;

const keyOf = (scope: string, key: string) => and(eq(idempotencyKeys.scope, scope), eq(idempotencyKeys.key, key));

/** The hash of what was asked: a retry must ask the same. */
export async function bodyHashOf(c: Context<AppEnv>): Promise<string> {
  const body = await c.req.text();
  return hash('sha256', `${c.req.method} ${c.req.path}\n${body}`, 'hex');
}

/** The key's scope (the caller, or a visitor's address) and the hash of what was asked. */
async function keyFacts(c: Context<AppEnv>): Promise<{ scope: string; bodyHash: string }> {
  const caller = c.get('caller');
  return { scope: caller ? `a:${caller.accountId}` : `v:${clientIp(c)}`, bodyHash: await bodyHashOf(c) };
}

/** A request's claim of its key: the row it inserts (or overwrites, when the key expired). */
interface Claim {
  scope: string;
  key: string;
  method: string;
  path: string;
  bodyHash: string;
  now: Date;
  owner: string;
  leaseUntil: Date;
}

/**
 * The keys claimed in one turn of the event loop, in one statement (`perTurn`): a new key is taken; an
 * expired key is as good as new (overwritten in the same statement, decisions 048 and 049); a live one
 * answers no id here and is looked at by its request. A key asked twice in one turn (a double tap) is
 * claimed by the first ask; the second finds it running. Raw SQL: drizzle's insert builder cost about a
 * millisecond of CPU per request in the booking race.
 */
const claimKeys = perTurn(async (db: Db, claims: readonly Claim[]) => {
  const first = new Map<string, number>();
  claims.forEach((k, i) => {
    if (!first.has(`${k.scope}\n${k.key}`)) first.set(`${k.scope}\n${k.key}`, i);
  });
  const rows = [...first.values()].map((i) => {
    const k = claims[i]!;
    return {
      scope: k.scope,
      key: k.key,
      method: k.method,
      path: k.path,
      body_hash: k.bodyHash,
      created_at: k.now.toISOString(),
      owner: k.owner,
      lease_until: k.leaseUntil.toISOString(),
    };
  });
  // the rows as one JSON parameter: the statement's text is the same for any number of keys (prepared)
  const claimed = rowsOf<{ id: number; scope: string; key: string }>(
    await executePrepared(
      db,
      sql`insert into ${idempotencyKeys} (scope, key, method, path, body_hash, created_at, owner, lease_until)
    select * from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb)
      as t(scope text, key text, method text, path text, body_hash text, created_at timestamptz, owner text, lease_until timestamptz)
    on conflict (scope, key) do update set method = excluded.method, path = excluded.path, body_hash = excluded.body_hash,
      created_at = excluded.created_at, owner = excluded.owner, lease_until = excluded.lease_until, status = null, response = null
      where ${idempotencyKeys.createdAt} < excluded.created_at - ${sql.raw(`interval '${IDEMPOTENCY_TTL_MS} milliseconds'`)}
    returning id, scope, key`,
    ),
  );
  const ids = new Map(claimed.map((r) => [`${r.scope}\n${r.key}`, Number(r.id)]));
  return claims.map((k, i) => (first.get(`${k.scope}\n${k.key}`) === i ? ids.get(`${k.scope}\n${k.key}`) : undefined));
});

/** A finished request's first answer, kept under its key (if the request still owns it). */
interface Answer {
  id: number;
  owner: string;
  status: number;
  /** the answer's JSON text (null: no JSON body) */
  json: string | null;
}

/** The answers finished in one turn of the event loop, kept in one statement (`perTurn`). */
const keepAnswers = perTurn(async (db: Db, answers: readonly Answer[]) => {
  // the answers' JSON texts are put into the statement's JSON as they are (no parse and stringify again)
  const input = `[${answers.map((a) => `{"id":${a.id},"owner":${JSON.stringify(a.owner)},"status":${a.status},"response":${a.json ?? 'null'}}`).join(',')}]`;
  await executePrepared(
    db,
    sql`update ${idempotencyKeys} k set status = t.status, response = t.response, owner = null, lease_until = null
    from jsonb_to_recordset(${input}::jsonb) as t(id int, owner text, status int, response jsonb)
    where k.id = t.id and k.owner = t.owner`,
  );
  return answers.map(() => undefined);
});

/**
 * Money and capacity POSTs: the first answer to an Idempotency-Key is stored and replayed for a
 * retry; the same key with a different body is refused (70007); a retry while the first request
 * still runs is refused (70010), and takes the key over once the first request's lease has run out
 * (its process is gone). 5xx answers are not kept, so a retry after a failure runs again.
 * Put it after requireAuth so keys are scoped to the caller.
 */
export const idempotent = createMiddleware<AppEnv>(async (c, next) => {
  const key = c.req.header('idempotency-key');
  if (key === undefined) return next();
  if (!KEY_RE.test(key)) throw new ApiError(Errors.invalidField, { field: 'Idempotency-Key', values: { field: 'Idempotency-Key' } });

  const { db, clock, log } = c.var.deps;
  const { scope, bodyHash } = await keyFacts(c);
  const now = clock.now();
  // the request's mark on its key while it runs: unique, not secret (randomUUID: a fortieth of randomBytes' CPU)
  const owner = randomUUID();
  const lease = () => new Date(clock.now().getTime() + IDEMPOTENCY_LEASE_MS);

  let id = await claimKeys(db, { scope, key, method: c.req.method, path: c.req.path, bodyHash, now, owner, leaseUntil: lease() });
  if (id === undefined) {
    const [row] = await db.select().from(idempotencyKeys).where(keyOf(scope, key)).limit(1);
    if (!row) throw new ApiError(Errors.requestInProgress);
    if (row.bodyHash !== bodyHash) throw new ApiError(Errors.idempotencyMismatch);
    if (row.status !== null) {
      c.header('Idempotent-Replayed', 'true');
      return c.json(row.response as object, row.status as 200);
    }
    // still running, unless its owner stopped extending the lease: then one retry takes it over
    const [taken] = await db
      .update(idempotencyKeys)
      .set({ owner, leaseUntil: lease() })
      .where(
        and(
          eq(idempotencyKeys.id, row.id),
          isNull(idempotencyKeys.status),
          or(
            lte(idempotencyKeys.leaseUntil, now),
            // a row from before leases (migration 0028): its owner had a lease's time from the start
            and(isNull(idempotencyKeys.leaseUntil), lte(idempotencyKeys.createdAt, new Date(now.getTime() - IDEMPOTENCY_LEASE_MS))),
          ),
        ),
      )
      .returning({ id: idempotencyKeys.id });
    if (!taken) throw new ApiError(Errors.requestInProgress);
    log.warn('idempotency key taken over', { scope, path: c.req.path });
    id = taken.id;
  }

  const mine = and(eq(idempotencyKeys.id, id), eq(idempotencyKeys.owner, owner));
  const heartbeat = setInterval(() => {
    db.update(idempotencyKeys)
      .set({ leaseUntil: lease() })
      .where(and(mine, isNull(idempotencyKeys.status)))
      .catch(() => {});
  }, IDEMPOTENCY_LEASE_MS / 3);
  heartbeat.unref?.();
  try {
    await next();
  } catch (err) {
    clearInterval(heartbeat);
    await db.delete(idempotencyKeys).where(mine);
    throw err;
  }
  clearInterval(heartbeat);
  const status = c.res.status;
  if (status >= 500) {
    await db.delete(idempotencyKeys).where(mine);
    return;
  }
  await keepAnswers(db, { id, owner, status, json: await jsonTextOf(c.res) });
});
