import { and, eq, inArray, lte } from 'drizzle-orm';
import { FRIEND_INVITATION_INITIAL, OPEN_INVITATION_STATES } from '../../../../machines/domain/friend-invitation-transitions';
import { EVER_PAID_STATES } from '../../../../machines/domain/order-transitions';
import type { Clock } from '../../../domain/clock';
import { Errors } from '../../../domain/errors';
import { FRIEND_INVITATION_TTL_MS } from '../../../domain/pricing';
import type { Tx } from '../../db/client';
import { friendInvitations, orders, paymentParts } from '../../db/schema/index';
import type { Deps } from '../../env';
import { ApiError } from '../../http/api-error';
import { enqueueJob } from '../../jobs/queue';
import { decide } from '../booking/decide';
import { runRefundsNow } from '../refunds/run';
import { newSecret } from '../tokens';
import { cancelLocked } from './cancel';
import { moveInvitation, openInvitations, type InvitationRow } from './invitation-rows';
import { lockAccount, lockMyOrder, ROW } from './locks';
import { insertPart, liveShares, movePart, type PartRow } from './parts';
import { openPayWindow } from './pay-window';
import { myOrder, openAttempt, type OrderRow } from './read';
import { endFriendTrades, endOpenTrades } from './close-attempt';
import { move } from './state';

/**
 * Friend pay, the member's side (spec §4, §9; decision 021): an invitation for a friend to pay one
 * unpaid share of an order (the whole order's, or a split order's part), open for an hour. While any
 * is open the order is `friend_paying` and keeps its holds (stock, coupon, balance); when the last one
 * ends unpaid (withdrawn by the member, or the hour over) the order waits for money again with a new
 * 15-minute pay window. When the hour passes and the order can no longer be completed as its payers
 * were promised (a part was paid already), the order is cancelled and every paid part refunded to
 * its payer. Every change goes through the friend-invitation and order charts, under the order lock.
 */

/** The job kind that ends an invitation at its expiresAt. */
export const INVITATION_EXPIRE_JOB = 'invitation.expire';

/**
 * Invites a friend to pay (spec §4 "merge into friend pay"): `partSeqs` names the unpaid shares to send
 * (one: that part; several: merged into one share of their sum); absent, every unpaid share (the whole
 * amount still to pay, merged when the order is split). A second tap, or asking again for one part
 * while its invitation is open, answers that invitation (the same link). Merging drops the named parts
 * (by the part chart) and makes one new share; parts already sent to a friend, or paid, cannot be merged.
 */
