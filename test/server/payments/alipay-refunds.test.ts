import { describe, expect, it } from 'vitest';
import { PaymentProviderError, type RefundInput } from '../../../src/server/gateways/payments/types';
import { startTestServer } from '../support/harness';
import { notifyRecorder, orderNo } from './support';

/**
 * Alipay refunds through the stand-in: our adapter signs alipay.trade.refund and
 * alipay.trade.fastpay.refund.query (RSA2) and verifies the signed answers; the trade notification
 * Alipay sends after a refund (out_biz_no, refund_fee) is told apart from a payment's and verified.
 */
describe('Alipay refunds through the stand-in', async () => {
  const s = await startTestServer();
  const alipay = s.deps.gateways.payments.alipay!;
  const notes = notifyRecorder(s, alipay);
  const notifyUrl = `${s.deps.config.publicUrl}/api/pay/notify/alipay`;
  const call = (path: string, body: Record<string, unknown>) => s.call('POST', `/api/dev/pay/alipay${path}`, { body });

  let refundSeq = 0;
  /** a paid trade: the cashier opened from our signed redirect, paid silently, its trade_no from the query */
  async function paid(amountCents = 1999) {
    const no = orderNo('AR');
    const start = await alipay.createPayment({ orderNo: no, amountCents, description: '月卡', notifyUrl });
    if (start.method !== 'alipay') throw new Error('expected alipay');
    await s.app.request(start.url);
    await call('/simulate', { outTradeNo: no, outcome: 'pay', deliveries: 0 });
    const q = await alipay.queryOrder(no);
    if (q.status !== 'paid') throw new Error('expected paid');
    return { no, txnId: q.providerTxnId!, amountCents };
  }
  const ask = (t: { no: string; txnId: string | null; amountCents: number }, amountCents = t.amountCents): RefundInput => ({
    outTradeNo: t.no,
    providerTxnId: t.txnId,
    outRefundNo: `R${Date.now().toString(36)}${refundSeq++}-1`,
    amountCents,
    totalCents: t.amountCents,
    reason: '取消订单',
    notifyUrl: `${s.deps.config.publicUrl}/api/pay/refund-notify/alipay`,
  });

  it('fund_change Y: succeeded; the trade notification that follows is a refund notice (never a payment), verified to the same refund; the query agrees', async () => {
    const t = await paid(1999);
    notes.clear();
    const input = ask(t, 999);
    expect(await alipay.refund(input)).toEqual({
      provider: 'alipay',
      outRefundNo: input.outRefundNo,
      status: 'succeeded',
      providerRefundId: null,
      amountCents: null,
    });
    // Alipay has no refund notify URL: the trade's notification goes to the payment's
    expect(notes.urls).toEqual([notifyUrl]);
    expect(notes.accepted).toEqual([]);
    expect(notes.refundNotices).toEqual([{ provider: 'alipay', orderNo: t.no, status: 'refund', outRefundNo: input.outRefundNo }]);
    expect(notes.refunds).toEqual([
      { provider: 'alipay', outRefundNo: input.outRefundNo, status: 'succeeded', providerRefundId: null, amountCents: null },
    ]);
    expect(await alipay.queryRefund(t.no, input.outRefundNo)).toEqual({
      provider: 'alipay',
      outRefundNo: input.outRefundNo,
      status: 'succeeded',
      providerRefundId: null,
      amountCents: 999,
    });
    // a partial refund leaves the trade paid
    expect(await alipay.queryOrder(t.no)).toMatchObject({ status: 'paid' });
  });

  it('a full refund closes the trade (TRADE_CLOSED): its notification is still a refund, never a failed payment', async () => {
    const t = await paid(500);
    notes.clear();
    await alipay.refund(ask(t));
    expect(notes.accepted).toEqual([]);
    expect(notes.refundNotices).toHaveLength(1);
    expect(await alipay.queryOrder(t.no)).toMatchObject({ status: 'failed' });
  });

  it('by out_trade_no alone when there is no trade_no', async () => {
    const t = await paid(300);
    expect(await alipay.refund(ask({ ...t, txnId: null }))).toMatchObject({ status: 'succeeded' });
  });

  it('the same out_request_no again: fund_change N (no money moved) reads processing, the query says succeeded; no second refund', async () => {
    const t = await paid(1000);
    const input = ask(t, 400);
    await alipay.refund(input);
    notes.clear();
    expect(await alipay.refund(input)).toMatchObject({ status: 'processing' });
    expect(notes.urls).toEqual([]);
    expect(await alipay.queryRefund(t.no, input.outRefundNo)).toMatchObject({ status: 'succeeded', amountCents: 400 });
    expect(await alipay.refund(ask(t, 600))).toMatchObject({ status: 'succeeded' });
    expect(await alipay.refund({ ...input, amountCents: 300 })).toMatchObject({
      status: 'failed',
      failureCode: 'ACQ.DISCORDANT_REPEAT_REQUEST',
    });
  });

  it('more than is left is refused (ACQ.REFUND_AMT_NOT_EQUAL_TOTAL), nothing recorded; the rest may still be refunded', async () => {
    const t = await paid(1000);
    await alipay.refund(ask(t, 700));
    const over = ask(t, 301);
    expect(await alipay.refund(over)).toEqual({
      provider: 'alipay',
      outRefundNo: over.outRefundNo,
      status: 'failed',
      providerRefundId: null,
      amountCents: null,
      failureCode: 'ACQ.REFUND_AMT_NOT_EQUAL_TOTAL',
      failureMessage: '退款金额超限',
    });
    expect(await alipay.queryRefund(t.no, over.outRefundNo)).toMatchObject({ status: 'not_found' });
    expect(await alipay.refund(ask(t, 300))).toMatchObject({ status: 'succeeded' });
  });

  it('refuses an unknown trade (ACQ.TRADE_NOT_EXIST) and an unpaid one (ACQ.TRADE_STATUS_ERROR) as failed', async () => {
    expect(await alipay.refund(ask({ no: orderNo('AR'), txnId: null, amountCents: 100 }))).toMatchObject({
      status: 'failed',
      failureCode: 'ACQ.TRADE_NOT_EXIST',
    });
    const no = orderNo('AR');
    const start = await alipay.createPayment({ orderNo: no, amountCents: 100, description: '月卡', notifyUrl });
    if (start.method !== 'alipay') throw new Error('expected alipay');
    await s.app.request(start.url);
    expect(await alipay.refund(ask({ no, txnId: null, amountCents: 100 }))).toMatchObject({
      status: 'failed',
      failureCode: 'ACQ.TRADE_STATUS_ERROR',
    });
  });

  it('processing (fund_change N): the query finds no refund_status (not_found: ask again under the same number) until Alipay is done; then notified', async () => {
    const t = await paid(800);
    await call('/refunds/arrange', { outTradeNo: t.no, status: 'processing' });
    notes.clear();
    const input = ask(t);
    expect(await alipay.refund(input)).toMatchObject({ status: 'processing' });
    expect(notes.urls).toEqual([]);
    expect(await alipay.queryRefund(t.no, input.outRefundNo)).toMatchObject({ status: 'not_found' });
    // asked again under the same number, as Alipay's documentation says: the same refund, still not done
    expect(await alipay.refund(input)).toMatchObject({ status: 'processing' });
    const res = await call('/refunds/simulate', { outRefundNo: input.outRefundNo });
    expect(res.body.data).toMatchObject({ state: 'REFUND_SUCCESS', deliveries: [{ status: 200, body: 'success' }] });
    expect(notes.refunds).toMatchObject([{ outRefundNo: input.outRefundNo, status: 'succeeded' }]);
    expect(await alipay.queryRefund(t.no, input.outRefundNo)).toMatchObject({ status: 'succeeded', amountCents: 800 });
  });

  it('notified late (none at first, then a day later) and twice: each verifies to the same refund', async () => {
    const t = await paid(300);
    await call('/refunds/arrange', { outTradeNo: t.no, deliveries: 0 });
    notes.clear();
    const input = ask(t, 100);
    expect(await alipay.refund(input)).toMatchObject({ status: 'succeeded' });
    expect(notes.urls).toEqual([]);
    s.clock.advance(24 * 3600_000);
    await call('/refunds/simulate', { outRefundNo: input.outRefundNo, deliveries: 2 });
    expect(notes.refunds).toHaveLength(2);
    expect(notes.refunds[1]).toEqual(notes.refunds[0]);
    expect(notes.refunds[0]).toMatchObject({ outRefundNo: input.outRefundNo, status: 'succeeded' });
  });

  it.each([
    ['body', 'bad_signature'],
    ['signature', 'bad_signature'],
    ['appid', 'app_mismatch'],
  ])('tampered (%s): refused as %s and answered "fail"', async (tamper, reason) => {
    const t = await paid(300);
    await call('/refunds/arrange', { outTradeNo: t.no, tamper });
    notes.clear();
    const r = await alipay.refund(ask(t));
    expect(r.status).toBe('succeeded');
    expect(notes.refused.map((x) => x.reason)).toEqual([reason]);
    expect(notes.refunds).toEqual([]);
    const again = await call('/refunds/simulate', { outRefundNo: r.outRefundNo, tamper });
    expect(again.body.data.deliveries).toEqual([{ status: 200, body: 'fail' }]);
  });

  it.each([
    ['ACQ.SELLER_BALANCE_NOT_ENOUGH', '卖家余额不足'],
    ['ACQ.TRADE_NOT_ALLOW_REFUND', '当前交易不允许退款'],
  ])('business refusal %s: failed with its code and sub_msg', async (refuse, words) => {
    const t = await paid(300);
    await call('/refunds/arrange', { outTradeNo: t.no, refuse });
    expect(await alipay.refund(ask(t))).toMatchObject({ status: 'failed', failureCode: refuse, failureMessage: words });
  });

  it('ACQ.SYSTEM_ERROR throws (retried under the same number, which then succeeds)', async () => {
    const t = await paid(300);
    await call('/refunds/arrange', { outTradeNo: t.no, refuse: 'ACQ.SYSTEM_ERROR' });
    const input = ask(t);
    const err = await alipay.refund(input).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PaymentProviderError);
    expect(err).toMatchObject({ code: 'ACQ.SYSTEM_ERROR' });
    expect(await alipay.refund(input)).toMatchObject({ status: 'succeeded' });
  });

  it('query: an unknown trade or refund is not_found', async () => {
    expect(await alipay.queryRefund(orderNo('AR'), 'RNEVER-1')).toMatchObject({ status: 'not_found' });
    const t = await paid(300);
    expect(await alipay.queryRefund(t.no, 'RNEVER-1')).toEqual({
      provider: 'alipay',
      outRefundNo: 'RNEVER-1',
      status: 'not_found',
      providerRefundId: null,
      amountCents: null,
    });
  });

  it('a payment notification is not a refund: parseRefundNotification refuses it', async () => {
    const captured: string[] = [];
    const recorder = s.deps.gateways.payments.standIn!.notifyFetch;
    s.deps.gateways.payments.standIn!.notifyFetch = async (_url, init) => {
      captured.push(await new Request('http://x/', init).text());
      return new Response('success');
    };
    try {
      const no = orderNo('AR');
      const start = await alipay.createPayment({ orderNo: no, amountCents: 100, description: '月卡', notifyUrl });
      if (start.method !== 'alipay') throw new Error('expected alipay');
      await s.app.request(start.url);
      await call('/simulate', { outTradeNo: no, outcome: 'pay' });
      expect(() => alipay.parseRefundNotification(captured[0]!, new Headers())).toThrow(/malformed/);
      expect(alipay.parseNotification(captured[0]!, new Headers())).toMatchObject({ orderNo: no, status: 'paid' });
    } finally {
      s.deps.gateways.payments.standIn!.notifyFetch = recorder;
    }
  });

  it("in demo mode the refund's notification reaches our payment notify route in-process, which acknowledges it as a refund and settles no payment", async () => {
    const t = await paid(300);
    const recorder = s.deps.gateways.payments.standIn!.notifyFetch;
    s.deps.gateways.payments.standIn!.notifyFetch = undefined;
    try {
      const before = s.log.lines.length;
      const r = await alipay.refund(ask(t));
      // sent during our own refund call: through the app (appDeliver), not the network
      const logged = s.log.lines.slice(before).filter((l) => l.msg === 'refund notification');
      expect(logged).toMatchObject([{ fields: { provider: 'alipay', orderNo: t.no, outRefundNo: r.outRefundNo } }]);
      expect(s.log.lines.slice(before).some((l) => l.msg.startsWith('payment notification'))).toBe(false);
      const again = await call('/refunds/simulate', { outRefundNo: r.outRefundNo });
      expect(again.body.data.deliveries).toEqual([{ status: 200, body: 'success' }]);
    } finally {
      s.deps.gateways.payments.standIn!.notifyFetch = recorder;
    }
  });
});
