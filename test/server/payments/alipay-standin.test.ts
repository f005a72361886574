import { describe, expect, it } from 'vitest';
import { startTestServer } from '../support/harness';
import { notifyRecorder, orderNo } from './support';

/**
 * The Alipay round trip through the stand-in: our real adapter signs the wap.pay redirect and the
 * query; the cashier opens from that redirect; the stand-in's RSA2-signed notifications go through our
 * parseNotification.
 */
describe('Alipay stand-in round trip', async () => {
  const s = await startTestServer();
  const alipay = s.deps.gateways.payments.alipay!;
  const keys = s.deps.gateways.payments.standIn!.alipay;
  const notes = notifyRecorder(s, alipay);
  const notifyUrl = `${s.deps.config.publicUrl}/api/pay/notify/alipay`;
  const simulate = (body: Record<string, unknown>) => s.call('POST', '/api/dev/pay/alipay/simulate', { body });

  /** creates the payment and opens the cashier page from its redirect, as the member's browser would */
  async function open(amountCents = 1999) {
    const no = orderNo('A');
    const start = await alipay.createPayment({
      orderNo: no,
      amountCents,
      description: '月卡',
      notifyUrl,
      returnUrl: `${s.deps.config.publicUrl}/payf`,
    });
    if (start.method !== 'alipay') throw new Error('expected alipay');
    const page = await s.app.request(start.url);
    return { no, start, page: { status: page.status, html: await page.text() } };
  }

  it('the signed redirect opens the cashier with the amount; the trade is unknown before that and waiting after', async () => {
    const no = orderNo('A');
    expect(await alipay.queryOrder(no)).toEqual({ provider: 'alipay', orderNo: no, status: 'not_found' });
    const { no: opened, page } = await open(1999);
    expect(page.status).toBe(200);
    expect(page.html).toContain('¥19.99');
    expect(await alipay.queryOrder(opened)).toEqual({ provider: 'alipay', orderNo: opened, status: 'pending' });
  });

  it('pay: the notification verifies to our order and is answered "success"; the query agrees', async () => {
    const { no } = await open(1999);
    notes.clear();
    const res = await simulate({ outTradeNo: no, outcome: 'pay' });
    expect(res.body.data).toMatchObject({ outTradeNo: no, state: 'TRADE_SUCCESS', deliveries: [{ status: 200, body: 'success' }] });
    expect(notes.urls).toEqual([notifyUrl]);
    const paid = notes.accepted[0]!;
    expect(paid).toMatchObject({
      provider: 'alipay',
      orderNo: no,
      amountCents: 1999,
      merchantId: keys.sellerId,
      appId: keys.appId,
      status: 'paid',
      paidAt: s.clock.now(),
    });
    expect(await alipay.queryOrder(no)).toEqual(paid);
  });

  it('delivered twice: the same verified result twice', async () => {
    const { no } = await open();
    notes.clear();
    await simulate({ outTradeNo: no, outcome: 'pay', deliveries: 2 });
    expect(notes.accepted).toHaveLength(2);
    expect(notes.accepted[1]).toEqual(notes.accepted[0]);
  });

  it.each([
    ['body', 'bad_signature'],
    ['signature', 'bad_signature'],
    ['appid', 'app_mismatch'],
  ])('tampered (%s): refused as %s and answered "fail"', async (tamper, reason) => {
    const { no } = await open();
    notes.clear();
    const res = await simulate({ outTradeNo: no, outcome: 'pay', tamper });
    expect(res.body.data.deliveries).toEqual([{ status: 200, body: 'fail' }]);
    expect(notes.refused.map((r) => r.reason)).toEqual([reason]);
    expect(notes.accepted).toEqual([]);
  });

  it('a validly signed notification with a wrong amount is passed on with that amount, for the order code to refuse', async () => {
    const { no } = await open(1999);
    notes.clear();
    await simulate({ outTradeNo: no, outcome: 'pay', tamper: 'amount' });
    expect(notes.accepted.map((r) => r.amountCents)).toEqual([2000]);
  });

  it('fail: a TRADE_CLOSED notification verifies to failed; the query agrees; paying afterwards is refused', async () => {
    const { no } = await open();
    notes.clear();
    await simulate({ outTradeNo: no, outcome: 'fail' });
    expect(notes.accepted).toMatchObject([{ orderNo: no, status: 'failed', paidAt: null }]);
    expect(await alipay.queryOrder(no)).toMatchObject({ orderNo: no, status: 'failed' });
    expect((await simulate({ outTradeNo: no, outcome: 'pay' })).status).toBe(409);
  });

  it('alipay.trade.close (RSA2-signed, signed answer): the waiting trade is TRADE_CLOSED, the query says failed, paying it is refused', async () => {
    const { no } = await open();
    expect(await alipay.close(no)).toBe('closed');
    expect(await alipay.queryOrder(no)).toMatchObject({ orderNo: no, status: 'failed' });
    expect((await simulate({ outTradeNo: no, outcome: 'pay' })).status).toBe(409);
  });

  it('alipay.trade.close: a trade never created (ACQ.TRADE_NOT_EXIST) is not_found; a paid one is not closable (ACQ.TRADE_STATUS_ERROR)', async () => {
    expect(await alipay.close(orderNo('A'))).toBe('not_found');
    const { no } = await open();
    await simulate({ outTradeNo: no, outcome: 'pay', deliveries: 0 });
    expect(await alipay.close(no)).toBe('not_closable');
    expect((await alipay.queryOrder(no)).status).toBe('paid');
  });

  it('time_expire: the cashier refuses to create the trade after it, and a waiting trade cannot be paid after it', async () => {
    const no = orderNo('A');
    const expiresAt = new Date(s.clock.now().getTime() + 60_000);
    const start = await alipay.createPayment({ orderNo: no, amountCents: 100, description: '月卡', notifyUrl, expiresAt });
    if (start.method !== 'alipay') throw new Error('expected alipay');
    expect((await s.app.request(start.url)).status).toBe(200);
    const later = orderNo('A');
    const startLater = await alipay.createPayment({ orderNo: later, amountCents: 100, description: '月卡', notifyUrl, expiresAt });
    if (startLater.method !== 'alipay') throw new Error('expected alipay');
    s.clock.advance(60_000);
    const page = await s.app.request(startLater.url);
    expect(page.status).toBe(400);
    expect(await page.text()).toContain('ACQ.TRADE_HAS_CLOSE');
    expect((await simulate({ outTradeNo: no, outcome: 'pay' })).status).toBe(409);
  });

  it("the cashier's Pay button settles, notifies and goes back to our return URL", async () => {
    const { no } = await open();
    notes.clear();
    const res = await s.app.request('/api/dev/pay/alipay/cashier', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ out_trade_no: no, outcome: 'pay', return_url: `${s.deps.config.publicUrl}/payf` }).toString(),
    });
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe(`${s.deps.config.publicUrl}/payf?out_trade_no=${no}`);
    expect(notes.accepted).toMatchObject([{ orderNo: no, status: 'paid' }]);
  });

  it('the stand-in refuses a redirect whose parameters were changed after signing', async () => {
    const { start } = await open();
    const url = new URL(start.url);
    const biz = JSON.parse(url.searchParams.get('biz_content')!) as Record<string, string>;
    url.searchParams.set('biz_content', JSON.stringify({ ...biz, total_amount: '0.01', out_trade_no: orderNo('A') }));
    const page = await s.app.request(url.toString());
    expect(page.status).toBe(400);
    expect(await page.text()).toContain('isv.invalid-signature');
  });
});
