import { desc, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { accounts, bookings, memberCards, notifications, payments, refunds } from '../../../src/server/db/schema/index';
import { book, cardRow, DAY, newCard, newClass } from '../booking/support';
import { balance, newMember, newStaff } from '../orders/support';
import { dev, runRefundJobs } from '../orders/refund-support';
import { startTestServer } from '../support/harness';
import { assertMoneyInvariants } from '../support/money-invariants';
import { askRefund, boughtCard, cancelRefund, cardRefundRow, myRefund, orderState, quote, staffRefund } from './refund-support';
import { applyFor, phoneOf } from './transfer-support';

/**
 * Card refunds through the API (decision 030) on the real server: the policy's quote, the
 * request and each refusal with its code, cancel while pending, the staff queue (approve: the money
 * goes back by the way it was paid, the order refunding → refund done / refund failed; reject with a
 * reason), and who decided and when.
 */
const s = await startTestServer({ seed: true });
const refusal = (r: { status: number; body: { code: number } }) => [r.status, r.body.code];
const detail = async (token: string, id: number) => (await s.call('GET', `/api/customers/cards/detail?id=${id}`, { token })).body.data;
const refundOffer = async (token: string, id: number) =>
  (await detail(token, id)).offers.find((o: { operation: string }) => o.operation === 'refund');
const refundsOf = (orderId: number) =>
  s.deps.db
    .select({ id: refunds.id, amountCents: refunds.amountCents, state: refunds.state, cause: refunds.cause, provider: payments.provider })
    .from(refunds)
    .innerJoin(payments, eq(payments.id, refunds.paymentId))
    .where(eq(payments.orderId, orderId));

describe('the quote (GET /customers/cards/refund/quote)', () => {
  it("a card never used gives back all it took; a started one the part left less its type's 10% fee, cents rounded down", async () => {
    const { m, card } = await boughtCard(s);
    expect((await quote(s, m.token, card.id)).body.data).toEqual({
      cardId: card.id,
      paidCents: 19_900,
      leftPerMille: 1000,
      feePercent: 0,
      amountCents: 19_900,
      money: expect.objectContaining({ paidCents: 19_900 }),
      back: [{ who: 'me', name: null, method: 'balance', cents: 19_900 }],
    });
    await s.deps.db
      .update(memberCards)
      .set({ status: 'in_use', usesLeft: 13, validFrom: s.clock.now(), validUntil: new Date(s.clock.now().getTime() + 90 * DAY) })
      .where(eq(memberCards.id, card.id));
    // 199.00 × 13/20 × 90% = 116.415 → 116.41
    expect((await quote(s, m.token, card.id)).body.data).toEqual({
      cardId: card.id,
      paidCents: 19_900,
      leftPerMille: 650,
      feePercent: 10,
      amountCents: 11_641,
      money: expect.objectContaining({ paidCents: 19_900 }),
      back: [{ who: 'me', name: null, method: 'balance', cents: 11_641 }],
    });
  });

  it('a time card gives back the whole days of validity left of its validity days', async () => {
    const { m, card } = await boughtCard(s, 'balance', { cardType: 'time-based', uses: null, validityDays: 100 });
    await s.deps.db
      .update(memberCards)
      .set({ status: 'in_use', validUntil: new Date(s.clock.now().getTime() + 40.5 * DAY) })
      .where(eq(memberCards.id, card.id));
    // 40 whole days of 100: 199.00 × 0.4 × 90% = 71.64
    expect((await quote(s, m.token, card.id)).body.data).toMatchObject({ leftPerMille: 400, amountCents: 7_164 });
  });

  it("another member's card is 404 (as absent) for the quote, the request and the latest request", async () => {
    const { card } = await boughtCard(s);
    const other = await newMember(s);
    expect(refusal(await quote(s, other.token, card.id))).toEqual([404, 70004]);
    expect(refusal(await askRefund(s, other.token, card.id))).toEqual([404, 70004]);
    expect(refusal(await myRefund(s, other.token, card.id))).toEqual([404, 70004]);
  });
});

describe('the request and its refusals (POST /customers/cards/refund)', () => {
  it('the refund policy must be agreed to (70003 naming agreed)', async () => {
    const { m, card } = await boughtCard(s);
    const r = await askRefund(s, m.token, card.id, {});
    expect([r.status, r.body.code, r.body.field]).toEqual([400, 70003, 'agreed']);
  });

  it("refuses by the card's status: invalid 30011, expired 30012, transferred 30013 (the chart's card.refund)", async () => {
    for (const [status, code] of [
      ['invalid', 30011],
      ['expired', 30012],
      ['transferred', 30013],
    ] as const) {
      const { m, card } = await boughtCard(s);
      await s.deps.db
        .update(memberCards)
        .set({ status, validFrom: s.clock.now(), validUntil: new Date(s.clock.now().getTime() + (status === 'expired' ? -DAY : 90 * DAY)) })
        .where(eq(memberCards.id, card.id));
      expect(refusal(await askRefund(s, m.token, card.id))).toEqual([409, code]);
      expect(refusal(await quote(s, m.token, card.id))).toEqual([409, code]);
      expect(await refundOffer(m.token, card.id)).toMatchObject({ allowed: false, code });
    }
  });

  it('a frozen card may be refunded (the chart takes card.refund from frozen)', async () => {
    const { m, card } = await boughtCard(s);
    await s.deps.db
      .update(memberCards)
      .set({
        status: 'frozen',
        validFrom: s.clock.now(),
        validUntil: new Date(s.clock.now().getTime() + 90 * DAY),
        frozenFrom: '2020-01-01',
        frozenUntil: '2099-01-01',
      })
      .where(eq(memberCards.id, card.id));
    expect((await askRefund(s, m.token, card.id)).body.code).toBe(200);
  });

  it('a card not bought by me in an order (granted, or received by transfer) is refused 30041', async () => {
    const m = await newMember(s);
    const granted = await newCard(s, m.id);
    expect(refusal(await askRefund(s, m.token, granted.id))).toEqual([409, 30041]);
    const received = await newCard(s, m.id, { transferredFromCardId: granted.id });
    expect(refusal(await quote(s, m.token, received.id))).toEqual([409, 30041]);
    expect(await refundOffer(m.token, received.id)).toMatchObject({ allowed: false, code: 30041 });
  });

  it('a type never refunded (gift, family sub, benefits: null fee on the card type) is refused 30040', async () => {
    const { m, card } = await boughtCard(s);
    await s.deps.db.update(memberCards).set({ cardType: 'gift' }).where(eq(memberCards.id, card.id));
    expect(refusal(await askRefund(s, m.token, card.id))).toEqual([409, 30040]);
  });

  it('an unfinished application (a transfer, or a refund request already waiting) is refused 30004; a refund request stops freeze, extension and transfer with 30004', async () => {
    const { m, card } = await boughtCard(s);
    const to = await newMember(s);
    const applied = await applyFor(s, m.token, card.id, await phoneOf(s, to.id));
    expect(applied.body.code).toBe(200);
    expect(refusal(await askRefund(s, m.token, card.id))).toEqual([409, 30004]);
    await s.call('POST', '/api/customers/transfers/cancel', { token: m.token, body: { id: applied.body.data.id } });
    expect((await askRefund(s, m.token, card.id)).body.code).toBe(200);
    expect(refusal(await askRefund(s, m.token, card.id))).toEqual([409, 30004]);
    expect(refusal(await applyFor(s, m.token, card.id, await phoneOf(s, to.id)))).toEqual([409, 30004]);
    await s.deps.db
      .update(memberCards)
      .set({ status: 'in_use', validFrom: s.clock.now(), validUntil: new Date(s.clock.now().getTime() + 90 * DAY) })
      .where(eq(memberCards.id, card.id));
    const offers = (await detail(m.token, card.id)).offers as Array<{ operation: string; code: number | null }>;
    expect(offers.filter((o) => ['freeze', 'transfer', 'refund'].includes(o.operation)).map((o) => [o.operation, o.code])).toEqual([
      ['freeze', 30004],
      ['transfer', 30004],
      ['refund', 30004],
    ]);
  });

  it('bookings still ahead or running on the card are refused 30043', async () => {
    const { m, card } = await boughtCard(s);
    const cls = await newClass(s);
    expect((await book(s, m.token, cls.id, card.id)).body.code).toBe(200);
    expect(refusal(await askRefund(s, m.token, card.id))).toEqual([409, 30043]);
    expect(await refundOffer(m.token, card.id)).toMatchObject({ allowed: false, code: 30043 });
  });

  it('nothing left to give back (no uses left) is refused 30042', async () => {
    const { m, card } = await boughtCard(s);
    await s.deps.db
      .update(memberCards)
      .set({ status: 'in_use', usesLeft: 0, validFrom: s.clock.now(), validUntil: new Date(s.clock.now().getTime() + 90 * DAY) })
      .where(eq(memberCards.id, card.id));
    expect(refusal(await askRefund(s, m.token, card.id))).toEqual([409, 30042]);
  });

  it('the card page offers the refund when a request would be accepted; the request waits with the quote, and I may cancel it while it waits (30044 after)', async () => {
    const { m, card } = await boughtCard(s);
    expect(await refundOffer(m.token, card.id)).toEqual({ operation: 'refund', allowed: true, code: null, message: null });
    expect((await detail(m.token, card.id)).operations).toContain('refund');
    expect((await myRefund(s, m.token, card.id)).body.data).toBeNull();
    const r = await askRefund(s, m.token, card.id);
    expect(r.body.data).toMatchObject({ state: 'pending', quotedCents: 19_900, amountCents: null, orderState: 'paid', canCancel: true });
    const c = await cancelRefund(s, m.token, r.body.data.id);
    expect(c.body.data).toMatchObject({ state: 'cancelled', canCancel: false });
    // a member's cancel is not a staff decision: not in the staff's decided list
    const staffer = await newStaff(s);
    const decided = (await s.call('GET', '/api/staff/card-refunds?decided=1', { token: staffer.token })).body.data as Array<{ id: number }>;
    expect(decided.map((d) => d.id)).not.toContain(r.body.data.id);
    expect((await cardRefundRow(s, r.body.data.id)).decidedBy).toBe(m.id);
    expect(refusal(await cancelRefund(s, m.token, r.body.data.id))).toEqual([409, 30044]);
    const other = await newMember(s);
    expect(refusal(await cancelRefund(s, other.token, r.body.data.id))).toEqual([404, 70004]);
  });
});

describe('staff decide (GET /staff/card-refunds, POST approve | reject)', () => {
  it('members may not use the staff queue (403)', async () => {
    const { m, card } = await boughtCard(s);
    const id = (await askRefund(s, m.token, card.id)).body.data.id as number;
    expect((await s.call('GET', '/api/staff/card-refunds', { token: m.token })).status).toBe(403);
    expect((await staffRefund(s, m.token, 'approve', id)).status).toBe(403);
  });

  it("the queue says what approving would give back now, per way of payment and payer, with the member's masked name", async () => {
    const { m, card } = await boughtCard(s, 'wechat');
    await s.deps.db.update(accounts).set({ name: '王小涵' }).where(eq(accounts.id, m.id));
    const staff = await newStaff(s);
    const id = (await askRefund(s, m.token, card.id)).body.data.id as number;
    const queue = (await s.call('GET', '/api/staff/card-refunds', { token: staff.token })).body.data as Array<{ id: number }>;
    expect(queue.find((q) => q.id === id)).toMatchObject({
      memberName: '**涵',
      approval: { amountCents: 19_900, parts: [{ method: 'wechat', cents: 19_900, payer: 'member' }] },
    });
    // decided rows say what was given back, not a preview
    await staffRefund(s, staff.token, 'approve', id);
    const decided = (await s.call('GET', '/api/staff/card-refunds?decided=1', { token: staff.token })).body.data as Array<{ id: number }>;
    expect(decided.find((q) => q.id === id)).toMatchObject({ approval: null, amountCents: 19_900 });
  });

  it('reject with a reason: the member reads it and is notified; who and when kept; the card stays; a decided request is 30044', async () => {
    const { m, card } = await boughtCard(s);
    const staff = await newStaff(s);
    const id = (await askRefund(s, m.token, card.id)).body.data.id as number;
    const queue = (await s.call('GET', '/api/staff/card-refunds', { token: staff.token })).body.data as Array<{ id: number }>;
    expect(queue.find((q) => q.id === id)).toMatchObject({ state: 'pending', cardId: card.id, quotedCents: 19_900 });
    expect(refusal(await staffRefund(s, staff.token, 'reject', id, ''))).toEqual([400, 70003]);
    const r = await staffRefund(s, staff.token, 'reject', id, '卡已使用过半');
    expect(r.body.data).toMatchObject({
      state: 'rejected',
      reason: '卡已使用过半',
      decidedBy: staff.id,
      decidedByName: await phoneOf(s, staff.id),
    });
    // decided: off the queue, first in the staff's decided list with who and when (decision 031)
    expect(
      ((await s.call('GET', '/api/staff/card-refunds', { token: staff.token })).body.data as Array<{ id: number }>).map((q) => q.id),
    ).not.toContain(id);
    const decided = (await s.call('GET', '/api/staff/card-refunds?decided=1', { token: staff.token })).body.data as Array<{
      id: number;
      decidedAt: string;
    }>;
    expect(decided[0]).toMatchObject({
      id,
      state: 'rejected',
      decidedBy: staff.id,
      decidedByName: await phoneOf(s, staff.id),
      decidedAt: s.clock.now().toISOString(),
    });
    expect((await s.call('GET', '/api/staff/card-refunds?decided=1', { token: m.token })).status).toBe(403);
    expect((await myRefund(s, m.token, card.id)).body.data).toMatchObject({ state: 'rejected', reason: '卡已使用过半', canCancel: false });
    const [n] = await s.deps.db.select().from(notifications).where(eq(notifications.accountId, m.id)).orderBy(desc(notifications.id));
    expect(n!.body).toContain('卡已使用过半');
    expect((await cardRow(s, card.id)).status).toBe('inactive');
    expect(refusal(await staffRefund(s, staff.token, 'approve', id))).toEqual([409, 30044]);
    expect(refusal(await staffRefund(s, staff.token, 'reject', 999_999, 'x'))).toEqual([404, 70004]);
  });

  it('approve a balance-paid card: the card is invalid, the money back in the balance at once, the order refund done; once (30044 again)', async () => {
    const { m, card, order } = await boughtCard(s);
    const staff = await newStaff(s);
    const id = (await askRefund(s, m.token, card.id)).body.data.id as number;
    expect(await balance(s, m.token)).toBe(0);
    const r = await staffRefund(s, staff.token, 'approve', id);
    expect(r.body.data).toMatchObject({ state: 'approved', amountCents: 19_900, decidedBy: staff.id, orderState: 'refunded' });
    expect((await cardRow(s, card.id)).status).toBe('invalid');
    expect(await balance(s, m.token)).toBe(19_900);
    expect(await refundsOf(order.id)).toMatchObject([
      { amountCents: 19_900, state: 'succeeded', cause: 'order_refund', provider: 'balance' },
    ]);
    expect((await myRefund(s, m.token, card.id)).body.data).toMatchObject({ state: 'approved', orderState: 'refunded' });
    expect(refusal(await staffRefund(s, staff.token, 'approve', id))).toEqual([409, 30044]);
    expect(await refundOffer(m.token, card.id)).toMatchObject({ allowed: false, code: 30011 });
    await assertMoneyInvariants(s.deps.db);
  });

  it('approval checks the rules again: a booking on the card refuses it 30043 and the request stays pending', async () => {
    const { m, card } = await boughtCard(s);
    const staff = await newStaff(s);
    const id = (await askRefund(s, m.token, card.id)).body.data.id as number;
    const cls = await newClass(s);
    // the member's own booking waits for the decision (30004); one written past the member's API
    // (the front desk's, an import) is what the approval's second look is for
    expect((await book(s, m.token, cls.id, card.id)).body.code).toBe(30004);
    await s.deps.db
      .insert(bookings)
      .values({ classId: cls.id, accountId: m.id, cardId: card.id, state: 'booked', createdAt: s.clock.now(), bookedAt: s.clock.now() });
    expect(refusal(await staffRefund(s, staff.token, 'approve', id))).toEqual([409, 30043]);
    expect((await cardRefundRow(s, id)).state).toBe('pending');
  });

  for (const provider of ['wechat', 'alipay'] as const) {
    it(`approve a card paid by ${provider}: the order refunding, the provider's refund asked, its answer makes the order refund done`, async () => {
      const { m, card, order } = await boughtCard(s, provider);
      const staff = await newStaff(s);
      const id = (await askRefund(s, m.token, card.id)).body.data.id as number;
      const r = await staffRefund(s, staff.token, 'approve', id);
      expect(r.body.data).toMatchObject({ state: 'approved', amountCents: 19_900 });
      expect((await cardRow(s, card.id)).status).toBe('invalid');
      const [rf] = await refundsOf(order.id);
      expect(rf).toMatchObject({ amountCents: 19_900, cause: 'order_refund', provider });
      // the stand-in answers at once (succeeded) or after its notification/query
      for (let i = 0; i < 5 && (await orderState(s, order.id)) !== 'refunded'; i++) {
        s.clock.advance(10 * 60_000);
        await runRefundJobs(s, rf!.id);
      }
      expect(await orderState(s, order.id)).toBe('refunded');
      await assertMoneyInvariants(s.deps.db);
    });
  }

  it('a refund the provider refuses makes the order refund failed (listed for staff with the reason); settled by staff, refund done', async () => {
    const { m, card, order, outTradeNo } = await boughtCard(s, 'wechat');
    const staff = await newStaff(s);
    expect((await dev(s, 'wechat', '/refunds/arrange', { outTradeNo, refuse: 'NOT_ENOUGH' })).status).toBe(200);
    const id = (await askRefund(s, m.token, card.id)).body.data.id as number;
    expect((await staffRefund(s, staff.token, 'approve', id)).body.data).toMatchObject({ state: 'approved', orderState: 'refund_failed' });
    const [rf] = await refundsOf(order.id);
    const attention = (await s.call('GET', '/api/staff/refunds/attention', { token: staff.token })).body.data as Array<{
      refundId: number;
      failureCode: string;
    }>;
    expect(attention.find((a) => a.refundId === rf!.id)).toMatchObject({ failureCode: 'NOT_ENOUGH' });
    // the member reads the provider's words while the order is refund failed (decision 031)
    const failedRow = await s.deps.db.select({ message: refunds.failureMessage }).from(refunds).where(eq(refunds.id, rf!.id));
    expect(failedRow[0]!.message).toBeTruthy();
    expect((await myRefund(s, m.token, card.id)).body.data).toMatchObject({
      state: 'approved',
      orderState: 'refund_failed',
      failure: failedRow[0]!.message,
    });
    expect((await s.call('POST', '/api/staff/refunds/settle', { token: staff.token, body: { refundId: rf!.id } })).body.data.state).toBe(
      'settled',
    );
    expect(await orderState(s, order.id)).toBe('refunded');
    expect((await myRefund(s, m.token, card.id)).body.data).toMatchObject({ orderState: 'refunded', failure: null });
  });
});
