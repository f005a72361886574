import { AlipaySdk } from 'alipay-sdk';
import { describe, expect, it } from 'vitest';
import { Aes, Formatter, Rsa } from 'wechatpay-axios-plugin';
import { fixedClock } from '../../../src/domain/clock';
import { alipayGateway } from '../../../src/server/gateways/payments/alipay';
import { requestSignContent, rsa2Verify } from '../../../src/server/gateways/payments/alipay-rsa2';
import { alipayNotification } from '../../../src/server/gateways/payments/alipay-standin';
import type { StandInOrder } from '../../../src/server/gateways/payments/standin-common';
import { newPaymentStandIns } from '../../../src/server/gateways/payments/standin-keys';
import { wechatNotification } from '../../../src/server/gateways/payments/wechat-standin';
import { wechatPayGateway } from '../../../src/server/gateways/payments/wechatpay';
import {
  aesGcmDecrypt,
  aesGcmEncrypt,
  jsapiPayParams,
  parseAuthorization,
  paySignMessage,
  requestMessage,
  responseMessage,
  rsaSign,
  signRequest,
} from '../../../src/server/gateways/payments/wechatpay-v3';

/**
 * Our signing, verification and decryption checked against maintained libraries of each protocol, so a
 * mistake shared by our stand-in and our verifier cannot pass: wechatpay-axios-plugin (Rsa, Aes.AesGcm,
 * Formatter) for WeChat Pay v3, and Alipay's own Node SDK (alipay-sdk: pageExec, checkNotifySignV2).
 */
const keys = newPaymentStandIns();
const w = keys.wechat;
const a = keys.alipay;
const pem = (k: { export(o: { type: 'pkcs8' | 'spki'; format: 'pem' }): string | Buffer }, type: 'pkcs8' | 'spki') =>
  k.export({ type, format: 'pem' }).toString();
const now = new Date('2026-11-20T02:00:00Z');
const nowSeconds = now.getTime() / 1000;
const clock = fixedClock(now);

const row: StandInOrder = {
  id: 1,
  provider: 'wechat',
  merchantId: w.mchId,
  appId: w.appId,
  outTradeNo: 'Y20261120000001',
  prepayId: 'wx20261120000000000000000000000000001',
  providerTxnId: '4200000000202611200000000001',
  amountCents: 1999,
  description: '月卡',
  payerOpenId: 'o_member_1',
  notifyUrl: 'http://localhost:3000/api/pay/notify/wechat',
  state: 'SUCCESS',
  paidAt: now,
  expiresAt: null,
  createdAt: now,
};

const ourWechat = () =>
  wechatPayGateway(
    {
      mchId: w.mchId,
      appId: w.appId,
      serialNo: w.merchantSerial,
      privateKey: w.merchant.privateKey,
      apiV3Key: w.apiV3Key,
      platformKeys: new Map([[w.platformSerial, w.platform.publicKey]]),
      base: 'http://x',
    },
    { clock },
  );

