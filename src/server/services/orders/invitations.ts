import { and, eq, inArray, lte } from 'drizzle-orm';
import { FRIEND_INVITATION_INITIAL, OPEN_INVITATION_STATES } from '../../../../machines/domain/friend-pay-invitation-transitions';
import type { Clock } from '../../../domain/clock';
import { Errors } from '../../../domain/errors';
import { FRIEND_INVITATION_TTL_MS } from '../../../domain/pricing';
import type { Tx } from '../../db/client';
import { friendInvitations, orders, paymentParts } from '../../db/schema/index';
import type { Deps } from '../../env';
import { ApiError } from '../../http/api-error';
import { enqueueJob } from '../../jobs/queue';
import { decide } from '../../db/transaction';
import { newSecret } from '../auth-tokens';
import { moveInvitation, openInvitations, type InvitationRow } from './invitation-rows';
import { lockMyOrder } from './locks';
import { mustOffer, mustOfferPart, offerFacts, type SharedPart } from './offer-facts';
import { insertPart, movePart, type PartRow } from './parts';
import { openPayWindow } from './pay-window';
import { myOrder, openAttemptOf, type OrderRow } from './read';
import { endOpenTrades, endTradesBeforeChange } from './close-attempt';
import { move } from './state';
import { noticeInvitationExpired } from './friend-notices';
import { askerOf } from './invitation-asker';
import { breakdownOf, paidRows, payerLines } from './breakdown';

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
export async function inviteFriend(
  deps: Deps,
  accountId: number,
  orderNo: string,
  partSeqs?: readonly number[],
): Promise<{ order: OrderRow; invitation: InvitationRow; part: PartRow }> {
  const { clock } = deps;
  await endOverInvitations(deps, (await myOrder(deps.db, accountId, orderNo)).id);
  return decide(deps.db, async (tx) => {
    const o = await lockMyOrder(tx, accountId, orderNo);
    const facts = await offerFacts(tx, o, clock.now());
    mustOffer(facts, 'invite');
    const free = facts.shares.filter((p) => p.holder === null && p.state === 'unpaid');
    const named = partSeqs === undefined ? free : partSeqs.map((seq) => facts.shares.find((p) => p.seq === seq));
    if (named.some((p) => p === undefined) || new Set(partSeqs).size !== (partSeqs ?? []).length)
      throw new ApiError(Errors.invalidField, { field: 'partSeqs', values: { field: 'partSeqs' } });
    const chosen = named as SharedPart[];
    // each named part by the offers rule (one a friend already holds answers its link)
    for (const p of chosen) mustOfferPart(facts, p, 'invite');
    if (chosen.length === 0) {
      // every unpaid part is with a friend already (asked again: that one invitation)
      const invited = await openInvitations(tx, o.id);
      const only = invited.length === 1 ? facts.shares.find((p) => p.part.id === invited[0]!.partId) : undefined;
      if (only) return { order: o, invitation: invited[0]!, part: only.part };
      throw new ApiError(Errors.orderNotPayable);
    }
    const held = chosen.filter((p) => p.holder !== null);
    if (held.length > 0) {
      // asked again for one part while its link is open: the same link; a part with a friend cannot be merged into another
      const invited = await openInvitations(tx, o.id);
      const open = chosen.length === 1 ? invited.find((i) => i.partId === held[0]!.part.id) : undefined;
      if (open) return { order: o, invitation: open, part: held[0]!.part };
      throw new ApiError(Errors.friendAlreadyActed);
    }
    const state = move(o.state, 'friend.invite', 'orderNotPayable');
    let part = chosen[0]!.part;
    if (chosen.length > 1) {
      for (const p of chosen) await movePart(tx, clock, p.part, 'part.end');
      part = await insertPart(
        tx,
        clock,
        o.id,
        'share',
        chosen.reduce((n, p) => n + p.part.amountCents, 0),
      );
    }
    const now = clock.now();
    const [invitation] = await tx
      .insert(friendInvitations)
      .values({
        orderId: o.id,
        partId: part.id,
        token: newSecret(),
        state: FRIEND_INVITATION_INITIAL,
        createdAt: now,
        expiresAt: new Date(now.getTime() + FRIEND_INVITATION_TTL_MS),
      })
      .returning();
    // the order waits as long as its last link is open: its member's own parts can be paid until then too
    const expiresAt = o.expiresAt && o.expiresAt.getTime() > invitation!.expiresAt.getTime() ? o.expiresAt : invitation!.expiresAt;
    const [order] = await tx.update(orders).set({ state, expiresAt }).where(eq(orders.id, o.id)).returning();
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
  const before = await myOrder(deps.db, accountId, orderNo);
  await endOverInvitations(deps, before.id);
  // the friend's trade open on that part is closed at the provider first (paid meanwhile: the friend's money wins, 40018)
  const target = await withdrawTarget(deps, before, partSeq);
  if (target) await endTradesBeforeChange(deps, before, target);
  return decide(deps.db, async (tx) => {
    const o = await lockMyOrder(tx, accountId, orderNo);
    const open = await openInvitations(tx, o.id);
    const seqs = await seqsOf(tx, open);
    const inv = partSeq === undefined ? (open.length === 1 ? open[0] : undefined) : open.find((i) => seqs.get(i.partId) === partSeq);
    if (!inv) {
      if (partSeq === undefined && open.length > 1)
        throw new ApiError(Errors.invalidField, { field: 'partSeq', values: { field: 'partSeq' } });
      throw new ApiError(Errors.invitationOver);
    }
    // a friend's trade opened on it since: the member asks again (its trade is then ended first)
    if (await openAttemptOf(tx, inv.partId)) throw new ApiError(Errors.friendAlreadyActed);
    await moveInvitation(tx, clock, inv, 'invitation.withdraw');
    return afterInvitationEnded(tx, clock, o);
  });
}

/** The part whose link a withdrawal names (its seq, or the order's only open link); undefined when none is open (the withdrawal then refuses). */
async function withdrawTarget(deps: Deps, o: OrderRow, partSeq: number | undefined): Promise<number | undefined> {
  const open = await deps.db
    .select({ partId: friendInvitations.partId, seq: paymentParts.seq })
    .from(friendInvitations)
    .innerJoin(paymentParts, eq(paymentParts.id, friendInvitations.partId))
    .where(and(eq(friendInvitations.orderId, o.id), inArray(friendInvitations.state, OPEN_INVITATION_STATES)));
  if (partSeq === undefined) return open.length === 1 ? open[0]!.partId : undefined;
  return open.find((i) => i.seq === partSeq)?.partId;
}

/**
 * The invitation-expiry job at an invitation's expiresAt: an invitation still open is expired (its
 * friend's trade asked about and closed first). The order is never cancelled by it: when no link is
 * left open it waits for its member's money with a new pay window, and that window's expiry cancels
 * it (refunding the parts paid) only if nobody pays.
 */
export async function runInvitationExpiry(deps: Deps, payload: unknown): Promise<void> {
  const { invitationId } = payload as { invitationId: number };
  const { db, clock } = deps;
  const [found] = await db
    .select({ orderId: friendInvitations.orderId, accountId: orders.accountId })
    .from(friendInvitations)
    .innerJoin(orders, eq(orders.id, friendInvitations.orderId))
    .where(eq(friendInvitations.id, invitationId));
  if (!found) return;
  // the friend's trade on it ends first: asked about (paid before the hour: the friend's money wins), then closed
  const [inv] = await db.select().from(friendInvitations).where(eq(friendInvitations.id, invitationId));
  if (inv?.state === 'open' && (await endOpenTrades(deps, found.orderId, { partId: inv.partId, unreachable: 'close' })) === 'paid') return;
  await decide(db, async (tx) => {
    const [o] = await tx.select().from(orders).where(eq(orders.id, found.orderId)).for('update');
    const inv = (await openInvitations(tx, found.orderId)).find((i) => i.id === invitationId);
    if (!o || !inv || inv.expiresAt.getTime() > clock.now().getTime()) return;
    await moveInvitation(tx, clock, inv, 'invitation.expire');
    const [part] = await tx.select({ amountCents: paymentParts.amountCents }).from(paymentParts).where(eq(paymentParts.id, inv.partId));
    await noticeInvitationExpired(tx, o.accountId, clock.now(), {
      goodsId: o.goodsId,
      orderNo: o.orderNo,
      amountCents: part?.amountCents ?? 0,
    });
    await afterInvitationEnded(tx, clock, o);
  });
}

/** The order's open invitations past their hour end first, as their jobs will (a call can come before a job runs). */
async function endOverInvitations(deps: Deps, orderId: number): Promise<void> {
  const over = await deps.db
    .select({ id: friendInvitations.id })
    .from(friendInvitations)
    .where(
      and(
        eq(friendInvitations.orderId, orderId),
        inArray(friendInvitations.state, OPEN_INVITATION_STATES),
        lte(friendInvitations.expiresAt, deps.clock.now()),
      ),
    );
  for (const inv of over) await runInvitationExpiry(deps, { invitationId: inv.id });
}

/** After an invitation ended unpaid: while another is open the order stays friend paying; otherwise it waits for its member's money with a new pay window. */
async function afterInvitationEnded(tx: Tx, clock: Clock, o: OrderRow): Promise<OrderRow> {
  if ((await openInvitations(tx, o.id)).length > 0 || o.state !== 'friend_paying') return o;
  return openPayWindow(tx, clock, o, move(o.state, 'invitation.ended', 'orderNotPayable'));
}

/** Each invitation's part seq, by part id. */
async function seqsOf(tx: Tx, invs: InvitationRow[]): Promise<Map<number, number>> {
  if (invs.length === 0) return new Map();
  const rows = await tx
    .select({ id: paymentParts.id, seq: paymentParts.seq })
    .from(paymentParts)
    .where(
      inArray(
        paymentParts.id,
        invs.map((i) => i.partId),
      ),
    );
  return new Map(rows.map((r) => [r.id, r.seq]));
}

/** What the friend's page shows of an invitation (no account needed): who asks, what is paid for, how much, until when. */
export async function invitationForFriend(deps: Deps, token: string) {
  const [row] = await deps.db
    .select({
      inv: friendInvitations,
      amountCents: paymentParts.amountCents,
      orderNo: orders.orderNo,
      goodsId: orders.goodsId,
      accountId: orders.accountId,
    })
    .from(friendInvitations)
    .innerJoin(paymentParts, eq(paymentParts.id, friendInvitations.partId))
    .innerJoin(orders, eq(orders.id, friendInvitations.orderId))
    .where(eq(friendInvitations.token, token));
  if (!row) throw new ApiError(Errors.notFound, { field: 't' });
  // an open one past its hour reads expired before its job has run
  const over = row.inv.state === 'open' && row.inv.expiresAt.getTime() <= deps.clock.now().getTime();
  const state = over ? ('expired' as const) : row.inv.state;
  // the friend sees only the share asked and their own payment of it (decision 101)
  const own = (await paidRows(deps.db, [row.inv.orderId])).filter((p) => p.invitationId === row.inv.id);
  const money = breakdownOf('share', row.amountCents, 0, payerLines(own), state === 'open' ? row.amountCents : 0);
  return { ...row, state, member: await askerOf(deps, row.accountId), money };
}
