import { and, asc, desc, eq, inArray, isNotNull, notInArray } from 'drizzle-orm';
import { guards } from '../../db/guards';
import { alias } from 'drizzle-orm/pg-core';
import { nextCardRefundState, OPEN_CARD_REFUND_STATES, type CardRefundState } from '../../../../machines/domain/card-refund-transitions';
import type { CardRefundEvent } from '../../../../machines/domain/card-refund.machine';
import { cardFactsOf, nextCardStatus } from '../../../../machines/domain/card-transitions';
import { nextOrderState } from '../../../../machines/domain/order-transitions';
import { APPLIED_PAYMENT_STATUSES } from '../../../../machines/domain/payment-transitions';
import type { Clock } from '../../../domain/clock';
import { shareRefund } from '../../../domain/card-refund';
import { Errors } from '../../../domain/errors';
import type { StaffCardRefund } from '../../../contracts/card-refunds';
import type { Db, Tx } from '../../db/client';
import {
  accounts,
  balanceLedger,
  cardRefunds,
  memberCards,
  notifications,
  orders,
  paymentAttempts,
  payments,
  refunds,
} from '../../db/schema/index';
import { shownNames } from '../person/shown-name';
import type { Deps } from '../../env';
import { ApiError } from '../../http/api-error';
import type { Audit } from '../staff-audit/audit-log';
import { decide } from '../../db/transaction';
import { syncOrderRefund } from '../refunds/order-refund';
import { requestRefund } from '../refunds/request';
import { runRefundsNow } from '../refunds/run';
import { catchUpCard, lockMyCard } from './my-card';
import { refundCheck } from './refund';
import { cardRefundApprovedNotice, cardRefundRejectedNotice } from './transfer-notices';

type CardRefundRow = typeof cardRefunds.$inferSelect;
/** who decided a request (staff, or the member for a cancel) */
const decider = alias(accounts, 'decider');

/**
 * The staff queue of card refund requests (decision 030): pending, oldest first. Clubs are not
 * modelled on staff accounts (decision 026), so every staff member sees all of them; `id` reads one
 * request in any state (after a decision); `decided` the latest decided by staff (approved or
 * rejected, not the members' cancels), newest decision first, with who decided (decision 031).
 */
export async function cardRefundsForStaff(
  db: Db,
  q: { id?: number; decided?: boolean; preview?: { now: Date } } = {},
): Promise<StaffCardRefund[]> {
  const where =
    q.id !== undefined
      ? eq(cardRefunds.id, q.id)
      : q.decided
        ? and(notInArray(cardRefunds.state, [...OPEN_CARD_REFUND_STATES, 'cancelled']), isNotNull(cardRefunds.decidedAt))
        : inArray(cardRefunds.state, OPEN_CARD_REFUND_STATES);
  const rows = await db
    .select({
      r: cardRefunds,
      cardName: memberCards.name,
      cardNumber: memberCards.number,
      memberPhone: accounts.phone,
      orderNo: orders.orderNo,
      orderState: orders.state,
      deciderName: decider.name,
      deciderPhone: decider.phone,
    })
    .from(cardRefunds)
    .innerJoin(memberCards, eq(memberCards.id, cardRefunds.cardId))
    .innerJoin(accounts, eq(accounts.id, cardRefunds.accountId))
    .innerJoin(orders, eq(orders.id, cardRefunds.orderId))
    .leftJoin(decider, eq(decider.id, cardRefunds.decidedBy))
    .where(where)
    .orderBy(...(q.decided ? [desc(cardRefunds.decidedAt), desc(cardRefunds.id)] : [asc(cardRefunds.id)]))
    .limit(q.decided ? 20 : 100);
  const preview = q.preview;
  const approvals = preview
    ? await Promise.all(rows.map(({ r }) => (OPEN_CARD_REFUND_STATES.includes(r.state) ? approvalPreview(db, preview.now, r) : null)))
    : rows.map(() => null);
  const memberNames = await shownNames(
    db,
    rows.map(({ r }) => r.accountId),
  );
  return rows.map(({ r, deciderName, deciderPhone, ...x }, i) => ({
    id: r.id,
    memberName: memberNames.get(r.accountId) ?? null,
    approval: approvals[i] ?? null,
    state: r.state,
    cardId: r.cardId,
    ...x,
    quotedCents: r.quotedCents,
    amountCents: r.amountCents,
    reason: r.reason,
    decidedBy: r.decidedBy,
    decidedByName: r.decidedBy === null ? null : (deciderName ?? deciderPhone),
    decidedAt: r.decidedAt?.toISOString() ?? null,
    createdAt: r.createdAt.toISOString(),
  }));
}

