import { sql } from 'drizzle-orm';
import type { Context } from 'hono';
import { createMiddleware } from 'hono/factory';
import { CreateBody } from '../../contracts/orders';
import { Errors } from '../../domain/errors';
import { accounts, idempotencyKeys, sessions } from '../db/schema/index';
import type { Db } from '../db/client';
import type { AppEnv } from '../env';
import { gateOn, soldOutFromMemory } from '../services/flash-sale/flash-sale';
import { turnFor } from '../services/flash-sale/gate';
import { hashSecret } from '../services/auth-tokens';
import { ApiError } from './api-error';
import { TOKEN_HEADER } from './auth';
import { refusalOf } from './error-response';
import { bodyHashOf, KEY_RE } from './idempotency';
import { sizedJson } from './sized-json';
import { perTurn } from '../db/per-turn';
import { executePrepared } from '../db/prepared';
import { rowsOf } from '../db/rows';
import type { Clock } from '../../domain/clock';

const SOLD_OUT = new ApiError(Errors.goodsSoldOut);
const at = (d: Date) => sql`${d.toISOString()}::timestamptz`;

/** One refusal waiting for its batch's statement. */
interface Pending {
  clock: Clock;
  tokenHash: string;
  key: string | null;
  bodyHash: string | null;
  method: string;
  path: string;
  status: number;
  response: unknown;
}

/** What the statement found for a refusal: its caller and whether its key was kept (null: the statement failed). */
type Found = { caller: number | null; kept: boolean } | null;

/**
 * Sends the refusals gathered in this turn of the event loop (`perTurn`, up to 200 a statement) in
 * ONE statement: for each, the caller's session (as `requireAuth` finds it: live, not revoked,
 * account not banned) and, with a key, the refusal kept as the key's first answer (scoped to the
 * caller, as `idempotent` does; a key that is there already is left alone). Each gets its own caller
 * and whether its key was kept; null for all if the statement failed (they go the normal way).
 */
const flush = perTurn(async (db: Db, batch: readonly Pending[]): Promise<Found[]> => {
  const now = batch[0]!.clock.now();
  const input = JSON.stringify(
    batch.map((p, n) => ({
      n,
      token_hash: p.tokenHash,
      key: p.key,
      body_hash: p.bodyHash,
      method: p.method,
      path: p.path,
      status: p.status,
      response: p.response,
    })),
  );
  try {
    const rows = rowsOf<{ n: number; caller: number | null; kept: boolean }>(
      // prepared (one round trip a batch): the text is the same for any batch, its rows one JSON parameter
      await executePrepared(
        db,
        sql`with input as (
          select * from jsonb_to_recordset(${input}::jsonb) as t(n int, token_hash text, key text, body_hash text, method text, path text, status int, response jsonb)),
        caller as (
          select i.n, (select ${accounts.id} from ${sessions} inner join ${accounts} on ${accounts.id} = ${sessions.accountId}
            where ${sessions.tokenHash} = i.token_hash and ${sessions.revokedAt} is null and ${sessions.expiresAt} > ${at(now)} and ${accounts.banned} = false
            limit 1) as id
          from input i),
        kept as (
          insert into ${idempotencyKeys} (scope, key, method, path, body_hash, created_at, status, response)
          select 'a:' || c.id, i.key, i.method, i.path, i.body_hash, ${at(now)}, i.status, i.response
          from input i join caller c on c.n = i.n where c.id is not null and i.key is not null order by i.n
          on conflict (scope, key) do nothing returning scope, key)
        select c.n, c.id as caller, exists (select 1 from kept k where k.scope = 'a:' || c.id and k.key = i.key) as kept
        from caller c join input i on i.n = c.n`,
      ),
    );
    // two refusals of one caller with one key in a batch: one row was kept, for whichever; both go the normal way (a replay)
    const seen = new Map<string, number>();
    for (const r of rows)
      if (r.caller != null && batch[r.n]!.key !== null)
        seen.set(`${r.caller} ${batch[r.n]!.key}`, (seen.get(`${r.caller} ${batch[r.n]!.key}`) ?? 0) + 1);
    const byN = new Map(rows.map((r) => [Number(r.n), r]));
    return batch.map((p, n) => {
      const r = byN.get(n);
      const twice = r?.caller != null && p.key !== null && (seen.get(`${r.caller} ${p.key}`) ?? 0) > 1;
      return r ? { caller: r.caller == null ? null : Number(r.caller), kept: r.kept === true && !twice } : null;
    });
  } catch {
    return batch.map(() => null);
  }
});

/**
 * Refuses the purchase with 50003 (the sale is known sold out), decided together with the other
 * refusals of this turn of the event loop: one statement per batch (`flush`). Null when the normal
 * way must answer instead: no such session (401 there), or the key is there already (replayed,
 * refused or taken over there).
 */
async function refuseAtOnce(c: Context<AppEnv>, token: string, key: string | undefined): Promise<Response | null> {
  const { db, clock } = c.var.deps;
  const { status, body } = refusalOf(c, SOLD_OUT);
  const bodyHash = key === undefined ? null : await bodyHashOf(c);
  const answer = await flush(db, {
    clock,
    tokenHash: hashSecret(token),
    key: key ?? null,
    bodyHash,
    method: c.req.method,
    path: c.req.path,
    status,
    response: body,
  });
  if (answer?.caller == null || (key !== undefined && !answer.kept)) return null;
  return sizedJson(c, body, status);
}

/**
 * First on POST /orders/create (decision 049): a well-formed purchase waits for its turn at the goods'
 * gate (`turnFor`: a few creations per goods at once in this process, first come first served). When
 * this process heard from the database within the last second that the goods' flash sale is sold out
 * (before the turn or once it comes), the purchase is refused by `refuseAtOnce`: one statement for
 * the refusals gathered in this turn of the event loop (the crowd let out of the gate together), no
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
