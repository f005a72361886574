import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  aesGcmDecrypt,
  aesGcmEncrypt,
  authorizationHeader,
  jsapiPayParams,
  parseAuthorization,
  requestMessage,
  responseMessage,
  rsaSign,
  rsaVerify,
  signedHeaders,
  signRequest,
  verifySignedHeaders,
} from '../../../src/server/gateways/payments/wechatpay-v3';
import { WECHAT_DOC_ANSWER, WECHAT_DOC_GET_MESSAGE, WECHAT_DOC_KEY, WECHAT_DOC_PAY_SIGN, WECHAT_DOC_REQUEST } from './published-examples';

describe("WeChat Pay v3 signatures against the documentation's published examples", () => {
  it('the signature message of GET /v3/certificates, byte for byte (the empty body still ends with \\n)', () => {
    expect(requestMessage('GET', '/v3/certificates', 1554208460, '593BEC0C930BF1AFEB40B4A08C8FB242', '')).toBe(WECHAT_DOC_GET_MESSAGE);
  });

  it('signs the sample JSAPI prepay request to the printed signature', () => {
    const r = WECHAT_DOC_REQUEST;
    expect(rsaSign(requestMessage(r.method, r.url, r.timestamp, r.nonce, r.body), WECHAT_DOC_KEY)).toBe(r.signature);
    const header = signRequest({
      ...r,
      mchid: '1900007291',
      serialNo: '408B07E79B8269FEC3D5D3E6AB8ED163A6A380DB',
      privateKey: WECHAT_DOC_KEY,
    });
    expect(header).toBe(
      `WECHATPAY2-SHA256-RSA2048 mchid="1900007291",nonce_str="593BEC0C930BF1AFEB40B4A08C8FB242",signature="${r.signature}",timestamp="1554208460",serial_no="408B07E79B8269FEC3D5D3E6AB8ED163A6A380DB"`,
    );
  });

  it('builds the sample JSAPI pay-sign for WeixinJSBridge (appId\\ntimeStamp\\nnonceStr\\npackage\\n)', () => {
    const s = WECHAT_DOC_PAY_SIGN;
    expect(jsapiPayParams(s.appId, s.prepayId, WECHAT_DOC_KEY, Number(s.timeStamp), s.nonceStr)).toEqual({
      appId: s.appId,
      timeStamp: s.timeStamp,
      nonceStr: s.nonceStr,
      package: `prepay_id=${s.prepayId}`,
      signType: 'RSA',
      paySign: s.paySign,
    });
  });

  it("verifies the sample signed answer with WeChat Pay's public key, and refuses it with one byte changed", () => {
    const a = WECHAT_DOC_ANSWER;
    const keys = new Map([['PUB_KEY_ID_0114232134912410000000000000', a.publicKey]]);
    const headers = (body: string) =>
      new Headers({
        'Wechatpay-Timestamp': a.timestamp,
        'Wechatpay-Nonce': a.nonce,
        'Wechatpay-Serial': 'PUB_KEY_ID_0114232134912410000000000000',
        'Wechatpay-Signature': a.signature,
        'x-body': body,
      });
    const now = Number(a.timestamp) + 10;
    expect(verifySignedHeaders(a.body, headers(a.body), keys, now)).toEqual({ ok: true });
    expect(verifySignedHeaders(a.body.replace('JyC91EIz1', 'JyC91EIz2'), headers(a.body), keys, now)).toEqual({
      ok: false,
      reason: 'bad_signature',
    });
  });
});

