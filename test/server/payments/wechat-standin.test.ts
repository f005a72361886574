import { describe, expect, it } from 'vitest';
import { wechatPayGateway } from '../../../src/server/gateways/payments/wechatpay';
import { paySignMessage, rsaVerify, signRequest } from '../../../src/server/gateways/payments/wechatpay-v3';
import { newRsaKeyPair } from '../../../src/server/gateways/payments/standin-keys';
import { PaymentProviderError } from '../../../src/server/gateways/payments/types';
import { startTestServer } from '../support/harness';
import { issueOpenId, notifyRecorder, orderNo } from './support';

/**
 * The WeChat Pay round trip through the stand-in: our real adapter signs the prepay and the query, the
 * stand-in checks them, and its signed, encrypted notifications go through our parseNotification.
 */
describe('WeChat Pay stand-in round trip', async () => {
  const s = await startTestServer();
  const payments = s.deps.gateways.payments;
  const wechat = payments.wechat!;
  const keys = payments.standIn!.wechat;
  const notes = notifyRecorder(s, wechat);
  const notifyUrl = `${s.deps.config.publicUrl}/api/pay/notify/wechat`;
  const simulate = (body: Record<string, unknown>) => s.call('POST', '/api/dev/pay/wechat/simulate', { body });
  // the payers: open ids the messaging app's OAuth stand-in issued for this app
  await issueOpenId(s, 'o_member_1');
  await issueOpenId(s, 'o');

  async function prepay(amountCents = 1999) {
    const no = orderNo('W');
    const start = await wechat.createPayment({ orderNo: no, amountCents, description: '月卡', payerOpenId: 'o_member_1', notifyUrl });
    if (start.method !== 'wechat') throw new Error('expected wechat');
    return { no, start };
  }

  it('is available in demo mode, with the stand-in', () => {
    expect(payments.available()).toEqual(['wechat', 'alipay']);
  });

  it('prepay answers the JSAPI parameters, pay-signed with the merchant key', async () => {
    const { start } = await prepay();
    expect(start.jsapi).toMatchObject({
      appId: keys.appId,
      package: `prepay_id=${start.prepayId}`,
      signType: 'RSA',
      timeStamp: String(s.clock.now().getTime() / 1000),
    });
    const j = start.jsapi;
    expect(rsaVerify(paySignMessage(j.appId, j.timeStamp, j.nonceStr, j.package), j.paySign, keys.merchant.publicKey)).toBe(true);
  });

  it('pay: one signed, encrypted notification reaches the notify URL and verifies to our order; query agrees', async () => {
    const { no, start } = await prepay();
    expect(await wechat.queryOrder(no)).toEqual({ provider: 'wechat', orderNo: no, status: 'pending' });
    notes.clear();
    const res = await simulate({ prepayId: start.prepayId, outcome: 'pay' });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ outTradeNo: no, state: 'SUCCESS', deliveries: [{ status: 204, body: '' }] });
    expect(notes.urls).toEqual([notifyUrl]);
    expect(notes.refused).toEqual([]);
    const paid = notes.accepted[0]!;
    expect(paid).toMatchObject({
      provider: 'wechat',
      orderNo: no,
      amountCents: 1999,
      merchantId: keys.mchId,
      appId: keys.appId,
      status: 'paid',
      paidAt: s.clock.now(),
    });
    expect(paid.providerTxnId).toMatch(/^4200\d{24}$/);
    expect(await wechat.queryOrder(no)).toEqual(paid);
  });

  it('delivered twice: the same verified result twice (the order code applies it once, by provider id)', async () => {
    const { start } = await prepay();
    notes.clear();
    await simulate({ prepayId: start.prepayId, outcome: 'pay', deliveries: 2 });
    expect(notes.accepted).toHaveLength(2);
    expect(notes.accepted[1]).toEqual(notes.accepted[0]);
  });

  it('late: settled silently, found by the query fallback, the notification arriving ten minutes later is still good', async () => {
    const { no, start } = await prepay();
    notes.clear();
    await simulate({ prepayId: start.prepayId, outcome: 'pay', deliveries: 0 });
    expect(notes.urls).toEqual([]);
    const queried = await wechat.queryOrder(no);
    expect(queried.status).toBe('paid');
    s.clock.advance(10 * 60_000);
    await simulate({ prepayId: start.prepayId, outcome: 'pay' });
    expect(notes.accepted).toEqual([queried]);
  });

  it('a replayed notification dated more than five minutes back is refused (timestamp_skew)', async () => {
    const { start } = await prepay();
    notes.clear();
    const res = await simulate({ prepayId: start.prepayId, outcome: 'pay', ageSeconds: 301 });
    expect(res.body.data.deliveries).toEqual([{ status: 400, body: JSON.stringify({ code: 'FAIL', message: 'rejected' }) }]);
    expect(notes.refused.map((r) => r.reason)).toEqual(['timestamp_skew']);
    expect(notes.accepted).toEqual([]);
  });

  it.each([
    ['body', 'bad_signature'],
    ['signature', 'bad_signature'],
    ['serial', 'unknown_serial'],
    ['ciphertext', 'bad_decrypt'],
    ['key', 'bad_decrypt'],
    ['mchid', 'merchant_mismatch'],
    ['appid', 'app_mismatch'],
  ])('tampered (%s): refused as %s, answered with an error so WeChat Pay retries', async (tamper, reason) => {
    const { start } = await prepay();
    notes.clear();
    const res = await simulate({ prepayId: start.prepayId, outcome: 'pay', tamper });
    expect(res.body.data.deliveries[0].status).toBe(400);
    expect(notes.refused.map((r) => r.reason)).toEqual([reason]);
    expect(notes.accepted).toEqual([]);
  });

  it('a validly signed notification with a wrong amount is passed on with that amount, for the order code to refuse', async () => {
    const { start } = await prepay(1999);
    notes.clear();
    await simulate({ prepayId: start.prepayId, outcome: 'pay', tamper: 'amount' });
    expect(notes.accepted.map((r) => r.amountCents)).toEqual([2000]);
  });

  it('fail: no notification (WeChat Pay notifies successes only); the query says failed; paying afterwards is refused', async () => {
    const { no, start } = await prepay();
    notes.clear();
    const res = await simulate({ prepayId: start.prepayId, outcome: 'fail' });
    expect(res.body.data).toMatchObject({ state: 'PAYERROR', deliveries: [] });
    expect(notes.urls).toEqual([]);
    expect(await wechat.queryOrder(no)).toMatchObject({ orderNo: no, status: 'failed', paidAt: null });
    expect((await simulate({ prepayId: start.prepayId, outcome: 'pay' })).status).toBe(409);
  });

  it('close (POST …/out-trade-no/{no}/close, signed, answered 204 signed): the trade is CLOSED, the query says failed, paying it is refused; closing again is fine', async () => {
    const { no, start } = await prepay();
    expect(await wechat.close(no)).toBe('closed');
    expect(await wechat.queryOrder(no)).toMatchObject({ orderNo: no, status: 'failed', paidAt: null });
    expect((await simulate({ prepayId: start.prepayId, outcome: 'pay' })).status).toBe(409);
    expect(await wechat.close(no)).toBe('closed');
    // a prepay for the closed out_trade_no is refused too
    await expect(
      wechat.createPayment({ orderNo: no, amountCents: 1999, description: '月卡', payerOpenId: 'o_member_1', notifyUrl }),
    ).rejects.toMatchObject({ code: 'ORDER_CLOSED' });
  });

  it('close: a paid trade is not closable (ORDERPAID); an unknown one is not_found; an unsigned close is refused', async () => {
    const { no, start } = await prepay();
    await simulate({ prepayId: start.prepayId, outcome: 'pay', deliveries: 0 });
    expect(await wechat.close(no)).toBe('not_closable');
    expect((await wechat.queryOrder(no)).status).toBe('paid');
    expect(await wechat.close('NEVER000002')).toBe('not_found');
    const unsigned = await s.call('POST', `/api/dev/pay/wechat/v3/pay/transactions/out-trade-no/${no}/close`, {
      body: { mchid: keys.mchId },
    });
    expect(unsigned.status).toBe(401);
  });

  it('time_expire: after it the payer cannot pay (the trade stays NOTPAY until closed)', async () => {
    const no = orderNo('W');
    const start = await wechat.createPayment({
      orderNo: no,
      amountCents: 100,
      description: '月卡',
      payerOpenId: 'o_member_1',
      notifyUrl,
      expiresAt: new Date(s.clock.now().getTime() + 60_000),
    });
    if (start.method !== 'wechat') throw new Error('expected wechat');
    s.clock.advance(60_000);
    expect((await simulate({ prepayId: start.prepayId, outcome: 'pay' })).status).toBe(409);
    expect((await wechat.queryOrder(no)).status).toBe('pending');
  });

  it('as WeChat Pay: no transaction_id until the transaction is paid (NOTPAY, PAYERROR, CLOSED carry none)', async () => {
    const signedGet = async (no: string) => {
      const path = `/v3/pay/transactions/out-trade-no/${no}?mchid=${keys.mchId}`;
      const ts = Math.floor(s.clock.now().getTime() / 1000);
      const authorization = signRequest({
        method: 'GET',
        url: path,
        body: '',
        mchid: keys.mchId,
        serialNo: keys.merchantSerial,
        privateKey: keys.merchant.privateKey,
        timestamp: ts,
        nonce: 'N1',
      });
      return (await s.call('GET', `/api/dev/pay/wechat${path}`, { headers: { authorization } })).body as Record<string, unknown>;
    };
    const waiting = await prepay();
    expect(await signedGet(waiting.no)).not.toHaveProperty('transaction_id');
    const failed = await prepay();
    await simulate({ prepayId: failed.start.prepayId, outcome: 'fail' });
    expect(await signedGet(failed.no)).toMatchObject({ trade_state: 'PAYERROR' });
    expect(await signedGet(failed.no)).not.toHaveProperty('transaction_id');
    expect(await wechat.queryOrder(failed.no)).toMatchObject({ status: 'failed', providerTxnId: null });
    await wechat.close(waiting.no);
    expect(await signedGet(waiting.no)).not.toHaveProperty('transaction_id');
    const paid = await prepay();
    await simulate({ prepayId: paid.start.prepayId, outcome: 'pay', deliveries: 0 });
    expect((await signedGet(paid.no)).transaction_id).toMatch(/^4200\d{24}$/);
  });

  it('refuses a payer open id the messaging app never issued for its app (PARAM_ERROR), as WeChat Pay does', async () => {
    const err = await wechat
      .createPayment({ orderNo: orderNo('W'), amountCents: 100, description: '月卡', payerOpenId: 'member-42', notifyUrl })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PaymentProviderError);
    expect(err).toMatchObject({ code: 'PARAM_ERROR' });
  });

  it('an order the provider never saw is not_found', async () => {
    expect(await wechat.queryOrder('NEVER000001')).toEqual({ provider: 'wechat', orderNo: 'NEVER000001', status: 'not_found' });
  });

  it('the same order number again returns the same prepay id; with another amount it is refused', async () => {
    const { no, start } = await prepay(1999);
    const again = await wechat.createPayment({ orderNo: no, amountCents: 1999, description: '月卡', payerOpenId: 'o_member_1', notifyUrl });
    expect(again.method === 'wechat' && again.prepayId).toBe(start.prepayId);
    await expect(
      wechat.createPayment({ orderNo: no, amountCents: 1, description: '月卡', payerOpenId: 'o_member_1', notifyUrl }),
    ).rejects.toMatchObject({ code: 'INVALID_REQUEST' });
  });

  it('the stand-in refuses requests not signed by the merchant key, and our adapter refuses answers not signed by the platform key', async () => {
    const unsigned = await s.call('POST', '/api/dev/pay/wechat/v3/pay/transactions/jsapi', { body: { appid: keys.appId } });
    expect(unsigned.status).toBe(401);
    const base = `${s.deps.config.publicUrl}/api/dev/pay/wechat`;
    const viaApp = async (url: string, init: RequestInit) => s.app.request(url, init);
    const settings = {
      mchId: keys.mchId,
      appId: keys.appId,
      serialNo: keys.merchantSerial,
      privateKey: keys.merchant.privateKey,
      apiV3Key: keys.apiV3Key,
      platformKeys: new Map([[keys.platformSerial, keys.platform.publicKey]]),
      base,
    };
    const wrongMerchantKey = wechatPayGateway({ ...settings, privateKey: newRsaKeyPair().privateKey }, { clock: s.clock, fetch: viaApp });
    await expect(wrongMerchantKey.queryOrder('X1')).rejects.toMatchObject({ code: 'SIGN_ERROR' });
    const wrongPlatformKey = wechatPayGateway(
      { ...settings, platformKeys: new Map([[keys.platformSerial, newRsaKeyPair().publicKey]]) },
      { clock: s.clock, fetch: viaApp },
    );
    const err = await wrongPlatformKey
      .createPayment({ orderNo: orderNo('W'), amountCents: 1, description: 'x', payerOpenId: 'o', notifyUrl })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PaymentProviderError);
    expect(err).toMatchObject({ code: 'ANSWER_NOT_VERIFIED' });
  });

  it('the demo cashier page (no WeixinJSBridge outside the app): Pay settles, notifies and returns to our page only', async () => {
    const { no, start } = await prepay(1999);
    const back = `${s.deps.config.publicUrl}/payf`;
    const page = await s.app.request(`/api/dev/pay/wechat/cashier?prepay_id=${start.prepayId}&return_url=${encodeURIComponent(back)}`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('¥19.99');
    notes.clear();
    const post = (fields: Record<string, string>) =>
      s.app.request('/api/dev/pay/wechat/cashier', {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams(fields).toString(),
      });
    const res = await post({ prepay_id: start.prepayId, outcome: 'pay', return_url: back });
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe(back);
    expect(notes.accepted).toMatchObject([{ orderNo: no, status: 'paid', amountCents: 1999 }]);
    const elsewhere = await post({ prepay_id: start.prepayId, outcome: 'pay', return_url: 'https://evil.example/' });
    expect(elsewhere.status).toBe(200);
  });

  it('the demo cashier checks the pay-sign the page hands to the bridge, as the WeChat client does', async () => {
    const { start } = await prepay(500);
    const open = (p: Record<string, string>) =>
      s.app.request(`/api/dev/pay/wechat/cashier?${new URLSearchParams({ prepay_id: start.prepayId, ...p }).toString()}`);
    expect((await open({ ...start.jsapi })).status).toBe(200);
    const flipped = start.jsapi.paySign.startsWith('A') ? `B${start.jsapi.paySign.slice(1)}` : `A${start.jsapi.paySign.slice(1)}`;
    expect((await open({ ...start.jsapi, paySign: flipped })).status).toBe(400);
    expect((await open({ ...start.jsapi, nonceStr: 'another' })).status).toBe(400);
    expect((await open({ ...start.jsapi, package: 'prepay_id=someone-else' })).status).toBe(400);
    expect((await open({ ...start.jsapi, appId: 'wx-other' })).status).toBe(400);
  });

  it('in demo mode, notifications go to the app itself (in-process) when no test handler is set', async () => {
    const { start } = await (async () => {
      const no = orderNo('W');
      const st = await wechat.createPayment({
        orderNo: no,
        amountCents: 100,
        description: 'x',
        payerOpenId: 'o',
        notifyUrl: `${s.deps.config.publicUrl}/api/no-such-notify-route`,
      });
      if (st.method !== 'wechat') throw new Error('expected wechat');
      return { start: st };
    })();
    const handler = payments.standIn!.notifyFetch;
    payments.standIn!.notifyFetch = undefined;
    try {
      const res = await simulate({ prepayId: start.prepayId, outcome: 'pay' });
      expect(res.body.data.deliveries[0].status).toBe(404);
    } finally {
      payments.standIn!.notifyFetch = handler;
    }
  });
});
