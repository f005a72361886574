import { sql } from 'drizzle-orm';
import type { Context } from 'hono';
import { createMiddleware } from 'hono/factory';
import { CreateBody } from '../../contracts/orders';
import { Errors } from '../../domain/errors';
import { accounts, idempotencyKeys, sessions } from '../db/schema/index';
import type { AppEnv } from '../env';
import { gateOn, soldOutFromMemory } from '../services/flash-sale/flash-sale';
import { turnFor } from '../services/flash-sale/gate';
import { hashSecret } from '../services/tokens';
import { ApiError } from './api-error';
import { TOKEN_HEADER } from './auth';
import { refusalOf } from './error-response';
import { bodyHashOf, KEY_RE } from './idempotency';
import { sizedJson } from './sized-json';

const SOLD_OUT = new ApiError(Errors.goodsSoldOut);
const at = (d: Date) => sql`${d.toISOString()}::timestamptz`;

/** PGlite answers { rows }, postgres.js the rows themselves. */
function firstRow<T>(r: unknown): T | undefined {
  return ((r && typeof r === 'object' && 'rows' in r ? (r as { rows: T[] }).rows : (r as T[])) ?? [])[0];
}

/**
 * Refuses the purchase with 50003 (the sale is known sold out) in ONE statement that finds the
 * caller's session (as `requireAuth` does: live, not revoked, account not banned) and keeps the
 * refusal as the first answer of the Idempotency-Key (scoped to the caller, as `idempotent` does).
 * Null when the normal way must answer instead: no such session (401 there), or the key is there
 * already (replayed, refused or taken over there).
 */
async function refuseAtOnce(c: Context<AppEnv>, token: string, key: string | undefined): Promise<Response | null> {
  const { db, clock } = c.var.deps;
  const now = clock.now();
  const { status, body } = refusalOf(c, SOLD_OUT);
  const keep =
    key === undefined
      ? sql`select null::int as id where false`
      : sql`insert into ${idempotencyKeys} (scope, key, method, path, body_hash, created_at, status, response)
          select 'a:' || id, ${key}, ${c.req.method}, ${c.req.path}, ${await bodyHashOf(c)}, ${at(now)}, ${status}, ${JSON.stringify(body)}::jsonb from caller
          on conflict (scope, key) do nothing returning id`;
  const row = firstRow<{ caller: number | null; kept: number | null }>(
    await db.execute(sql`with caller as (
        select ${accounts.id} as id from ${sessions} inner join ${accounts} on ${accounts.id} = ${sessions.accountId}
        where ${sessions.tokenHash} = ${hashSecret(token)} and ${sessions.revokedAt} is null and ${sessions.expiresAt} > ${at(now)} and ${accounts.banned} = false
        limit 1),
      kept as (${keep})
      select (select id from caller) as caller, (select id from kept) as kept`),
  );
  if (row?.caller == null || (key !== undefined && row.kept == null)) return null;
  return sizedJson(c, body, status);
}

/**
 * First on POST /orders/create (decision 049): a well-formed purchase waits for its turn at the goods'
 * gate (`turnFor`: a few creations per goods at once in this process, first come first served). When
 * this process heard from the database within the last second that the goods' flash sale is sold out
 * (before the turn or once it comes), the purchase is refused by `refuseAtOnce`: one statement, no
 * sale read, no transaction, no lease. Everything else goes the normal way (requireAuth, idempotent,
 * the order), inside its turn.
 */
export const purchaseGate = createMiddleware<AppEnv>(async (c, next) => {
  const token = c.req.header(TOKEN_HEADER)?.trim();
  const key = c.req.header('idempotency-key');
  if (!token || (key !== undefined && !KEY_RE.test(key))) return next();
  let input: unknown;
  try {
    input = JSON.parse(await c.req.text());
  } catch {
    return next();
  }
  const parsed = CreateBody.safeParse(input);
  if (!parsed.success || !parsed.data.goodsId || parsed.data.agreementAccepted !== true) return next();
  const goodsId = parsed.data.goodsId;
  const { db, clock } = c.var.deps;
  const soldOut = () => soldOutFromMemory(db, goodsId, clock.now());

  if (soldOut()) return (await refuseAtOnce(c, token, key)) ?? next();
  if (!gateOn()) return next();
  const endTurn = await turnFor(db, goodsId);
  if (soldOut()) {
    endTurn();
    return (await refuseAtOnce(c, token, key)) ?? next();
  }
  try {
    await next();
  } finally {
    endTurn();
  }
});
