import { AlipaySdk } from 'alipay-sdk';
import { describe, expect, it } from 'vitest';
import { Aes, Formatter, Rsa } from 'wechatpay-axios-plugin';
import { fixedClock } from '../../../src/domain/clock';
import { alipayGateway } from '../../../src/server/gateways/payments/alipay';
import { requestSignContent, rsa2Verify } from '../../../src/server/gateways/payments/alipay-rsa2';
import { alipayNotification } from '../../../src/server/gateways/payments/alipay-standin';
import type { StandInOrder } from '../../../src/server/gateways/payments/standin-common';
import { newPaymentStandIns } from '../../../src/server/gateways/payments/standin-keys';
import type { StandInRefund } from '../../../src/server/gateways/payments/standin-refunds';
import type { RefundInput } from '../../../src/server/gateways/payments/types';
import { wechatRefundNotification } from '../../../src/server/gateways/payments/wechat-standin-refunds';
import { wechatPayGateway } from '../../../src/server/gateways/payments/wechatpay';
import { parseAuthorization } from '../../../src/server/gateways/payments/wechatpay-v3';

/**
 * Refunds checked against maintained libraries (decision 005's rule: a mistake shared by our stand-in and
 * our verifier must not hide): wechatpay-axios-plugin verifies our refund requests' signatures, signs the
 * answers and notifications our adapter must accept, and verifies and decrypts the stand-in's REFUND.*
 * notifications; Alipay's alipay-sdk checks our alipay.trade.refund signature, the stand-in's signed
 * answer (its own response slicing) and the stand-in's refund notification.
 */
const keys = newPaymentStandIns();
const w = keys.wechat;
const a = keys.alipay;
const pem = (k: { export(o: { type: 'pkcs8' | 'spki'; format: 'pem' }): string | Buffer }, type: 'pkcs8' | 'spki') =>
  k.export({ type, format: 'pem' }).toString();
const now = new Date('2026-11-20T02:00:00Z');
const ts = String(now.getTime() / 1000);
const clock = fixedClock(now);

const input: RefundInput = {
  outTradeNo: 'Y20261120000001-1',
  providerTxnId: '4200000000202611200000000001',
  outRefundNo: 'R17-1',
  amountCents: 1500,
  totalCents: 1999,
  reason: '取消订单',
  notifyUrl: 'http://localhost:3000/api/pay/refund-notify/wechat',
};

/** A fetch that records the request and answers with what the test gives. */
function recordingFetch(answer: (req: { url: string; method: string; headers: Headers; body: string }) => Response) {
  const seen: { url: string; method: string; headers: Headers; body: string }[] = [];
  const fetch = async (url: string, init?: RequestInit) => {
    const req = new Request(url, init);
    const r = { url, method: req.method, headers: req.headers, body: await req.text() };
    seen.push(r);
    return answer(r);
  };
  return { seen, fetch };
}

/** A WeChat Pay answer signed by the library with the platform key. */
function librarySigned(body: string, status = 200) {
  const signature = Rsa.sign(Formatter.response(ts, 'LIBNONCE', body), pem(w.platform.privateKey, 'pkcs8'));
  return new Response(body, {
    status,
    headers: {
      'Content-Type': 'application/json',
      'Wechatpay-Timestamp': ts,
      'Wechatpay-Nonce': 'LIBNONCE',
      'Wechatpay-Serial': w.platformSerial,
      'Wechatpay-Signature': signature,
    },
  });
}

const wechatWith = (fetch: (url: string, init?: RequestInit) => Promise<Response>) =>
  wechatPayGateway(
    {
      mchId: w.mchId,
      appId: w.appId,
      serialNo: w.merchantSerial,
      privateKey: w.merchant.privateKey,
      apiV3Key: w.apiV3Key,
      platformKeys: new Map([[w.platformSerial, w.platform.publicKey]]),
      base: 'https://api.mch.weixin.qq.com',
    },
    { clock, fetch },
  );

const refundObject = {
  refund_id: '50300000000000000000000000000001',
  out_refund_no: 'R17-1',
  transaction_id: input.providerTxnId,
  out_trade_no: input.outTradeNo,
  status: 'SUCCESS',
  amount: { total: 1999, refund: 1500, payer_total: 1999, payer_refund: 1500, currency: 'CNY' },
};

