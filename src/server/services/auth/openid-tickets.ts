import { and, eq, gt, isNull } from 'drizzle-orm';
import type { Clock } from '../../../domain/clock';
import { OPENID_TICKET_TTL_MS } from '../../../domain/limits';
import type { Db, Tx } from '../../db/client';
import { openIdBindings, openIdTickets } from '../../db/schema/index';
import { hashSecret, newSecret } from '../auth-tokens';

/**
 * An open id is never handed to the browser: an OAuth round trip leaves a short-lived (10 min) ticket
 * instead. Scope `base` (no bound account found): single use, the next phone login (or open-id login)
 * spends it. Scope `userinfo` (a friend who pays): read by `friendPayer`, never spent.
 */
export async function createOpenIdTicket(
  db: Db | Tx,
  openId: string,
  clock: Clock,
  wx: { avatar?: string; nickname?: string; scope?: 'base' | 'userinfo' } = {},
): Promise<string> {
  const ticket = newSecret();
  await db.insert(openIdTickets).values({
    ticketHash: hashSecret(ticket),
    openId,
    avatar: wx.avatar ?? null,
    nickname: wx.nickname ?? null,
    scope: wx.scope ?? 'base',
    expiresAt: new Date(clock.now().getTime() + OPENID_TICKET_TTL_MS),
  });
  return ticket;
}

export interface TicketOpenId {
  id: number;
  openId: string;
  avatar: string | null;
  nickname: string | null;
}

/**
 * A live base ticket's open id, row-locked for the rest of the transaction; undefined if unknown, used,
 * expired or a friend's (userinfo) ticket: a friend's authorization never logs in or binds.
 */
export async function liveTicket(tx: Tx, ticket: string | undefined | null, clock: Clock): Promise<TicketOpenId | undefined> {
  const t = ticket?.trim();
  if (!t) return undefined;
  const [row] = await tx
    .select({ id: openIdTickets.id, openId: openIdTickets.openId, avatar: openIdTickets.avatar, nickname: openIdTickets.nickname })
    .from(openIdTickets)
    .where(
      and(
        eq(openIdTickets.ticketHash, hashSecret(t)),
        eq(openIdTickets.scope, 'base'),
        isNull(openIdTickets.usedAt),
        gt(openIdTickets.expiresAt, clock.now()),
      ),
    )
    .limit(1)
    .for('update');
  return row;
}

export interface FriendPayer {
  openId: string;
  nickname: string | null;
  avatar: string | null;
}

/**
 * The friend who authorized with the user-info scope (the `wxFriend` cookie's ticket), so the member
 * sees who paid: a live userinfo ticket's open id, nickname and avatar; undefined if unknown, expired
 * or a base ticket. Not spent: within its 10 minutes the friend may pay again, or another part.
 */
export async function friendPayer(db: Db | Tx, clock: Clock, ticket: string | undefined): Promise<FriendPayer | undefined> {
  const t = ticket?.trim();
  if (!t) return undefined;
  const [row] = await db
    .select({ openId: openIdTickets.openId, nickname: openIdTickets.nickname, avatar: openIdTickets.avatar })
    .from(openIdTickets)
    .where(and(eq(openIdTickets.ticketHash, hashSecret(t)), eq(openIdTickets.scope, 'userinfo'), gt(openIdTickets.expiresAt, clock.now())))
    .limit(1);
  return row;
}

export async function spendTicket(tx: Tx, id: number, clock: Clock): Promise<void> {
  await tx.update(openIdTickets).set({ usedAt: clock.now() }).where(eq(openIdTickets.id, id));
}

/** The account an open id is bound to, if any. */
export async function accountIdForOpenId(db: Db | Tx, openId: string): Promise<number | undefined> {
  const [row] = await db
    .select({ accountId: openIdBindings.accountId })
    .from(openIdBindings)
    .where(eq(openIdBindings.openId, openId))
    .limit(1);
  return row?.accountId;
}

/** Binds an open id to an account; an open id already bound (to anyone) stays as it is. */
export async function bindOpenId(tx: Tx, openId: string, accountId: number, clock: Clock): Promise<void> {
  await tx
    .insert(openIdBindings)
    .values({ openId, accountId, createdAt: clock.now() })
    .onConflictDoNothing({ target: openIdBindings.openId });
}

/** Whether any open id is bound to the account (the app uses it for friend pay). */
export async function hasOpenIdBinding(db: Db | Tx, accountId: number): Promise<boolean> {
  const rows = await db
    .select({ openId: openIdBindings.openId })
    .from(openIdBindings)
    .where(eq(openIdBindings.accountId, accountId))
    .limit(1);
  return rows.length > 0;
}
