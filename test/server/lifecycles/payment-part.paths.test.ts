import { and, eq } from 'drizzle-orm';
import { expect } from 'vitest';
import { paymentPartMachine } from '../../../machines/domain/payment-part.machine';
import { paymentParts, payments, refunds } from '../../../src/server/db/schema/index';
import { balance, create, credit, newGoods, newMember, orderRow } from '../orders/support';
import { startTestServer } from '../support/harness';
import { assertMoneyInvariants } from '../support/money-invariants';
import { accepted, defineServerPaths } from '../support/server-paths';

/**
 * The payment part chart (decision 021) against the server. The record is one part of a split order:
 * a member with ¥500 on the balance splits a ¥199 order into ¥100 (the record, seq 2) and ¥99 (seq 3,
 * left unpaid so the order never completes). `part.paid` is the member paying that part by balance;
 * `part.end` is the order no longer keeping it, in both ways a member causes: undoing the split, or
 * cancelling the order (one input each). Refused events are real requests too: paying a part already
 * paid or ended, undoing a split that is undone, cancelling a cancelled order. Each state is read from
 * `payment_parts` and from the part as GET /orders/detail shows it, and checked against the money:
 * the payments applied to the part, its refunds, the balance.
 */
const s = await startTestServer({ seed: true });

const CREDIT = 50_000;
const PART = 10_000;
const SEQ = 2;

interface Part {
  token: string;
  accountId: number;
  orderNo: string;
  how: 'unsplit' | 'cancel';
}

const detail = async (w: Part) => (await s.call('GET', `/api/orders/detail?orderNo=${w.orderNo}`, { token: w.token })).body.data;
async function row(w: Part) {
  const o = await orderRow(s, w.orderNo);
  const [p] = await s.deps.db
    .select()
    .from(paymentParts)
    .where(and(eq(paymentParts.orderId, o.id), eq(paymentParts.seq, SEQ)));
  return p!;
}
const paymentsOf = async (w: Part) =>
  s.deps.db
    .select()
    .from(payments)
    .where(eq(payments.partId, (await row(w)).id));
async function refundsOf(w: Part) {
  const ids = (await paymentsOf(w)).map((p) => p.id);
  const all = await s.deps.db.select().from(refunds);
  return all.filter((r) => ids.includes(r.paymentId));
}

/** What the order still waits for once the part ended: the whole again after an un-split, nothing once cancelled. */
const whatIsLeft = (w: Part) => (w.how === 'unsplit' ? 19_900 : 0);

defineServerPaths<Part>(s, {
  machine: paymentPartMachine,
  record: "a split order's part",
  inputs: { 'split undone': { how: 'unsplit' }, 'order cancelled': { how: 'cancel' } },
  async start(_s, input) {
    const m = await newMember(s);
    await credit(s, m.id, CREDIT);
    const g = await newGoods(s);
    const r = await create(s, m.token, { goodsId: g.id });
    accepted(r, 'create');
    const w: Part = { token: m.token, accountId: m.id, orderNo: r.body.data.orderNo as string, how: (input as { how: Part['how'] }).how };
    accepted(
      await s.call('POST', '/api/orders/split', { token: m.token, body: { orderNo: w.orderNo, parts: [PART, 19_900 - PART] } }),
      'split',
    );
    return w;
  },
  events: {
    'part.paid': async (w) =>
      accepted(
        await s.call('POST', '/api/orders/pay', { token: w.token, body: { orderNo: w.orderNo, method: 'balance', partSeq: SEQ } }),
        'pay the part by balance',
      ),
    'part.end': async (w) =>
      w.how === 'unsplit'
        ? accepted(await s.call('POST', '/api/orders/unsplit', { token: w.token, body: { orderNo: w.orderNo } }), 'undo the split')
        : accepted(await s.call('POST', '/api/orders/cancel', { token: w.token, body: { orderNo: w.orderNo } }), 'cancel the order'),
  },
  async read(w) {
    const shown = ((await detail(w)).parts as Array<{ seq: number; state: string }>).find((p) => p.seq === SEQ);
    return { stored: (await row(w)).state, shown: shown?.state ?? 'not shown' };
  },
  states: {
    // waiting for its payer: nothing taken, nothing given back, the order is still to pay
    unpaid: async (w) => {
      expect(await paymentsOf(w)).toEqual([]);
      expect(await balance(s, w.token)).toBe(CREDIT);
      const d = await detail(w);
      expect(d.state).toBe('unpaid');
      expect(d.money).toMatchObject({ appliedCents: 0, outstandingCents: 19_900 });
      expect(d.parts.find((p: { seq: number }) => p.seq === SEQ).paidBy).toBe(null);
    },
    // its money is the order's: one balance payment of the part's amount, taken from the balance once
    paid: async (w) => {
      const ps = await paymentsOf(w);
      expect(ps.map((p) => [p.provider, p.status, p.amountCents])).toEqual([['balance', 'paid', PART]]);
      expect(await refundsOf(w)).toEqual([]);
      expect(await balance(s, w.token)).toBe(CREDIT - PART);
      const d = await detail(w);
      // the other part still waits, so the order is not paid
      expect(d.state).toBe('unpaid');
      expect(d.money).toMatchObject({ appliedCents: PART, outstandingCents: 19_900 - PART });
      expect(d.parts.find((p: { seq: number }) => p.seq === SEQ).paidBy).toBe('balance');
    },
    // ended unpaid: nothing was taken, so nothing to give back; the order no longer counts it
    dropped: async (w) => {
      expect(await paymentsOf(w)).toEqual([]);
      expect(await balance(s, w.token)).toBe(CREDIT);
      const d = await detail(w);
      expect(d.money).toMatchObject({ appliedCents: 0, takenCents: 0, refundedCents: 0, outstandingCents: whatIsLeft(w) });
      expect(d.refunds).toEqual([]);
      await assertMoneyInvariants(s.deps.db);
    },
    // ended paid: its payment is refunded to the balance in full, once
    given_back: async (w) => {
      const rs = await refundsOf(w);
      expect(rs.map((r) => [r.amountCents, r.state, r.cause])).toEqual([
        [PART, 'succeeded', w.how === 'unsplit' ? 'split_undone' : 'order_cancelled'],
      ]);
      expect(await balance(s, w.token)).toBe(CREDIT);
      const d = await detail(w);
      // what the order keeps of it (applied less refunded) is nothing; it is no longer a live part
      expect(d.money).toMatchObject({
        appliedCents: PART,
        takenCents: PART,
        refundedCents: PART,
        refundingCents: 0,
        outstandingCents: whatIsLeft(w),
      });
      await assertMoneyInvariants(s.deps.db);
    },
  },
});