describe('WeChat Pay refunds against wechatpay-axios-plugin', () => {
  it('our POST /v3/refund/domestic/refunds is signed as the library verifies it, and a library-signed answer is accepted', async () => {
    const rec = recordingFetch(() => librarySigned(JSON.stringify(refundObject)));
    const result = await wechatWith(rec.fetch).refund(input);
    const req = rec.seen[0]!;
    expect(req.url).toBe('https://api.mch.weixin.qq.com/v3/refund/domestic/refunds');
    const auth = parseAuthorization(req.headers.get('authorization'))!;
    expect(auth).toMatchObject({ mchid: w.mchId, serialNo: w.merchantSerial, timestamp: ts });
    expect(
      Rsa.verify(
        Formatter.request('POST', '/v3/refund/domestic/refunds', auth.timestamp, auth.nonce, req.body),
        auth.signature,
        pem(w.merchant.publicKey, 'spki'),
      ),
    ).toBe(true);
    expect(
      Rsa.verify(
        Formatter.request('POST', '/v3/refund/domestic/refunds', auth.timestamp, auth.nonce, req.body.replace('1500', '1999')),
        auth.signature,
        pem(w.merchant.publicKey, 'spki'),
      ),
    ).toBe(false);
    expect(JSON.parse(req.body)).toEqual({
      transaction_id: input.providerTxnId,
      out_refund_no: 'R17-1',
      reason: '取消订单',
      notify_url: input.notifyUrl,
      amount: { refund: 1500, total: 1999, currency: 'CNY' },
    });
    expect(result).toEqual({
      provider: 'wechat',
      outRefundNo: 'R17-1',
      status: 'succeeded',
      providerRefundId: refundObject.refund_id,
      amountCents: 1500,
    });
  });

  it('an answer the library signed over other bytes is never believed', async () => {
    const rec = recordingFetch(() => {
      const res = librarySigned(JSON.stringify(refundObject));
      return new Response(JSON.stringify({ ...refundObject, amount: { ...refundObject.amount, refund: 1 } }), {
        status: 200,
        headers: res.headers,
      });
    });
    await expect(wechatWith(rec.fetch).refund(input)).rejects.toMatchObject({ code: 'ANSWER_NOT_VERIFIED' });
  });

  it('our GET /v3/refund/domestic/refunds/{out_refund_no} is signed over the empty body as the library verifies it', async () => {
    const rec = recordingFetch(() => librarySigned(JSON.stringify({ ...refundObject, status: 'PROCESSING' })));
    expect(await wechatWith(rec.fetch).queryRefund(input.outTradeNo, 'R17-1')).toMatchObject({ status: 'processing' });
    const req = rec.seen[0]!;
    expect(req.method).toBe('GET');
    const auth = parseAuthorization(req.headers.get('authorization'))!;
    expect(
      Rsa.verify(
        Formatter.request('GET', '/v3/refund/domestic/refunds/R17-1', auth.timestamp, auth.nonce),
        auth.signature,
        pem(w.merchant.publicKey, 'spki'),
      ),
    ).toBe(true);
  });

  it("the stand-in's REFUND.SUCCESS notification verifies and decrypts with the library (associated data 'refund')", () => {
    const trade = { providerTxnId: input.providerTxnId } as StandInOrder;
    const row: StandInRefund = {
      id: 1,
      provider: 'wechat',
      merchantId: w.mchId,
      outTradeNo: input.outTradeNo,
      outRefundNo: 'R17-1',
      refundId: refundObject.refund_id,
      amountCents: 1500,
      totalCents: 1999,
      reason: null,
      notifyUrl: input.notifyUrl,
      state: 'SUCCESS',
      simulate: null,
      createdAt: now,
      succeededAt: now,
    };
    const n = wechatRefundNotification(row, trade, w, Number(ts));
    const h = n.headers as Record<string, string>;
    expect(
      Rsa.verify(
        Formatter.response(h['Wechatpay-Timestamp']!, h['Wechatpay-Nonce']!, n.body),
        h['Wechatpay-Signature']!,
        pem(w.platform.publicKey, 'spki'),
      ),
    ).toBe(true);
    const note = JSON.parse(n.body) as {
      event_type: string;
      resource: { ciphertext: string; nonce: string; associated_data: string; original_type: string };
    };
    expect(note).toMatchObject({ event_type: 'REFUND.SUCCESS', resource: { associated_data: 'refund', original_type: 'refund' } });
    const resource = JSON.parse(
      Aes.AesGcm.decrypt(note.resource.ciphertext, w.apiV3Key, note.resource.nonce, note.resource.associated_data),
    ) as Record<string, unknown>;
    expect(resource).toMatchObject({
      mchid: w.mchId,
      out_trade_no: input.outTradeNo,
      transaction_id: input.providerTxnId,
      out_refund_no: 'R17-1',
      refund_id: refundObject.refund_id,
      refund_status: 'SUCCESS',
      success_time: '2026-11-20T10:00:00+08:00',
      amount: { total: 1999, refund: 1500, payer_total: 1999, payer_refund: 1500 },
    });
  });

  it('a REFUND.ABNORMAL notification built only with the library is accepted by our parseRefundNotification; changed after signing, refused', () => {
    const resource = {
      mchid: w.mchId,
      out_trade_no: 'Y9-1',
      transaction_id: '4200009',
      out_refund_no: 'R9-2',
      refund_id: '5030009',
      refund_status: 'ABNORMAL',
      user_received_account: '招商银行信用卡0403',
      amount: { total: 500, refund: 200, payer_total: 500, payer_refund: 200 },
    };
    const ciphertext = Aes.AesGcm.encrypt(JSON.stringify(resource), w.apiV3Key, 'lib-nonce-12', 'refund');
    const body = JSON.stringify({
      id: 'EV-9',
      create_time: '2026-11-20T10:00:00+08:00',
      resource_type: 'encrypt-resource',
      event_type: 'REFUND.ABNORMAL',
      summary: '退款异常',
      resource: { original_type: 'refund', algorithm: 'AEAD_AES_256_GCM', ciphertext, associated_data: 'refund', nonce: 'lib-nonce-12' },
    });
    const signature = Rsa.sign(Formatter.response(ts, 'LIBNONCE', body), pem(w.platform.privateKey, 'pkcs8'));
    const headers = new Headers({
      'Wechatpay-Timestamp': ts,
      'Wechatpay-Nonce': 'LIBNONCE',
      'Wechatpay-Serial': w.platformSerial,
      'Wechatpay-Signature': signature,
    });
    const ours = wechatWith(async () => new Response(null));
    expect(ours.parseRefundNotification(body, headers)).toEqual({
      provider: 'wechat',
      outRefundNo: 'R9-2',
      status: 'abnormal',
      providerRefundId: '5030009',
      amountCents: 200,
    });
    expect(() => ours.parseRefundNotification(body.replace('EV-9', 'EV-8'), headers)).toThrow(/bad_signature/);
    // and it is no payment
    expect(() => ours.parseNotification(body, headers)).toThrow(/malformed/);
  });
});

