import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { balanceLedger, paymentParts, payments, refunds } from '../../../src/server/db/schema/index';
import { decide } from '../../../src/server/db/transaction';
import { orderMoney } from '../../../src/server/services/orders/money';
import { RefundOverPaid, requestRefund } from '../../../src/server/services/refunds/request';
import { REFUND_QUERY_AFTER_MS, REFUND_RETRY_EVERY_MS } from '../../../src/server/services/refunds/run';
import { startTestServer } from '../support/harness';
import { assertMoneyInvariants, moneyInvariantBreaches } from '../support/money-invariants';
import { allDueJobs, dev, lateMoney, pendingJobs, refundRow } from './refund-support';
import { balance, create, credit, newGoods, newMember, newStaff, orderRow, pay } from './support';

/**
 * One refund path (decision 021): balance money comes back at once as a refund of the payment that
 * took it (a ledger credit in the same transaction); a provider's is a pending refund asked of the
 * provider right after the commit and by its jobs, moved by the refund chart on the provider's
 * answer, its notification or its query. Provider refunds run end to end against the WeChat Pay and
 * Alipay stand-ins, whose refunds are arranged per trade (processing, closed, refused, unreachable).
 */
describe('refunds', async () => {
  const s = await startTestServer({ seed: true });

  const partsOf = async (orderId: number) =>
    (await s.deps.db.select().from(paymentParts).where(eq(paymentParts.orderId, orderId)).orderBy(paymentParts.seq)).map((p) => [
      p.kind,
      p.amountCents,
      p.state,
    ]);
  const refundsOfOrder = async (orderId: number) =>
    s.deps.db
      .select({
        id: refunds.id,
        amountCents: refunds.amountCents,
        cause: refunds.cause,
        key: refunds.key,
        state: refunds.state,
        ledgerId: refunds.ledgerId,
        tryNo: refunds.tryNo,
        outRefundNo: refunds.outRefundNo,
        failureCode: refunds.failureCode,
      })
      .from(refunds)
      .innerJoin(payments, eq(payments.id, refunds.paymentId))
      .where(eq(payments.orderId, orderId))
      .orderBy(refunds.id);

  it('an order made with balance: the deduction is a paid part with its balance payment; paid by balance, the share too', async () => {
    const m = await newMember(s);
    await credit(s, m.id, 30_000);
    const g = await newGoods(s);
    const no = (await create(s, m.token, { goodsId: g.id, useBalance: true, expectedAmountToPayCents: 0 })).body.data.orderNo as string;
    const o = await orderRow(s, no);
    expect(await partsOf(o.id)).toEqual([['deduction', 19_900, 'paid']]);
    expect((await orderMoney(s.deps.db, [o.id])).get(o.id)).toEqual({
      appliedCents: 19_900,
      takenCents: 19_900,
      refundedCents: 0,
      refundingCents: 0,
      outstandingCents: 0,
      liveCents: 19_900,
    });
    const m2 = await newMember(s);
    await credit(s, m2.id, 30_000);
    const no2 = (await create(s, m2.token, { goodsId: g.id })).body.data.orderNo as string;
    const o2 = await orderRow(s, no2);
    expect((await orderMoney(s.deps.db, [o2.id])).get(o2.id)).toMatchObject({ appliedCents: 0, outstandingCents: 19_900 });
    expect((await pay(s, m2.token, no2, 'balance')).status).toBe(200);
    expect(await partsOf(o2.id)).toEqual([['share', 19_900, 'paid']]);
    const [p] = await s.deps.db.select().from(payments).where(eq(payments.orderId, o2.id));
    expect(p).toMatchObject({ provider: 'balance', status: 'paid', amountCents: 19_900, source: 'balance' });
    const [debit] = await s.deps.db.select().from(balanceLedger).where(eq(balanceLedger.id, p!.ledgerId!));
    expect(debit).toMatchObject({ accountId: m2.id, changeCents: -19_900, reason: 'order', orderId: o2.id });
    await assertMoneyInvariants(s.deps.db);
  });

  it("cancel: the deduction comes back as its payment's refund (a cancel ledger row), once; the share is dropped", async () => {
    const m = await newMember(s);
    await credit(s, m.id, 1_000);
    const g = await newGoods(s);
    const no = (await create(s, m.token, { goodsId: g.id, useBalance: true })).body.data.orderNo as string;
    const o = await orderRow(s, no);
    expect(await balance(s, m.token)).toBe(0);
    expect((await s.call('POST', '/api/orders/cancel', { token: m.token, body: { orderNo: no } })).status).toBe(200);
    expect(await balance(s, m.token)).toBe(1_000);
    expect(await partsOf(o.id)).toEqual([
      ['deduction', 1_000, 'given_back'],
      ['share', 18_900, 'dropped'],
    ]);
    const [r] = await refundsOfOrder(o.id);
    expect(r).toMatchObject({ amountCents: 1_000, cause: 'order_cancelled', key: `cancel:${o.id}`, state: 'succeeded' });
    const [credit_] = await s.deps.db.select().from(balanceLedger).where(eq(balanceLedger.id, r!.ledgerId!));
    expect(credit_).toMatchObject({ changeCents: 1_000, reason: 'cancel', orderId: o.id });
    // a second cancel is refused and gives nothing twice
    expect((await s.call('POST', '/api/orders/cancel', { token: m.token, body: { orderNo: no } })).body.code).toBe(40003);
    expect(await refundsOfOrder(o.id)).toHaveLength(1);
    expect(await balance(s, m.token)).toBe(1_000);
    expect((await orderMoney(s.deps.db, [o.id])).get(o.id)).toMatchObject({
      appliedCents: 1_000,
      refundedCents: 1_000,
      outstandingCents: 0,
      liveCents: 0,
    });
    // the member reads it on the order: its parts, its sums, the refund to the balance
    const d = (await s.call('GET', `/api/orders/detail?orderNo=${no}`, { token: m.token })).body.data;
    expect(d.parts).toEqual([
      {
        seq: 0,
        kind: 'deduction',
        amountCents: 1_000,
        state: 'given_back',
        paidBy: 'balance',
        friendName: null,
        withFriend: false,
        holder: null,
        actions: [],
        payFailed: false,
      },
      {
        seq: 1,
        kind: 'share',
        amountCents: 18_900,
        state: 'dropped',
        paidBy: null,
        friendName: null,
        withFriend: false,
        holder: null,
        actions: [],
        payFailed: false,
      },
    ]);
    expect(d.money).toMatchObject({ appliedCents: 1_000, refundedCents: 1_000, refundingCents: 0, outstandingCents: 0 });
    expect(d.refunds).toMatchObject([
      { amountCents: 1_000, cause: 'order_cancelled', state: 'succeeded', to: 'balance', failureMessage: null },
    ]);
    await assertMoneyInvariants(s.deps.db);
  });

  it('asking twice with one key is one refund; never more than was paid', async () => {
    const m = await newMember(s);
    await credit(s, m.id, 500);
    const g = await newGoods(s);
    const o = await orderRow(s, (await create(s, m.token, { goodsId: g.id, useBalance: true })).body.data.orderNo);
    const [p] = await s.deps.db.select().from(payments).where(eq(payments.orderId, o.id));
    const ask = (cents: number, key: string) => decide(s.deps.db, (tx) => requestRefund(tx, s.clock, p!, cents, 'order_refund', key));
    expect((await s.call('POST', '/api/orders/cancel', { token: m.token, body: { orderNo: o.orderNo } })).status).toBe(200);
    const [given] = await refundsOfOrder(o.id);
    // the cancel's key again: the same refund, nothing more
    expect((await ask(500, `cancel:${o.id}`)).refund.id).toBe(given!.id);
    // all of it is back: any more is refused, whatever the key
    await expect(ask(1, 'k2')).rejects.toBeInstanceOf(RefundOverPaid);
    await expect(ask(0, 'k3')).rejects.toBeInstanceOf(RefundOverPaid);
    expect(await refundsOfOrder(o.id)).toHaveLength(1);
    expect(await balance(s, m.token)).toBe(500);
    await assertMoneyInvariants(s.deps.db);
    // the invariants see a refund over its payment (a negative control of the helper)
    await s.deps.db
      .insert(refunds)
      .values({ paymentId: p!.id, amountCents: 1, cause: 'order_refund', key: 'forced', state: 'held', createdAt: s.clock.now() });
    expect((await moneyInvariantBreaches(s.deps.db)).refundsOverPayment).toHaveLength(1);
    await s.deps.db.delete(refunds).where(and(eq(refunds.paymentId, p!.id), eq(refunds.key, 'forced')));
  });

  it('WeChat Pay: the refund succeeds at once at the stand-in; its REFUND.SUCCESS notification changes nothing more', async () => {
    const { refundId, p, o, standIn } = await lateMoney(s, 'wechat');
    const r = await refundRow(s, refundId);
    expect(r).toMatchObject({ state: 'succeeded', outRefundNo: `R${refundId}-1`, tryNo: 1 });
    expect(r.providerRefundId).toBeTruthy();
    expect((await standIn()).map((x) => [x.outRefundNo, x.amountCents, x.state])).toEqual([[`R${refundId}-1`, p.amountCents, 'SUCCESS']]);
    expect(
      (await dev(s, 'wechat', '/refunds/simulate', { outRefundNo: `R${refundId}-1` })).body.data.deliveries.map(
        (d: { status: number }) => d.status,
      ),
    ).toEqual([204]);
    expect((await refundRow(s, refundId)).state).toBe('succeeded');
    expect((await orderMoney(s.deps.db, [o.id])).get(o.id)).toMatchObject({
      takenCents: p.amountCents,
      refundedCents: p.amountCents,
      appliedCents: 0,
    });
    await assertMoneyInvariants(s.deps.db);
  });

  it('WeChat Pay: processing until the stand-in settles it; its signed REFUND.SUCCESS notification ends it succeeded; a tampered one is refused', async () => {
    const { refundId } = await lateMoney(s, 'wechat', { status: 'processing' });
    expect((await refundRow(s, refundId)).state).toBe('processing');
    expect(await pendingJobs(s, 'refund.query')).toHaveLength(1);
    const forged = await dev(s, 'wechat', '/refunds/simulate', { outRefundNo: `R${refundId}-1`, outcome: 'success', tamper: 'signature' });
    expect(forged.body.data.deliveries[0].status).not.toBe(204);
    expect((await refundRow(s, refundId)).state).toBe('processing');
    const done = await dev(s, 'wechat', '/refunds/simulate', { outRefundNo: `R${refundId}-1` });
    expect(done.body.data.deliveries.map((d: { status: number }) => d.status)).toEqual([204]);
    expect((await refundRow(s, refundId)).state).toBe('succeeded');
  });

  it('WeChat Pay: processing and never notified: the refund query finds it succeeded', async () => {
    const { refundId } = await lateMoney(s, 'wechat', { status: 'processing', deliveries: 0 });
    await dev(s, 'wechat', '/refunds/simulate', { outRefundNo: `R${refundId}-1`, outcome: 'success', deliveries: 0 });
    expect((await refundRow(s, refundId)).state).toBe('processing');
    s.clock.advance(REFUND_QUERY_AFTER_MS);
    await allDueJobs(s);
    expect((await refundRow(s, refundId)).state).toBe('succeeded');
  });

  it('WeChat Pay CLOSED: asked again under the next number (try 2), which succeeds; the closed one never counted', async () => {
    const { refundId, standIn } = await lateMoney(s, 'wechat', { status: 'closed' });
    await allDueJobs(s);
    expect(await refundRow(s, refundId)).toMatchObject({ state: 'succeeded', tryNo: 2, outRefundNo: `R${refundId}-2` });
    expect((await standIn()).map((x) => [x.outRefundNo, x.state])).toEqual([
      [`R${refundId}-1`, 'CLOSED'],
      [`R${refundId}-2`, 'SUCCESS'],
    ]);
  });

  it('WeChat Pay refuses (NOT_ENOUGH): failed with its code and words for staff, tried again an hour later and then succeeded', async () => {
    const { refundId, o, token } = await lateMoney(s, 'wechat', { refuse: 'NOT_ENOUGH' });
    const r = await refundRow(s, refundId);
    expect(r).toMatchObject({ state: 'failed', failureCode: 'NOT_ENOUGH' });
    expect(r.failureMessage).toBeTruthy();
    // the member reads it on the order, with the provider's words
    const d = (await s.call('GET', `/api/orders/detail?orderNo=${o.orderNo}`, { token })).body.data;
    expect(d.refunds).toMatchObject([{ state: 'failed', to: 'wechat', cause: 'unwanted_payment', failureMessage: r.failureMessage }]);
    expect(d.money).toMatchObject({ takenCents: o.amountToPayCents, refundedCents: 0, refundingCents: 0 });
    s.clock.advance(REFUND_RETRY_EVERY_MS - 60_000);
    await allDueJobs(s);
    expect((await refundRow(s, refundId)).state, 'not before the hour').toBe('failed');
    s.clock.advance(60_000);
    await allDueJobs(s);
    expect(await refundRow(s, refundId)).toMatchObject({ state: 'succeeded', tryNo: 1 });
  });

  it('WeChat Pay unreachable (SYSTEM_ERROR): the refund stays pending with its job, asked again under the same number; never lost', async () => {
    const { refundId } = await lateMoney(s, 'wechat', { refuse: 'SYSTEM_ERROR' });
    expect(await refundRow(s, refundId)).toMatchObject({ state: 'pending', outRefundNo: `R${refundId}-1` });
    expect(await pendingJobs(s, 'refund.run')).toHaveLength(1);
    s.clock.advance(60_000);
    await allDueJobs(s);
    expect(await refundRow(s, refundId)).toMatchObject({ state: 'succeeded', outRefundNo: `R${refundId}-1` });
    await assertMoneyInvariants(s.deps.db);
  });

  it('Alipay: the refund succeeds at once (fund_change Y); processing until done, then its trade notification makes us ask and it succeeds', async () => {
    const first = await lateMoney(s, 'alipay');
    expect(await refundRow(s, first.refundId)).toMatchObject({ state: 'succeeded', outRefundNo: `R${first.refundId}-1` });
    const later = await lateMoney(s, 'alipay', { status: 'processing' });
    expect((await refundRow(s, later.refundId)).state).toBe('processing');
    const done = await dev(s, 'alipay', '/refunds/simulate', { outRefundNo: `R${later.refundId}-1` });
    expect(done.body.data.deliveries.map((d: { body: string }) => d.body)).toEqual(['success']);
    expect((await refundRow(s, later.refundId)).state).toBe('succeeded');
    await assertMoneyInvariants(s.deps.db);
  });

  it("staff: a failed refund is listed with the provider's words and settled as given back another way; a held one is released to the provider", async () => {
    const staff = await newStaff(s);
    const member = await newMember(s);
    const failed = await lateMoney(s, 'wechat', { refuse: 'NOT_ENOUGH' });
    const list = async () =>
      (await s.call('GET', '/api/staff/refunds/attention', { token: staff.token })).body.data as Array<{
        refundId: number;
        state: string;
        failureCode: string | null;
        to: string;
      }>;
    expect((await list()).find((r) => r.refundId === failed.refundId)).toMatchObject({
      state: 'failed',
      failureCode: 'NOT_ENOUGH',
      to: 'wechat',
    });
    expect((await s.call('GET', '/api/staff/refunds/attention', { token: member.token })).status).toBe(403);
    const post = (path: string, body: unknown, key: string) =>
      s.call('POST', `/api/staff/refunds/${path}`, { token: staff.token, body, headers: { 'Idempotency-Key': key } });
    const settled = await post('settle', { refundId: failed.refundId }, `settle-${failed.refundId}`);
    expect(settled.body.data).toEqual({ refundId: failed.refundId, state: 'settled' });
    expect(await refundRow(s, failed.refundId)).toMatchObject({ state: 'settled', settledBy: staff.id });
    expect((await list()).some((r) => r.refundId === failed.refundId)).toBe(false);
    // a retry of the same request is the same answer; another request is refused by the chart
    expect((await post('settle', { refundId: failed.refundId }, `settle-${failed.refundId}`)).body.data.state).toBe('settled');
    expect((await post('settle', { refundId: failed.refundId }, `settle-again-${failed.refundId}`)).body.code).toBe(40023);
    expect((await post('release', { refundId: failed.refundId }, `release-${failed.refundId}`)).body.code).toBe(40023);
    expect((await post('release', { refundId: 99_999 }, 'release-none')).status).toBe(404);
    expect((await post('release', { refundId: 'x' }, 'release-bad')).status).toBe(400);
    expect((await s.call('POST', '/api/staff/refunds/settle', { token: member.token, body: { refundId: failed.refundId } })).status).toBe(
      403,
    );
    // a refund held for staff (as migration 0018 holds the money staff were told to refund by hand)
    const held = await lateMoney(s, 'wechat', { refuse: 'NOT_ENOUGH' });
    await s.deps.db.update(refunds).set({ state: 'held', failureCode: null, failureMessage: null }).where(eq(refunds.id, held.refundId));
    expect((await list()).find((r) => r.refundId === held.refundId)?.state).toBe('held');
    const released = await post('release', { refundId: held.refundId }, `release-${held.refundId}`);
    expect(released.body.data).toEqual({ refundId: held.refundId, state: 'succeeded' });
    expect((await held.standIn()).map((x) => x.state)).toEqual(['SUCCESS']);
    await assertMoneyInvariants(s.deps.db);
  });
});