describe('WeChat Pay v3 against wechatpay-axios-plugin', () => {
  it('the request message and signature equal Formatter.request + Rsa.sign (PKCS#1 v1.5 is deterministic)', () => {
    const body = '{"appid":"wx1","mchid":"1900000109"}';
    const ours = requestMessage('POST', '/v3/pay/transactions/jsapi', 1763604000, 'NONCE1', body);
    expect(ours).toBe(Formatter.request('POST', '/v3/pay/transactions/jsapi', 1763604000, 'NONCE1', body));
    expect(requestMessage('GET', '/v3/pay/transactions/out-trade-no/Y1?mchid=1', 1, 'N', '')).toBe(
      Formatter.request('GET', '/v3/pay/transactions/out-trade-no/Y1?mchid=1', 1, 'N'),
    );
    expect(rsaSign(ours, w.merchant.privateKey)).toBe(Rsa.sign(ours, pem(w.merchant.privateKey, 'pkcs8')));
  });

  it("our Authorization header carries the same fields as the library's, and the library verifies its signature", () => {
    const header = signRequest({
      method: 'GET',
      url: '/v3/certificates',
      body: '',
      mchid: w.mchId,
      serialNo: w.merchantSerial,
      privateKey: w.merchant.privateKey,
      timestamp: 1763604000,
      nonce: 'N2',
    });
    const p = parseAuthorization(header)!;
    expect(parseAuthorization(Formatter.authorization(p.mchid, p.nonce, p.signature, p.timestamp, p.serialNo))).toEqual(p);
    expect(
      Rsa.verify(Formatter.request('GET', '/v3/certificates', p.timestamp, p.nonce), p.signature, pem(w.merchant.publicKey, 'spki')),
    ).toBe(true);
  });

  it('the JSAPI pay-sign verifies with the library (appId\\ntimeStamp\\nnonceStr\\npackage\\n)', () => {
    const j = jsapiPayParams(w.appId, 'wx2026', w.merchant.privateKey, 1763604000, 'N3');
    expect(paySignMessage(j.appId, j.timeStamp, j.nonceStr, j.package)).toBe(
      Formatter.joinedByLineFeed(j.appId, j.timeStamp, j.nonceStr, j.package),
    );
    expect(
      Rsa.verify(Formatter.joinedByLineFeed(j.appId, j.timeStamp, j.nonceStr, j.package), j.paySign, pem(w.merchant.publicKey, 'spki')),
    ).toBe(true);
  });

  it("AEAD_AES_256_GCM: the library decrypts ours and we decrypt the library's", () => {
    const plain = JSON.stringify({ out_trade_no: 'Y1', amount: { total: 1 } });
    expect(
      Aes.AesGcm.decrypt(aesGcmEncrypt(plain, w.apiV3Key, 'abcdefghijkl', 'transaction'), w.apiV3Key, 'abcdefghijkl', 'transaction'),
    ).toBe(plain);
    expect(
      aesGcmDecrypt(Aes.AesGcm.encrypt(plain, w.apiV3Key, 'abcdefghijkl', 'transaction'), w.apiV3Key, 'abcdefghijkl', 'transaction'),
    ).toBe(plain);
  });

  it("the stand-in's notification verifies and decrypts with the library", () => {
    const n = wechatNotification(row, w, nowSeconds);
    const h = n.headers as Record<string, string>;
    expect(
      Rsa.verify(
        Formatter.response(h['Wechatpay-Timestamp']!, h['Wechatpay-Nonce']!, n.body),
        h['Wechatpay-Signature']!,
        pem(w.platform.publicKey, 'spki'),
      ),
    ).toBe(true);
    const r = (JSON.parse(n.body) as { resource: { ciphertext: string; nonce: string; associated_data: string } }).resource;
    const tx = JSON.parse(Aes.AesGcm.decrypt(r.ciphertext, w.apiV3Key, r.nonce, r.associated_data)) as {
      out_trade_no: string;
      amount: { total: number };
    };
    expect(tx).toMatchObject({
      out_trade_no: 'Y20261120000001',
      amount: { total: 1999 },
      mchid: w.mchId,
      appid: w.appId,
      trade_state: 'SUCCESS',
    });
  });

  it('a notification built only with the library is accepted by our parseNotification', () => {
    const tx = {
      appid: w.appId,
      mchid: w.mchId,
      out_trade_no: 'Y9',
      transaction_id: '4200009',
      trade_type: 'JSAPI',
      trade_state: 'SUCCESS',
      success_time: '2026-11-20T10:00:00+08:00',
      amount: { total: 500, currency: 'CNY' },
    };
    const ciphertext = Aes.AesGcm.encrypt(JSON.stringify(tx), w.apiV3Key, 'lib-nonce-12', 'transaction');
    const body = JSON.stringify({
      id: 'EV-1',
      event_type: 'TRANSACTION.SUCCESS',
      resource_type: 'encrypt-resource',
      resource: {
        algorithm: 'AEAD_AES_256_GCM',
        ciphertext,
        nonce: 'lib-nonce-12',
        associated_data: 'transaction',
        original_type: 'transaction',
      },
    });
    const ts = String(nowSeconds);
    const signature = Rsa.sign(Formatter.response(ts, 'LIBNONCE', body), pem(w.platform.privateKey, 'pkcs8'));
    const headers = new Headers({
      'Wechatpay-Timestamp': ts,
      'Wechatpay-Nonce': 'LIBNONCE',
      'Wechatpay-Serial': w.platformSerial,
      'Wechatpay-Signature': signature,
    });
    expect(ourWechat().parseNotification(body, headers)).toEqual({
      provider: 'wechat',
      providerTxnId: '4200009',
      orderNo: 'Y9',
      amountCents: 500,
      merchantId: w.mchId,
      appId: w.appId,
      status: 'paid',
      paidAt: new Date('2026-11-20T02:00:00Z'),
    });
    expect(() => ourWechat().parseNotification(body.replace('EV-1', 'EV-2'), headers)).toThrow(/bad_signature/);
  });

  it('the stand-in signs the response message the library verifies answers with', () => {
    expect(responseMessage(1, 'n', '{}')).toBe(Formatter.response(1, 'n', '{}'));
  });
});

