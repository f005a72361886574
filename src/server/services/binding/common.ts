import { eq } from 'drizzle-orm';
import type { Clock } from '../../../domain/clock';
import { Errors } from '../../../domain/errors';
import type { Tx } from '../../db/client';
import { openIdBindings } from '../../db/schema/index';
import { ApiError } from '../../http/api-error';
import { accountById, type Account } from '../auth/accounts';
import { accountIdForOpenId, hasOpenIdBinding, liveTicket, spendTicket, type TicketOpenId } from '../auth/openid-tickets';
import { createSession } from '../auth/sessions';
import { lockKey } from '../auth/locks';

/** What a binding answers: the new session's token and the account, logged in with its role. */
export interface BindOutcome {
  token: string;
  account: Account;
}

/**
 * The open id every binding needs (spec §8 "empty open id"): a live ticket of the silent login,
 * row-locked. Without one (none sent, used, expired) the app offers to run the silent login again.
 */
export async function requireOpenId(tx: Tx, ticket: string | null | undefined, clock: Clock): Promise<TicketOpenId> {
  const t = await liveTicket(tx, ticket, clock);
  if (!t) throw new ApiError(Errors.emptyOpenId, { field: 'openid' });
  return t;
}

/** An open id already bound to any account cannot bind again (60006). */
export async function refuseBoundOpenId(tx: Tx, openId: string): Promise<void> {
  if ((await accountIdForOpenId(tx, openId)) !== undefined) throw new ApiError(Errors.openIdAlreadyBound, { field: 'openid' });
}

/**
 * Binds the open id to a teacher's or staff member's account and logs it in (one open id per such
 * account: 60007 when it has one). The insert's conflict (the open id bound meanwhile) is 60008.
 */
export async function bindAndLogIn(tx: Tx, ticket: TicketOpenId, accountId: number, clock: Clock): Promise<BindOutcome> {
  // two codes of one teacher (or a code and staff credentials) at once: one account decides at a time
  await lockKey(tx, `bind:account:${accountId}`);
  const account = await accountById(tx, accountId);
  if (!account || account.banned) throw new ApiError(Errors.bindFailed);
  if (await hasOpenIdBinding(tx, accountId)) throw new ApiError(Errors.accountAlreadyBound);
  const inserted = await tx
    .insert(openIdBindings)
    .values({ openId: ticket.openId, accountId, createdAt: clock.now() })
    .onConflictDoNothing({ target: openIdBindings.openId })
    .returning({ openId: openIdBindings.openId });
  if (inserted.length === 0) throw new ApiError(Errors.bindFailed);
  await spendTicket(tx, ticket.id, clock);
  const token = await createSession(tx, accountId, clock);
  return { token, account };
}

/** Staff unbinding: every open id of the account is let go and its sessions end (a lost phone). */
export async function unbindAccount(tx: Tx, accountId: number): Promise<number> {
  const gone = await tx.delete(openIdBindings).where(eq(openIdBindings.accountId, accountId)).returning({ openId: openIdBindings.openId });
  return gone.length;
}
