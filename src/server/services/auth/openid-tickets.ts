import { and, eq, gt, isNull } from 'drizzle-orm';
import type { Clock } from '../../../domain/clock';
import { OPENID_TICKET_TTL_MS } from '../../../domain/limits';
import type { Db, Tx } from '../../db/client';
import { openIdBindings, openIdTickets } from '../../db/schema/index';
import { hashSecret, newSecret } from '../tokens';

/**
 * An open id is never handed to the browser: an OAuth round trip that finds no bound account leaves a
 * short-lived (10 min), single-use ticket instead; the next phone login (or open-id login) spends it.
 */
export async function createOpenIdTicket(db: Db | Tx, openId: string, clock: Clock, wx: { avatar?: string; nickname?: string } = {}): Promise<string> {
  const ticket = newSecret();
  await db.insert(openIdTickets).values({
    ticketHash: hashSecret(ticket),
    openId,
    avatar: wx.avatar ?? null,
    nickname: wx.nickname ?? null,
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

/** A live ticket's open id, row-locked for the rest of the transaction; undefined if unknown, used or expired. */
export async function liveTicket(tx: Tx, ticket: string | undefined | null, clock: Clock): Promise<TicketOpenId | undefined> {
  const t = ticket?.trim();
  if (!t) return undefined;
  const [row] = await tx
    .select({ id: openIdTickets.id, openId: openIdTickets.openId, avatar: openIdTickets.avatar, nickname: openIdTickets.nickname })
    .from(openIdTickets)
    .where(and(eq(openIdTickets.ticketHash, hashSecret(t)), isNull(openIdTickets.usedAt), gt(openIdTickets.expiresAt, clock.now())))
    .limit(1)
    .for('update');
  return row;
}

export async function spendTicket(tx: Tx, id: number, clock: Clock): Promise<void> {
  await tx.update(openIdTickets).set({ usedAt: clock.now() }).where(eq(openIdTickets.id, id));
}

/** The account an open id is bound to, if any. */
export async function accountIdForOpenId(db: Db | Tx, openId: string): Promise<number | undefined> {
  const [row] = await db.select({ accountId: openIdBindings.accountId }).from(openIdBindings).where(eq(openIdBindings.openId, openId)).limit(1);
  return row?.accountId;
}

/** Binds an open id to an account; an open id already bound (to anyone) stays as it is. */
export async function bindOpenId(tx: Tx, openId: string, accountId: number, clock: Clock): Promise<void> {
  await tx.insert(openIdBindings).values({ openId, accountId, createdAt: clock.now() }).onConflictDoNothing({ target: openIdBindings.openId });
}

/** Whether any open id is bound to the account (the app uses it for friend pay). */
export async function hasOpenIdBinding(db: Db | Tx, accountId: number): Promise<boolean> {
  const rows = await db.select({ openId: openIdBindings.openId }).from(openIdBindings).where(eq(openIdBindings.accountId, accountId)).limit(1);
  return rows.length > 0;
}