describe("Alipay RSA2 against Alipay's Node SDK (alipay-sdk)", () => {
  const sdkAsAlipay = new AlipaySdk({
    appId: a.appId,
    privateKey: pem(a.alipay.privateKey, 'pkcs8'),
    keyType: 'PKCS8',
    alipayPublicKey: pem(a.alipay.publicKey, 'spki'),
  });
  // the SDK's notification check, pointed at the APP's public key, checks our request signatures
  const sdkCheckingApp = new AlipaySdk({
    appId: a.appId,
    privateKey: pem(a.app.privateKey, 'pkcs8'),
    keyType: 'PKCS8',
    alipayPublicKey: pem(a.app.publicKey, 'spki'),
  });
  const ourAlipay = alipayGateway(
    {
      appId: a.appId,
      privateKey: a.app.privateKey,
      alipayPublicKey: a.alipay.publicKey,
      gateway: 'https://openapi.alipay.com/gateway.do',
      sellerId: a.sellerId,
    },
    { clock },
  );
  const alipayRow: StandInOrder = {
    ...row,
    provider: 'alipay',
    merchantId: a.sellerId,
    appId: a.appId,
    prepayId: null,
    providerTxnId: '2026112022001',
    state: 'TRADE_SUCCESS',
  };

  it("the stand-in's notification passes the SDK's checkNotifySignV2; a changed amount does not", () => {
    const params = Object.fromEntries(new URLSearchParams(alipayNotification(alipayRow, a, now)));
    expect(sdkAsAlipay.checkNotifySignV2(params)).toBe(true);
    expect(sdkAsAlipay.checkNotifySignV2({ ...params, total_amount: '199.90' })).toBe(false);
    const tampered = Object.fromEntries(new URLSearchParams(alipayNotification(alipayRow, a, now, 'body')));
    expect(sdkAsAlipay.checkNotifySignV2(tampered)).toBe(false);
  });

  it("a wap.pay request signed by the SDK (pageExec) passes the stand-in's verifier", () => {
    const url = sdkCheckingApp.pageExec('alipay.trade.wap.pay', 'GET', {
      bizContent: { out_trade_no: 'Y1', total_amount: '19.99', subject: '月卡', product_code: 'QUICK_WAP_WAY' },
      notifyUrl: 'http://localhost:3000/api/pay/notify/alipay',
    });
    const params = Object.fromEntries(new URL(url).searchParams);
    expect(params.sign).toBeTruthy();
    expect(rsa2Verify(requestSignContent(params), params.sign!, a.app.publicKey)).toBe(true);
    expect(rsa2Verify(requestSignContent({ ...params, notify_url: 'http://evil.example/' }), params.sign!, a.app.publicKey)).toBe(false);
  });

  it("our wap.pay redirect's signature passes the SDK's RSA2 check over the sorted parameters", async () => {
    const start = await ourAlipay.createPayment({
      orderNo: 'Y2',
      amountCents: 1999,
      description: '月卡',
      notifyUrl: 'http://localhost:3000/api/pay/notify/alipay',
    });
    if (start.method !== 'alipay') throw new Error('expected alipay');
    const params = Object.fromEntries(new URL(start.url).searchParams);
    expect(params).toMatchObject({
      app_id: a.appId,
      method: 'alipay.trade.wap.pay',
      sign_type: 'RSA2',
      charset: 'utf-8',
      version: '1.0',
      timestamp: '2026-11-20 10:00:00',
    });
    expect(JSON.parse(params.biz_content!)).toEqual({
      out_trade_no: 'Y2',
      total_amount: '19.99',
      subject: '月卡',
      product_code: 'QUICK_WAP_WAY',
    });
    expect(sdkCheckingApp.checkNotifySignV2(params)).toBe(true);
    expect(start.form.fields).toEqual(params);
  });
});
