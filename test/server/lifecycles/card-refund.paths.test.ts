import { desc, eq } from 'drizzle-orm';
import { expect } from 'vitest';
import { cardRefundMachine } from '../../../machines/domain/card-refund.machine';
import { memberCards, notifications } from '../../../src/server/db/schema/index';
import { cardRow, DAY } from '../booking/support';
import { askRefund, boughtCard, cancelRefund, cardRefundRow, myRefund, orderState, staffRefund } from '../cards/refund-support';
import { balance, newStaff } from '../orders/support';
import { startTestServer } from '../support/harness';
import { accepted, defineServerPaths } from '../support/server-paths';

/**
 * The card-refund chart (decision 030) against the server: a member who bought a 20-use
 * card with the balance (¥199) and used 7 of it asks for its refund, the policy agreed to
 * (POST /customers/cards/refund: 199.00 × 13/20 × 90% = ¥116.41); staff approve it (the card invalid,
 * the money back to the balance, the order refund done) or reject it with a reason
 * (POST /staff/card-refunds/approve | reject); the member may cancel it while it waits
 * (POST /customers/cards/refund/cancel). Each state is read from `card_refunds` and from what the
 * member is told (GET /customers/cards/refund/mine), with what it promises for the card, the money,
 * the order, the staff queue and the notices.
 */
const s = await startTestServer({ seed: true });
const REASON = '卡已使用过半';
const AMOUNT = 11_641;

interface Request {
  token: string;
  accountId: number;
  cardId: number;
  orderId: number;
  id: number;
  staff: { id: number; token: string };
  noticesBefore: number;
}

const mine = async (w: Request) => (await myRefund(s, w.token, w.cardId)).body.data;
const detail = async (w: Request) => (await s.call('GET', `/api/customers/cards/detail?id=${w.cardId}`, { token: w.token })).body.data;
const inQueue = async (w: Request) =>
  ((await s.call('GET', '/api/staff/card-refunds', { token: w.staff.token })).body.data as Array<{ id: number }>).some(
    (t) => t.id === w.id,
  );
const noticesOf = (accountId: number) =>
  s.deps.db.select().from(notifications).where(eq(notifications.accountId, accountId)).orderBy(desc(notifications.id));
const refundOffer = async (w: Request) => (await detail(w)).offers.find((o: { operation: string }) => o.operation === 'refund');

/** Not refunded: the card is in use with its 13 uses, the order paid, no money back. */
async function untouched(w: Request) {
  const card = await cardRow(s, w.cardId);
  expect([card.status, card.usesLeft]).toEqual(['in_use', 13]);
  expect(await orderState(s, w.orderId)).toBe('paid');
  expect(await balance(s, w.token)).toBe(0);
}

/** Ended without a refund: the card may be asked for again, it left the queue. */
async function endedWithoutRefund(w: Request) {
  await untouched(w);
  expect(await refundOffer(w)).toMatchObject({ allowed: true });
  expect(await inQueue(w)).toBe(false);
  expect((await mine(w)).canCancel).toBe(false);
}

defineServerPaths<Request>(s, {
  machine: cardRefundMachine,
  record: 'a card refund request',
  async start() {
    const { m, card, order } = await boughtCard(s);
    await s.deps.db
      .update(memberCards)
      .set({ status: 'in_use', usesLeft: 13, validFrom: s.clock.now(), validUntil: new Date(s.clock.now().getTime() + 80 * DAY) })
      .where(eq(memberCards.id, card.id));
    const r = await askRefund(s, m.token, card.id);
    accepted(r, 'ask');
    return {
      token: m.token,
      accountId: m.id,
      cardId: card.id,
      orderId: order.id,
      id: r.body.data.id,
      staff: await newStaff(s),
      noticesBefore: (await noticesOf(m.id)).length,
    };
  },
  events: {
    'cardRefund.approve': async (w) => accepted(await staffRefund(s, w.staff.token, 'approve', w.id), 'approve'),
    'cardRefund.reject': async (w) => accepted(await staffRefund(s, w.staff.token, 'reject', w.id, REASON), 'reject'),
    'cardRefund.cancel': async (w) => accepted(await cancelRefund(s, w.token, w.id), 'cancel'),
  },
  async read(w) {
    return { stored: (await cardRefundRow(s, w.id)).state, shown: (await mine(w)).state };
  },
  states: {
    // waiting for staff: in their queue with the quote, nobody decided, the member may cancel it, no second request offered
    pending: async (w) => {
      const row = await cardRefundRow(s, w.id);
      expect([row.quotedCents, row.amountCents, row.decidedBy, row.decidedAt]).toEqual([AMOUNT, null, null, null]);
      expect(await inQueue(w)).toBe(true);
      expect((await mine(w)).canCancel).toBe(true);
      expect(await refundOffer(w)).toMatchObject({ allowed: false, code: 30004 });
      await untouched(w);
    },
    // approved (who and when kept): the card invalid, the policy's amount back in the balance, the order refund done, the member told
    approved: async (w) => {
      const row = await cardRefundRow(s, w.id);
      expect([row.decidedBy, row.decidedAt?.getTime(), row.amountCents]).toEqual([w.staff.id, s.clock.now().getTime(), AMOUNT]);
      expect((await cardRow(s, w.cardId)).status).toBe('invalid');
      expect(await balance(s, w.token)).toBe(AMOUNT);
      expect(await orderState(s, w.orderId)).toBe('refunded');
      expect(await mine(w)).toMatchObject({ amountCents: AMOUNT, orderState: 'refunded', canCancel: false });
      expect((await noticesOf(w.accountId)).length).toBe(w.noticesBefore + 1);
      expect(await inQueue(w)).toBe(false);
      expect(await refundOffer(w)).toMatchObject({ allowed: false, code: 30011 });
    },
    // rejected with the reason the member reads and is told; the card stays as it was
    rejected: async (w) => {
      const row = await cardRefundRow(s, w.id);
      expect([row.decidedBy, row.reason, row.amountCents]).toEqual([w.staff.id, REASON, null]);
      expect((await mine(w)).reason).toBe(REASON);
      expect((await noticesOf(w.accountId))[0]?.body).toContain(REASON);
      await endedWithoutRefund(w);
    },
    // the member called it off: kept as theirs, nobody told
    cancelled: async (w) => {
      const row = await cardRefundRow(s, w.id);
      expect([row.decidedBy, row.reason]).toEqual([w.accountId, null]);
      expect((await noticesOf(w.accountId)).length).toBe(w.noticesBefore);
      await endedWithoutRefund(w);
    },
  },
});