/** Each applied payment of an order with its share of `amountCents` back (what it took, less what was asked back already). */
async function refundShares(db: Db | Tx, orderId: number, amountCents: number) {
  const paid = await db
    .select()
    .from(payments)
    .where(and(eq(payments.orderId, orderId), inArray(payments.status, APPLIED_PAYMENT_STATUSES)))
    .orderBy(asc(payments.id));
  const asked = await db
    .select({ paymentId: refunds.paymentId, cents: refunds.amountCents })
    .from(refunds)
    .where(inArray(refunds.paymentId, paid.length ? paid.map((p) => p.id) : [-1]));
  const lefts = paid.map((p) => p.amountCents - asked.filter((a) => a.paymentId === p.id).reduce((n, a) => n + a.cents, 0));
  const shares = shareRefund(amountCents, lefts);
  return paid.map((payment, i) => ({ payment, cents: shares[i]! }));
}

/**
 * What approving a pending request would do now (shown in the staff's confirm before it is sent):
 * the policy's amount today and each payer's share, the way they paid, with the payer's shown name
 * (masked); null when the rules refuse it now (the approval would be refused, said at its row).
 */
async function approvalPreview(db: Db, now: Date, r: CardRefundRow): Promise<StaffCardRefund['approval']> {
  const [card] = await db.select().from(memberCards).where(eq(memberCards.id, r.cardId));
  if (!card) return null;
  const check = await refundCheck(db, card, now, r.id);
  if (check.why) return null;
  const shares = (await refundShares(db, check.order.id, check.quote.amountCents)).filter((s) => s.cents > 0);
  const attemptIds = shares.map((s) => s.payment.attemptId).filter((id): id is number => id !== null);
  const ledgerIds = shares.map((s) => s.payment.ledgerId).filter((id): id is number => id !== null);
  const attempts = attemptIds.length
    ? await db
        .select({ id: paymentAttempts.id, payer: paymentAttempts.payerAccountId })
        .from(paymentAttempts)
        .where(inArray(paymentAttempts.id, attemptIds))
    : [];
  const ledgers = ledgerIds.length
    ? await db
        .select({ id: balanceLedger.id, payer: balanceLedger.accountId })
        .from(balanceLedger)
        .where(inArray(balanceLedger.id, ledgerIds))
    : [];
  const payerOf = (p: (typeof shares)[number]['payment']) =>
    (p.attemptId !== null ? attempts.find((a) => a.id === p.attemptId)?.payer : ledgers.find((l) => l.id === p.ledgerId)?.payer) ?? null;
  const names = await shownNames(
    db,
    shares.map((s) => payerOf(s.payment)).filter((id): id is number => id !== null),
  );
  return {
    amountCents: check.quote.amountCents,
    parts: shares.map((s) => {
      const payer = payerOf(s.payment);
      return {
        method: s.payment.provider,
        cents: s.cents,
        payer: payer === r.accountId ? ('member' as const) : ('friend' as const),
        payerName: payer === null ? null : (names.get(payer) ?? null),
      };
    }),
  };
}

/** The request locked for a decision, and the state the chart moves it to on `event` (30044 when it refuses). */
async function lockRequest(tx: Tx, id: number, event: CardRefundEvent['type']): Promise<{ r: CardRefundRow; state: CardRefundState }> {
  const q = tx.select().from(cardRefunds).where(eq(cardRefunds.id, id));
  const [r] = await q.for('update');
  if (!r) throw new ApiError(Errors.notFound, { field: 'id' });
  const state = nextCardRefundState(r.state, event);
  if (!state) throw new ApiError(Errors.cardRefundNotInState);
  return { r, state };
}