export async function inviteFriend(deps: Deps, accountId: number, orderNo: string, partSeqs?: readonly number[]): Promise<{ order: OrderRow; invitation: InvitationRow; part: PartRow }> {
  const { clock } = deps;
  await endOverInvitations(deps, (await myOrder(deps.db, accountId, orderNo)).id);
  return decide(deps.db, async (tx) => {
    const o = await lockMyOrder(tx, accountId, orderNo);
    if (o.state === 'cancelled') throw new ApiError(Errors.orderCancelled);
    if (EVER_PAID_STATES.includes(o.state)) throw new ApiError(Errors.orderAlreadyPaid);
    // the balance deduction paid it all: nothing for a friend to pay (spec §5)
    if (o.amountToPayCents <= 0) throw new ApiError(Errors.friendPayNotNeeded);
    const invited = await openInvitations(tx, o.id);
    const unpaid = (await liveShares(tx, o.id)).filter((p) => p.state === 'unpaid');
    const named = partSeqs === undefined ? unpaid.filter((p) => !invited.some((i) => i.partId === p.id)) : partSeqs.map((seq) => unpaid.find((p) => p.seq === seq));
    if (named.some((p) => p === undefined) || new Set(partSeqs).size !== (partSeqs ?? []).length) throw new ApiError(Errors.invalidField, { field: 'partSeqs', values: { field: 'partSeqs' } });
    const parts = named as PartRow[];
    if (parts.length === 0) {
      // nothing left to send: paid, or every unpaid part is with a friend already (asked again: that one invitation)
      if (unpaid.length === 0) throw new ApiError(Errors.orderAlreadyPaid);
      const only = invited.length === 1 ? unpaid.find((p) => p.id === invited[0]!.partId) : undefined;
      if (only) return { order: o, invitation: invited[0]!, part: only };
      throw new ApiError(Errors.orderNotPayable);
    }
    const open = parts.length === 1 ? invited.find((i) => i.partId === parts[0]!.id) : undefined;
    if (open) return { order: o, invitation: open, part: parts[0]! };
    // a part with a friend already cannot be merged into another invitation
    if (parts.some((p) => invited.some((i) => i.partId === p.id))) throw new ApiError(Errors.orderNotPayable);
    // the member's own trade open at a provider could still take this money: paying blocks (spec §8)
    if (await openAttempt(tx, o.id)) throw new ApiError(Errors.orderNotPayable);
    const state = move(o.state, 'friend.invite', 'orderNotPayable');
    let part = parts[0]!;
    if (parts.length > 1) {
      for (const p of parts) await movePart(tx, clock, p, 'part.end');
      part = await insertPart(tx, clock, o.id, 'share', parts.reduce((n, p) => n + p.amountCents, 0));
    }
    const now = clock.now();
    const [invitation] = await tx
      .insert(friendInvitations)
      .values({ orderId: o.id, partId: part.id, token: newSecret(), state: FRIEND_INVITATION_INITIAL, createdAt: now, expiresAt: new Date(now.getTime() + FRIEND_INVITATION_TTL_MS) })
      .returning();
    const [order] = await tx.update(orders).set({ state }).where(eq(orders.id, o.id)).returning();
    await enqueueJob(tx, { kind: INVITATION_EXPIRE_JOB, payload: { invitationId: invitation!.id }, runAt: invitation!.expiresAt });
    return { order: order!, invitation: invitation!, part };
  });
}

/**
 * The member withdraws the open invitation for a part (`partSeq`, or the order's only open one): the
 * friend can no longer pay it; when none is left open, the order waits for the member's money again.
 */
export async function withdrawInvitation(deps: Deps, accountId: number, orderNo: string, partSeq?: number): Promise<OrderRow> {
  const { clock } = deps;
  // a friend's trade open on the order is closed at the provider first (paid meanwhile: the friend's money wins)
  const o = await myOrder(deps.db, accountId, orderNo);
  await endOverInvitations(deps, o.id);
  await endFriendTrades(deps, o);
  return decide(deps.db, async (tx) => {
    const o = await lockMyOrder(tx, accountId, orderNo);
    const open = await openInvitations(tx, o.id);
    const seqs = await seqsOf(tx, open);
    const inv = partSeq === undefined ? (open.length === 1 ? open[0] : undefined) : open.find((i) => seqs.get(i.partId) === partSeq);
    if (!inv) {
      if (partSeq === undefined && open.length > 1) throw new ApiError(Errors.invalidField, { field: 'partSeq', values: { field: 'partSeq' } });
      throw new ApiError(Errors.invitationOver);
    }
    await moveInvitation(tx, clock, inv, 'invitation.withdraw');
    return afterInvitationEnded(tx, clock, o, false, []);
  });
}

/**
 * The invitation-expiry job at an invitation's expiresAt: an invitation still open is expired; the
 * order then waits for money again, or, when part of it was paid already, is cancelled and every
 * paid part refunded to its payer.
 */
