import { describe, expect, it } from 'vitest';
import { signRequest } from '../../../src/server/gateways/payments/wechatpay-v3';
import { PaymentProviderError, type RefundInput } from '../../../src/server/gateways/payments/types';
import { startTestServer } from '../support/harness';
import { issueOpenId, notifyRecorder, orderNo, REFUND_NOTIFY_PATH } from './support';

/**
 * WeChat Pay API v3 refunds through the stand-in: our adapter signs `POST /v3/refund/domestic/refunds`
 * and the query, the stand-in checks them, keeps each refund in pay_standin_refunds and sends signed,
 * encrypted REFUND.* notifications that go through our parseRefundNotification.
 */
describe('WeChat Pay refunds through the stand-in', async () => {
  const s = await startTestServer();
  const wechat = s.deps.gateways.payments.wechat!;
  const keys = s.deps.gateways.payments.standIn!.wechat;
  const notes = notifyRecorder(s, wechat);
  const notifyUrl = `${s.deps.config.publicUrl}/api/pay/notify/wechat`;
  const refundNotifyUrl = `${s.deps.config.publicUrl}${REFUND_NOTIFY_PATH}wechat`;
  const call = (path: string, body: Record<string, unknown>) => s.call('POST', `/api/dev/pay/wechat${path}`, { body });
  await issueOpenId(s, 'o_refund_1');

  let refundSeq = 0;
  /** a paid trade: prepaid, paid silently, its transaction id from the query */
  async function paid(amountCents = 1999) {
    const no = orderNo('WR');
    const start = await wechat.createPayment({ orderNo: no, amountCents, description: '月卡', payerOpenId: 'o_refund_1', notifyUrl });
    if (start.method !== 'wechat') throw new Error('expected wechat');
    await call('/simulate', { prepayId: start.prepayId, outcome: 'pay', deliveries: 0 });
    const q = await wechat.queryOrder(no);
    if (q.status !== 'paid') throw new Error('expected paid');
    return { no, txnId: q.providerTxnId!, prepayId: start.prepayId, amountCents };
  }
  const ask = (
    t: { no: string; txnId: string | null; amountCents: number },
    amountCents = t.amountCents,
    outRefundNo = `R${Date.now().toString(36)}${refundSeq++}-1`,
  ): RefundInput => ({
    outTradeNo: t.no,
    providerTxnId: t.txnId,
    outRefundNo,
    amountCents,
    totalCents: t.amountCents,
    reason: '取消订单',
    notifyUrl: refundNotifyUrl,
  });

  it('succeeds at once: the answer, the REFUND.SUCCESS notification and the query agree; the trade reads REFUND (still paid)', async () => {
    const t = await paid(1999);
    notes.clear();
    const input = ask(t);
    const r = await wechat.refund(input);
    expect(r).toMatchObject({ provider: 'wechat', outRefundNo: input.outRefundNo, status: 'succeeded', amountCents: 1999 });
    expect(r.providerRefundId).toMatch(/^50\d{30}$/);
    expect(notes.urls).toEqual([refundNotifyUrl]);
    expect(notes.refused).toEqual([]);
    expect(notes.refunds).toEqual([r]);
    expect(await wechat.queryRefund(t.no, input.outRefundNo)).toEqual(r);
    expect(await wechat.queryOrder(t.no)).toMatchObject({ status: 'paid', providerTxnId: t.txnId });
  });

  it('by out_trade_no when there is no transaction id; a reason longer than WeChat Pay takes (80) is cut, not refused', async () => {
    const t = await paid(500);
    expect(await wechat.refund({ ...ask({ ...t, txnId: null }), reason: '退'.repeat(81) })).toMatchObject({
      status: 'succeeded',
      amountCents: 500,
    });
  });

  it('the same out_refund_no again is the same refund (no second refund, no second notification); with another amount it is refused', async () => {
    const t = await paid(1000);
    const input = ask(t, 400);
    const first = await wechat.refund(input);
    notes.clear();
    expect(await wechat.refund(input)).toEqual(first);
    expect(notes.urls).toEqual([]);
    // the other 600 are still refundable: the repeat took nothing more
    expect(await wechat.refund(ask(t, 600))).toMatchObject({ status: 'succeeded' });
    expect(await wechat.refund({ ...input, amountCents: 300 })).toMatchObject({ status: 'failed', failureCode: 'INVALID_REQUEST' });
  });

  it('partial refunds up to the total; more than is left is refused (INVALID_REQUEST), nothing recorded', async () => {
    const t = await paid(1000);
    expect(await wechat.refund(ask(t, 700))).toMatchObject({ status: 'succeeded' });
    const over = ask(t, 301);
    expect(await wechat.refund(over)).toEqual({
      provider: 'wechat',
      outRefundNo: over.outRefundNo,
      status: 'failed',
      providerRefundId: null,
      amountCents: null,
      failureCode: 'INVALID_REQUEST',
      failureMessage: '申请退款金额超过订单可退金额',
    });
    expect(await wechat.queryRefund(t.no, over.outRefundNo)).toMatchObject({ status: 'not_found' });
    expect(await wechat.refund(ask(t, 300))).toMatchObject({ status: 'succeeded' });
    expect(await wechat.refund(ask(t, 1))).toMatchObject({ status: 'failed', failureCode: 'INVALID_REQUEST' });
  });

  it('ten refunds at once cannot together take more than the trade (the stand-in locks the trade; race: run it on PostgreSQL)', async () => {
    const t = await paid(1000);
    const all = await Promise.all(Array.from({ length: 10 }, () => wechat.refund(ask(t, 300))));
    expect(all.filter((r) => r.status === 'succeeded')).toHaveLength(3);
    expect(all.filter((r) => r.status === 'failed').map((r) => r.failureCode)).toEqual(Array(7).fill('INVALID_REQUEST'));
  });

  it('refuses an unknown trade (RESOURCE_NOT_EXISTS), an unpaid one and another total (INVALID_REQUEST), as failed', async () => {
    const unknown = await wechat.refund(ask({ no: 'NEVER00001', txnId: null, amountCents: 100 }));
    expect(unknown).toMatchObject({ status: 'failed', failureCode: 'RESOURCE_NOT_EXISTS' });
    const no = orderNo('WR');
    await wechat.createPayment({ orderNo: no, amountCents: 100, description: '月卡', payerOpenId: 'o_refund_1', notifyUrl });
    expect(await wechat.refund(ask({ no, txnId: null, amountCents: 100 }))).toMatchObject({
      status: 'failed',
      failureCode: 'INVALID_REQUEST',
      failureMessage: '订单未支付',
    });
    const t = await paid(1000);
    expect(await wechat.refund({ ...ask(t, 100), totalCents: 999 })).toMatchObject({ status: 'failed', failureCode: 'INVALID_REQUEST' });
  });

  it('processing: the query says processing until the stand-in settles it; then REFUND.SUCCESS arrives and the query agrees', async () => {
    const t = await paid(800);
    await call('/refunds/arrange', { outTradeNo: t.no, status: 'processing' });
    notes.clear();
    const input = ask(t, 500);
    expect(await wechat.refund(input)).toMatchObject({ status: 'processing', amountCents: 500 });
    expect(notes.urls).toEqual([]);
    expect(await wechat.queryRefund(t.no, input.outRefundNo)).toMatchObject({ status: 'processing' });
    // a processing refund has nothing to notify yet
    expect((await call('/refunds/simulate', { outRefundNo: input.outRefundNo })).status).toBe(409);
    const res = await call('/refunds/simulate', { outRefundNo: input.outRefundNo, outcome: 'success' });
    expect(res.body.data).toMatchObject({ state: 'SUCCESS', deliveries: [{ status: 204, body: '' }] });
    expect(notes.refunds).toMatchObject([{ outRefundNo: input.outRefundNo, status: 'succeeded', amountCents: 500 }]);
    expect(await wechat.queryRefund(t.no, input.outRefundNo)).toEqual(notes.refunds[0]);
    // the arrangement was taken by that refund: the next one succeeds at once
    expect(await wechat.refund(ask(t, 300))).toMatchObject({ status: 'succeeded' });
  });

  it.each([
    ['abnormal', 'ABNORMAL', 'abnormal'],
    ['closed', 'CLOSED', 'closed'],
  ] as const)('%s: answered and notified (REFUND.%s) as %s', async (status, state, ours) => {
    const t = await paid(300);
    await call('/refunds/arrange', { outTradeNo: t.no, status });
    notes.clear();
    const input = ask(t);
    expect(await wechat.refund(input)).toMatchObject({ status: ours });
    expect(notes.refunds).toMatchObject([{ outRefundNo: input.outRefundNo, status: ours }]);
    expect(await wechat.queryRefund(t.no, input.outRefundNo)).toMatchObject({ status: ours });
    const raw = await s.call('POST', '/api/dev/pay/wechat/refunds/simulate', { body: { outRefundNo: input.outRefundNo } });
    expect(raw.body.data.state).toBe(state);
  });

  it('closed gives its money back to the trade: a new number (try 2) may refund it all again', async () => {
    const t = await paid(300);
    await call('/refunds/arrange', { outTradeNo: t.no, status: 'closed' });
    expect(await wechat.refund(ask(t, 300))).toMatchObject({ status: 'closed' });
    expect(await wechat.refund(ask(t, 300))).toMatchObject({ status: 'succeeded' });
  });

  it('processing then abnormal, and an abnormal refund the provider later pays (SUCCESS); a succeeded one is never made abnormal', async () => {
    const t = await paid(400);
    await call('/refunds/arrange', { outTradeNo: t.no, status: 'processing' });
    const input = ask(t);
    await wechat.refund(input);
    notes.clear();
    await call('/refunds/simulate', { outRefundNo: input.outRefundNo, outcome: 'abnormal' });
    await call('/refunds/simulate', { outRefundNo: input.outRefundNo, outcome: 'success' });
    expect(notes.refunds.map((r) => r.status)).toEqual(['abnormal', 'succeeded']);
    expect((await call('/refunds/simulate', { outRefundNo: input.outRefundNo, outcome: 'abnormal' })).status).toBe(409);
  });

  it('notified late: settled silently, learnt by the query; the notification ten minutes later still verifies', async () => {
    const t = await paid(200);
    await call('/refunds/arrange', { outTradeNo: t.no, deliveries: 0 });
    notes.clear();
    const input = ask(t);
    const r = await wechat.refund(input);
    expect(r.status).toBe('succeeded');
    expect(notes.urls).toEqual([]);
    s.clock.advance(10 * 60_000);
    await call('/refunds/simulate', { outRefundNo: input.outRefundNo });
    expect(notes.refunds).toEqual([r]);
  });

  it('notified twice: the same verified result twice', async () => {
    const t = await paid(200);
    await call('/refunds/arrange', { outTradeNo: t.no, deliveries: 2 });
    notes.clear();
    await wechat.refund(ask(t));
    expect(notes.refunds).toHaveLength(2);
    expect(notes.refunds[1]).toEqual(notes.refunds[0]);
  });

  it('a replayed notification dated more than five minutes back is refused (timestamp_skew)', async () => {
    const t = await paid(200);
    await call('/refunds/arrange', { outTradeNo: t.no, ageSeconds: 301 });
    notes.clear();
    await wechat.refund(ask(t));
    expect(notes.refused.map((r) => r.reason)).toEqual(['timestamp_skew']);
    expect(notes.refunds).toEqual([]);
  });

  it.each([
    ['body', 'bad_signature'],
    ['signature', 'bad_signature'],
    ['serial', 'unknown_serial'],
    ['ciphertext', 'bad_decrypt'],
    ['key', 'bad_decrypt'],
    ['mchid', 'merchant_mismatch'],
  ])('tampered (%s): refused as %s and answered with an error so WeChat Pay resends', async (tamper, reason) => {
    const t = await paid(200);
    await call('/refunds/arrange', { outTradeNo: t.no, tamper });
    notes.clear();
    const r = await wechat.refund(ask(t));
    expect(r.status).toBe('succeeded');
    expect(notes.refused.map((x) => x.reason)).toEqual([reason]);
    expect(notes.refunds).toEqual([]);
    const again = await call('/refunds/simulate', { outRefundNo: r.outRefundNo, tamper });
    expect(again.body.data.deliveries[0].status).toBe(400);
  });

  it('a validly signed notification with another amount is passed on with it, for the refund code to compare', async () => {
    const t = await paid(200);
    await call('/refunds/arrange', { outTradeNo: t.no, tamper: 'amount' });
    notes.clear();
    await wechat.refund(ask(t));
    expect(notes.refunds.map((r) => r.amountCents)).toEqual([201]);
  });

  it('a refund notification is never a payment, nor a payment notification a refund (event type checked)', async () => {
    const captured: { body: string; headers: Headers }[] = [];
    const recorder = s.deps.gateways.payments.standIn!.notifyFetch;
    s.deps.gateways.payments.standIn!.notifyFetch = async (_url, init) => {
      const req = new Request('http://x/', init);
      captured.push({ body: await req.text(), headers: req.headers });
      return new Response(null, { status: 204 });
    };
    try {
      const no = orderNo('WR');
      const start = await wechat.createPayment({
        orderNo: no,
        amountCents: 200,
        description: '月卡',
        payerOpenId: 'o_refund_1',
        notifyUrl,
      });
      if (start.method !== 'wechat') throw new Error('expected wechat');
      await call('/simulate', { prepayId: start.prepayId, outcome: 'pay' });
      const q = await wechat.queryOrder(no);
      const r = await wechat.refund(ask({ no, txnId: q.status === 'paid' ? q.providerTxnId : null, amountCents: 200 }));
      const [paymentNote, refundNote] = captured;
      expect(captured).toHaveLength(2);
      expect(() => wechat.parseNotification(refundNote!.body, refundNote!.headers)).toThrow(/malformed/);
      expect(() => wechat.parseRefundNotification(paymentNote!.body, paymentNote!.headers)).toThrow(/malformed/);
      expect(wechat.parseRefundNotification(refundNote!.body, refundNote!.headers)).toEqual(r);
      expect(wechat.parseNotification(paymentNote!.body, paymentNote!.headers)).toMatchObject({ orderNo: no, status: 'paid' });
    } finally {
      s.deps.gateways.payments.standIn!.notifyFetch = recorder;
    }
  });

  it.each([
    ['SYSTEM_ERROR', 500],
    ['FREQUENCY_LIMITED', 429],
  ])('transient %s throws (retried under the same number, which then succeeds)', async (refuse) => {
    const t = await paid(200);
    await call('/refunds/arrange', { outTradeNo: t.no, refuse });
    const input = ask(t);
    const err = await wechat.refund(input).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PaymentProviderError);
    expect(err).toMatchObject({ code: refuse });
    expect(await wechat.refund(input)).toMatchObject({ status: 'succeeded' });
  });

  it('NOT_ENOUGH (the merchant account is short) is a business refusal: failed with its words', async () => {
    const t = await paid(200);
    await call('/refunds/arrange', { outTradeNo: t.no, refuse: 'NOT_ENOUGH' });
    expect(await wechat.refund(ask(t))).toMatchObject({
      status: 'failed',
      failureCode: 'NOT_ENOUGH',
      failureMessage: expect.stringContaining('余额不足'),
    });
  });

  it('query: an unknown refund is not_found; an unsigned request is refused; the answer must be for our trade', async () => {
    expect(await wechat.queryRefund('W1', 'RNEVER-1')).toEqual({
      provider: 'wechat',
      outRefundNo: 'RNEVER-1',
      status: 'not_found',
      providerRefundId: null,
      amountCents: null,
    });
    const t = await paid(200);
    const input = ask(t);
    await wechat.refund(input);
    await expect(wechat.queryRefund('ANOTHER-1', input.outRefundNo)).rejects.toMatchObject({ code: 'MISMATCH' });
    const unsigned = await s.call('GET', `/api/dev/pay/wechat/v3/refund/domestic/refunds/${input.outRefundNo}`);
    expect(unsigned.status).toBe(401);
    // signed by the merchant key: the stand-in answers the refund object WeChat Pay documents
    const path = `/v3/refund/domestic/refunds/${input.outRefundNo}`;
    const authorization = signRequest({
      method: 'GET',
      url: path,
      body: '',
      mchid: keys.mchId,
      serialNo: keys.merchantSerial,
      privateKey: keys.merchant.privateKey,
      timestamp: Math.floor(s.clock.now().getTime() / 1000),
      nonce: 'N1',
    });
    const signed = await s.call('GET', `/api/dev/pay/wechat${path}`, { headers: { authorization } });
    expect(signed.body).toMatchObject({
      out_refund_no: input.outRefundNo,
      out_trade_no: t.no,
      transaction_id: t.txnId,
      status: 'SUCCESS',
      amount: { total: 200, refund: 200, payer_total: 200, payer_refund: 200, currency: 'CNY' },
    });
  });
});