describe('WeChat Pay v3 notification signature checks', () => {
  const platform = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const other = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const SERIAL = '5157F09EFDC096DE15EBE81A47057A7232F1B8E1';
  const keys = new Map([[SERIAL, platform.publicKey]]);
  const body = '{"id":"EV-2018022511223320873","event_type":"TRANSACTION.SUCCESS"}';
  const now = 1_800_000_000;
  const signed = (over: Record<string, string> = {}, b = body, ts = now) =>
    new Headers({ ...signedHeaders(b, { serial: SERIAL, privateKey: platform.privateKey }, ts, 'fdasflkja484w'), ...over });

  it('accepts a notification signed by the platform key named by its serial', () => {
    expect(verifySignedHeaders(body, signed(), keys, now)).toEqual({ ok: true });
  });

  it('signs timestamp\\nnonce\\nbody\\n over the raw body', () => {
    const h = signed();
    expect(
      rsaVerify(responseMessage(h.get('wechatpay-timestamp')!, 'fdasflkja484w', body), h.get('wechatpay-signature')!, platform.publicKey),
    ).toBe(true);
  });

  it('refuses a forged body (the JSON re-serialized or one field changed)', () => {
    expect(verifySignedHeaders(body.replace('SUCCESS', 'SUCCESs'), signed(), keys, now)).toEqual({ ok: false, reason: 'bad_signature' });
    expect(verifySignedHeaders(JSON.stringify(JSON.parse(body), null, 1), signed(), keys, now)).toEqual({
      ok: false,
      reason: 'bad_signature',
    });
  });

  it('refuses a forged signature (another key) and garbage in the signature header', () => {
    const forged = rsaSign(responseMessage(now, 'fdasflkja484w', body), other.privateKey);
    expect(verifySignedHeaders(body, signed({ 'Wechatpay-Signature': forged }), keys, now)).toEqual({ ok: false, reason: 'bad_signature' });
    expect(verifySignedHeaders(body, signed({ 'Wechatpay-Signature': '%%%not-base64' }), keys, now)).toEqual({
      ok: false,
      reason: 'bad_signature',
    });
  });

  it('refuses an unknown serial even when the signature is good for some key we hold', () => {
    expect(verifySignedHeaders(body, signed({ 'Wechatpay-Serial': 'FFFF' }), keys, now)).toEqual({ ok: false, reason: 'unknown_serial' });
  });

  it('refuses timestamps more than five minutes from our clock, either way (300 s is still fine)', () => {
    expect(verifySignedHeaders(body, signed({}, body, now - 300), keys, now)).toEqual({ ok: true });
    expect(verifySignedHeaders(body, signed({}, body, now - 301), keys, now)).toEqual({ ok: false, reason: 'timestamp_skew' });
    expect(verifySignedHeaders(body, signed({}, body, now + 301), keys, now)).toEqual({ ok: false, reason: 'timestamp_skew' });
  });

  it('refuses missing or malformed headers', () => {
    const h = signed();
    h.delete('wechatpay-nonce');
    expect(verifySignedHeaders(body, h, keys, now)).toEqual({ ok: false, reason: 'malformed' });
    expect(verifySignedHeaders(body, signed({ 'Wechatpay-Timestamp': '17e8' }), keys, now)).toEqual({ ok: false, reason: 'malformed' });
  });

  it('accepts a platform key given as PEM text or as a KeyObject', () => {
    const pem = new Map([[SERIAL, platform.publicKey.export({ type: 'spki', format: 'pem' }).toString()]]);
    expect(verifySignedHeaders(body, signed(), pem, now)).toEqual({ ok: true });
  });
});

describe('WeChat Pay v3 AEAD_AES_256_GCM resources', () => {
  const KEY = '0123456789abcdef0123456789abcdef';
  const plain = '{"out_trade_no":"Y20261120001","amount":{"total":1999}}';
  const ct = aesGcmEncrypt(plain, KEY, 'fdasflkja484', 'transaction');

  it('decrypts what was encrypted with the same key, nonce and associated data', () => {
    expect(aesGcmDecrypt(ct, KEY, 'fdasflkja484', 'transaction')).toBe(plain);
  });

  it('refuses a tampered ciphertext or tag, a wrong key, nonce or associated data', () => {
    const flipped = Buffer.from(ct, 'base64');
    flipped[3] = flipped[3]! ^ 0x80;
    expect(() => aesGcmDecrypt(flipped.toString('base64'), KEY, 'fdasflkja484', 'transaction')).toThrow();
    const tag = Buffer.from(ct, 'base64');
    tag[tag.length - 1] = tag[tag.length - 1]! ^ 0x01;
    expect(() => aesGcmDecrypt(tag.toString('base64'), KEY, 'fdasflkja484', 'transaction')).toThrow();
    expect(() => aesGcmDecrypt(ct, 'f'.repeat(32), 'fdasflkja484', 'transaction')).toThrow();
    expect(() => aesGcmDecrypt(ct, KEY, 'fdasflkja485', 'transaction')).toThrow();
    expect(() => aesGcmDecrypt(ct, KEY, 'fdasflkja484', 'certificate')).toThrow();
    expect(() => aesGcmDecrypt('AAAA', KEY, 'fdasflkja484', 'transaction')).toThrow();
  });
});

describe('the Authorization header', () => {
  it('reads back what it writes, in any field order', () => {
    const parts = { mchid: '1900009191', serialNo: '1DDE55AD98ED', timestamp: '1554208460', nonce: 'N1', signature: 'c2ln' };
    expect(parseAuthorization(authorizationHeader(parts))).toEqual(parts);
    expect(
      parseAuthorization(
        'WECHATPAY2-SHA256-RSA2048 serial_no="1DDE55AD98ED",signature="c2ln",mchid="1900009191",nonce_str="N1",timestamp="1554208460"',
      ),
    ).toEqual(parts);
  });

  it('is undefined for another scheme or missing fields', () => {
    expect(parseAuthorization('Bearer x')).toBeUndefined();
    expect(parseAuthorization('WECHATPAY2-SHA256-RSA2048 mchid="1"')).toBeUndefined();
    expect(parseAuthorization(undefined)).toBeUndefined();
  });
});