export async function runInvitationExpiry(deps: Deps, payload: unknown): Promise<void> {
  const { invitationId } = payload as { invitationId: number };
  const { db, clock } = deps;
  const [found] = await db.select({ orderId: friendInvitations.orderId, accountId: orders.accountId }).from(friendInvitations).innerJoin(orders, eq(orders.id, friendInvitations.orderId)).where(eq(friendInvitations.id, invitationId));
  if (!found) return;
  // the friend's trade on it ends first: asked about (paid before the hour: the friend's money wins), then closed
  const [inv] = await db.select().from(friendInvitations).where(eq(friendInvitations.id, invitationId));
  if (inv?.state === 'open' && (await endOpenTrades(deps, found.orderId, { partId: inv.partId, unreachable: 'close' })) === 'paid') return;
  const refundsToRun: number[] = [];
  await decide(db, async (tx) => {
    refundsToRun.length = 0;
    // the account first: a cancel gives the balance back to the ledger
    await lockAccount(tx, found.accountId, ROW);
    const [o] = await tx.select().from(orders).where(eq(orders.id, found.orderId)).for('update');
    const inv = (await openInvitations(tx, found.orderId)).find((i) => i.id === invitationId);
    if (!o || !inv || inv.expiresAt.getTime() > clock.now().getTime()) return;
    await moveInvitation(tx, clock, inv, 'invitation.expire');
    await afterInvitationEnded(tx, clock, o, true, refundsToRun);
  });
  await runRefundsNow(deps, refundsToRun);
}

/** The order's open invitations past their hour end first, as their jobs will (a call can come before a job runs). */
async function endOverInvitations(deps: Deps, orderId: number): Promise<void> {
  const over = await deps.db
    .select({ id: friendInvitations.id })
    .from(friendInvitations)
    .where(and(eq(friendInvitations.orderId, orderId), inArray(friendInvitations.state, OPEN_INVITATION_STATES), lte(friendInvitations.expiresAt, deps.clock.now())));
  for (const inv of over) await runInvitationExpiry(deps, { invitationId: inv.id });
}

/**
 * After an invitation ended unpaid: while another is open the order stays friend paying. Otherwise it
 * waits for money again with a new pay window and its expiry job; but when the hour ran out
 * (`mayCancel`) and a share was paid already, the order is cancelled and the paid parts refunded.
 */
async function afterInvitationEnded(tx: Tx, clock: Clock, o: OrderRow, mayCancel: boolean, refundsToRun: number[]): Promise<OrderRow> {
  if ((await openInvitations(tx, o.id)).length > 0) return o;
  const paidShare = (await liveShares(tx, o.id)).some((p) => p.state === 'paid');
  if (mayCancel && paidShare) return cancelLocked(tx, clock, o, refundsToRun);
  return openPayWindow(tx, clock, o, move(o.state, 'invitation.ended', 'orderNotPayable'));
}

/** Each invitation's part seq, by part id. */
async function seqsOf(tx: Tx, invs: InvitationRow[]): Promise<Map<number, number>> {
  if (invs.length === 0) return new Map();
  const rows = await tx.select({ id: paymentParts.id, seq: paymentParts.seq }).from(paymentParts).where(inArray(paymentParts.id, invs.map((i) => i.partId)));
  return new Map(rows.map((r) => [r.id, r.seq]));
}

/** What the friend's page shows of an invitation (no account needed): what is paid for, how much, until when. */
export async function invitationForFriend(deps: Deps, token: string) {
  const [row] = await deps.db
    .select({ inv: friendInvitations, amountCents: paymentParts.amountCents, orderNo: orders.orderNo, goodsId: orders.goodsId, accountId: orders.accountId })
    .from(friendInvitations)
    .innerJoin(paymentParts, eq(paymentParts.id, friendInvitations.partId))
    .innerJoin(orders, eq(orders.id, friendInvitations.orderId))
    .where(eq(friendInvitations.token, token));
  if (!row) throw new ApiError(Errors.notFound, { field: 't' });
  // an open one past its hour reads expired before its job has run
  const over = row.inv.state === 'open' && row.inv.expiresAt.getTime() <= deps.clock.now().getTime();
  return { ...row, state: over ? ('expired' as const) : row.inv.state };
}