describe("Alipay refunds against Alipay's Node SDK (alipay-sdk)", () => {
  // the SDK as the merchant sees Alipay (answers and notifications signed with Alipay's key)
  const sdkAsMerchant = new AlipaySdk({
    appId: a.appId,
    privateKey: pem(a.app.privateKey, 'pkcs8'),
    keyType: 'PKCS8',
    alipayPublicKey: pem(a.alipay.publicKey, 'spki'),
  });
  // the SDK's check pointed at the APP's public key checks our request signatures
  const sdkCheckingApp = new AlipaySdk({
    appId: a.appId,
    privateKey: pem(a.app.privateKey, 'pkcs8'),
    keyType: 'PKCS8',
    alipayPublicKey: pem(a.app.publicKey, 'spki'),
  });
  const alipayWith = (fetch: (url: string, init?: RequestInit) => Promise<Response>) =>
    alipayGateway(
      {
        appId: a.appId,
        privateKey: a.app.privateKey,
        alipayPublicKey: a.alipay.publicKey,
        gateway: 'https://openapi.alipay.com/gateway.do',
        sellerId: a.sellerId,
      },
      { clock, fetch },
    );
  /** an answer as Alipay sends it, the response object signed (independently of our code) with Alipay's key */
  const answered = (key: string, value: object) => {
    const part = JSON.stringify(value);
    return new Response(`{"${key}":${part},"sign":"${Rsa.sign(part, pem(a.alipay.privateKey, 'pkcs8'))}"}`, {
      headers: { 'Content-Type': 'application/json;charset=utf-8' },
    });
  };

  it("our alipay.trade.refund request passes the SDK's RSA2 check; the SDK's own signed answer check accepts what we accept", async () => {
    const value = {
      code: '10000',
      msg: 'Success',
      trade_no: '2026112022001',
      out_trade_no: input.outTradeNo,
      buyer_logon_id: 'buy***@example.com',
      fund_change: 'Y',
      refund_fee: '15.00',
    };
    const rec = recordingFetch(() => answered('alipay_trade_refund_response', value));
    const result = await alipayWith(rec.fetch).refund({ ...input, providerTxnId: '2026112022001' });
    const params = Object.fromEntries(new URLSearchParams(rec.seen[0]!.body));
    expect(params).toMatchObject({
      app_id: a.appId,
      method: 'alipay.trade.refund',
      sign_type: 'RSA2',
      charset: 'utf-8',
      version: '1.0',
      timestamp: '2026-11-20 10:00:00',
    });
    expect(JSON.parse(params.biz_content!)).toEqual({
      out_trade_no: input.outTradeNo,
      trade_no: '2026112022001',
      refund_amount: '15.00',
      out_request_no: 'R17-1',
      refund_reason: '取消订单',
    });
    expect(sdkCheckingApp.checkNotifySignV2(params)).toBe(true);
    expect(sdkCheckingApp.checkNotifySignV2({ ...params, biz_content: params.biz_content!.replace('15.00', '19.99') })).toBe(false);
    expect(result).toMatchObject({ status: 'succeeded' });
    const raw = await answered('alipay_trade_refund_response', value).text();
    const sign = (JSON.parse(raw) as { sign: string }).sign;
    expect(() => sdkAsMerchant.checkResponseSign(raw, 'alipay_trade_refund_response', sign, 'T1')).not.toThrow();
  });

  it("an alipay.trade.refund signed by the SDK (pageExec) passes the stand-in's request verifier", () => {
    const url = sdkCheckingApp.pageExec('alipay.trade.refund', 'GET', {
      bizContent: { out_trade_no: 'Y1', refund_amount: '1.00', out_request_no: 'R1-1' },
    });
    const params = Object.fromEntries(new URL(url).searchParams);
    expect(rsa2Verify(requestSignContent(params), params.sign!, a.app.publicKey)).toBe(true);
  });

  it("our refund query's answer check agrees with the SDK's (signed bytes cut from the answer text)", async () => {
    const value = {
      code: '10000',
      msg: 'Success',
      trade_no: '2026112022001',
      out_trade_no: input.outTradeNo,
      out_request_no: 'R17-1',
      total_amount: '19.99',
      refund_amount: '15.00',
      refund_status: 'REFUND_SUCCESS',
    };
    const rec = recordingFetch(() => answered('alipay_trade_fastpay_refund_query_response', value));
    expect(await alipayWith(rec.fetch).queryRefund(input.outTradeNo, 'R17-1')).toMatchObject({ status: 'succeeded', amountCents: 1500 });
    const params = Object.fromEntries(new URLSearchParams(rec.seen[0]!.body));
    expect(sdkCheckingApp.checkNotifySignV2(params)).toBe(true);
    // the same answer with its bytes changed after signing: the SDK refuses it and so do we
    const forged = async () => {
      const good = await answered('alipay_trade_fastpay_refund_query_response', value).text();
      return new Response(good.replace('"15.00"', '"19.99"'));
    };
    const bad = await forged();
    const text = await bad.clone().text();
    expect(() =>
      sdkAsMerchant.checkResponseSign(
        text,
        'alipay_trade_fastpay_refund_query_response',
        (JSON.parse(text) as { sign: string }).sign,
        'T2',
      ),
    ).toThrow();
    await expect(alipayWith(async () => forged()).queryRefund(input.outTradeNo, 'R17-1')).rejects.toMatchObject({
      code: 'ANSWER_NOT_VERIFIED',
    });
  });

  it("the stand-in's refund notification passes the SDK's checkNotifySignV2, and ours reads it as a refund", () => {
    const trade: StandInOrder = {
      id: 1,
      provider: 'alipay',
      merchantId: a.sellerId,
      appId: a.appId,
      outTradeNo: input.outTradeNo,
      prepayId: null,
      providerTxnId: '2026112022001',
      amountCents: 1999,
      description: '月卡',
      payerOpenId: null,
      notifyUrl: 'http://localhost:3000/api/pay/notify/alipay',
      state: 'TRADE_SUCCESS',
      paidAt: now,
      expiresAt: null,
      createdAt: now,
    };
    const body = alipayNotification(trade, a, now, undefined, {
      out_biz_no: 'R17-1',
      refund_fee: '15.00',
      gmt_refund: '2026-11-20 10:00:00.000',
    });
    const params = Object.fromEntries(new URLSearchParams(body));
    expect(sdkAsMerchant.checkNotifySignV2(params)).toBe(true);
    expect(sdkAsMerchant.checkNotifySignV2({ ...params, out_biz_no: 'R18-1' })).toBe(false);
    const ours = alipayWith(async () => new Response(null));
    expect(ours.parseNotification(body, new Headers())).toEqual({
      provider: 'alipay',
      orderNo: input.outTradeNo,
      status: 'refund',
      outRefundNo: 'R17-1',
    });
    expect(ours.parseRefundNotification(body, new Headers())).toEqual({
      provider: 'alipay',
      outRefundNo: 'R17-1',
      status: 'succeeded',
      providerRefundId: null,
      amountCents: null,
    });
  });
});