/** Writes the request's move where it is still in the state it was decided on. */
async function writeRequest(tx: Tx, r: CardRefundRow, set: Partial<typeof cardRefunds.$inferInsert>): Promise<CardRefundRow> {
  const [row] = await tx
    .update(cardRefunds)
    .set(set)
    .where(and(eq(cardRefunds.id, r.id), guards.still(cardRefunds.state, r.state)))
    .returning();
  if (!row) throw new ApiError(Errors.cardRefundNotInState);
  return row;
}

/** Staff reject a pending request with the reason the member reads; who and when kept; the member is notified. */
export async function rejectCardRefund(
  db: Db,
  clock: Clock,
  staffId: number,
  id: number,
  reason: string,
  audit?: Audit,
): Promise<CardRefundRow> {
  return decide(db, async (tx) => {
    const now = clock.now();
    const { r, state } = await lockRequest(tx, id, 'cardRefund.reject');
    const row = await writeRequest(tx, r, { state, reason, decidedBy: staffId, decidedAt: now });
    const [card] = await tx.select().from(memberCards).where(eq(memberCards.id, r.cardId));
    await tx.insert(notifications).values({ accountId: r.accountId, createdAt: now, ...cardRefundRejectedNotice(card!, reason) });
    await audit?.(tx, { action: 'card-refund.reject', subjectKind: 'card-refund', subjectId: r.id, reason });
    return row;
  });
}

/**
 * Staff approve a pending request (decision 030), in one transaction: the request, then the member
 * and the card (the booking decisions' order: a booking with the card waits or is waited for), then
 * the order are locked; every rule is checked again (a refusal leaves it pending, for staff to reject
 * with the reason); the amount is the policy's now; the card moves by its chart to invalid, the order
 * to refunding; each applied payment gets its share back through the one refund path (the balance at
 * once, a provider's asked right after the commit); the order follows its refunds (refund done or
 * failed); the member is notified.
 */
export async function approveCardRefund(deps: Deps, staffId: number, id: number, audit?: Audit): Promise<CardRefundRow> {
  const { db, clock } = deps;
  const [pre] = await db.select({ cardId: cardRefunds.cardId }).from(cardRefunds).where(eq(cardRefunds.id, id));
  if (pre) await catchUpCard(db, clock.now(), pre.cardId);
  const toRun: number[] = [];
  const row = await decide(db, async (tx) => {
    const now = clock.now();
    const { r, state } = await lockRequest(tx, id, 'cardRefund.approve');
    const card = await lockMyCard(tx, now, r.accountId, r.cardId);
    const check = await refundCheck(tx, card, now, r.id);
    if (check.why) throw new ApiError(Errors[check.why]);
    const status = nextCardStatus(card.status, 'card.refund', cardFactsOf(card));
    if (!status) throw new ApiError(Errors.cardStatusForbids);
    const [gone] = await tx
      .update(memberCards)
      .set({ status })
      .where(and(eq(memberCards.id, card.id), guards.still(memberCards.status, card.status)))
      .returning();
    if (!gone) throw new ApiError(Errors.cardStatusForbids);
    const oq = tx.select().from(orders).where(eq(orders.id, r.orderId));
    const [order] = await oq.for('update');
    const refunding = order && nextOrderState(order.state, 'refund.request');
    if (!refunding) throw new ApiError(Errors.refundNotBought);
    await tx.update(orders).set({ state: refunding }).where(eq(orders.id, order.id));
    for (const { payment, cents } of await refundShares(tx, order.id, check.quote.amountCents)) {
      if (cents <= 0) continue;
      const { refund, runAfterCommit } = await requestRefund(tx, clock, payment, cents, 'order_refund', `card-refund:${r.id}`);
      if (runAfterCommit) toRun.push(refund.id);
    }
    await syncOrderRefund(tx, now, order.id);
    const done = await writeRequest(tx, r, { state, amountCents: check.quote.amountCents, decidedBy: staffId, decidedAt: now });
    await tx
      .insert(notifications)
      .values({ accountId: r.accountId, createdAt: now, ...cardRefundApprovedNotice(card, check.quote.amountCents) });
    await audit?.(tx, { action: 'card-refund.approve', subjectKind: 'card-refund', subjectId: r.id });
    return done;
  });
  await runRefundsNow(deps, toRun);
  return row;
}
