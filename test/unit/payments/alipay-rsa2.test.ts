import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  alipayTimestamp,
  centsToYuan,
  notifySignContent,
  parseAlipayTimestamp,
  requestSignContent,
  rsa2Sign,
  rsa2Verify,
  signRequestParams,
  yuanToCents,
} from '../../../src/server/gateways/payments/alipay-rsa2';
import { ALIPAY_DOC_REQUEST } from './published-examples';

describe("Alipay RSA2 string to sign, against the open platform's published example", () => {
  it('sorts the keys, leaves out sign, keeps sign_type, joins key=value with &', () => {
    expect(requestSignContent(ALIPAY_DOC_REQUEST.params)).toBe(ALIPAY_DOC_REQUEST.signContent);
  });

  it('skips empty values; a notification leaves out sign_type too', () => {
    expect(requestSignContent({ b: '2', a: '1', c: '', d: undefined, sign: 'x' })).toBe('a=1&b=2');
    expect(notifySignContent({ b: '2', a: '1', sign_type: 'RSA2', sign: 'x' })).toBe('a=1&b=2');
  });
});

describe('Alipay RSA2 signatures', () => {
  const app = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const other = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const params = {
    app_id: '2021000000000001',
    method: 'alipay.trade.query',
    charset: 'utf-8',
    sign_type: 'RSA2',
    timestamp: '2026-11-20 10:00:00',
    version: '1.0',
    biz_content: '{"out_trade_no":"Y1"}',
  };

  it('a signed request verifies with the public key', () => {
    const signed = signRequestParams(params, app.privateKey);
    expect(rsa2Verify(requestSignContent(signed), signed.sign!, app.publicKey)).toBe(true);
  });

  it('refuses a changed parameter, an added parameter, another key, and garbage', () => {
    const signed = signRequestParams(params, app.privateKey);
    expect(rsa2Verify(requestSignContent({ ...signed, biz_content: '{"out_trade_no":"Y2"}' }), signed.sign!, app.publicKey)).toBe(false);
    expect(rsa2Verify(requestSignContent({ ...signed, notify_url: 'https://evil.example' }), signed.sign!, app.publicKey)).toBe(false);
    expect(rsa2Verify(requestSignContent(signed), rsa2Sign(requestSignContent(params), other.privateKey), app.publicKey)).toBe(false);
    expect(rsa2Verify(requestSignContent(signed), 'not a signature', app.publicKey)).toBe(false);
  });
});

describe('Alipay amounts and times', () => {
  it('cents to yuan with two decimals and back, without floats', () => {
    expect(centsToYuan(1999)).toBe('19.99');
    expect(centsToYuan(2000)).toBe('20.00');
    expect(centsToYuan(5)).toBe('0.05');
    expect(yuanToCents('19.99')).toBe(1999);
    expect(yuanToCents('20')).toBe(2000);
    expect(yuanToCents('0.1')).toBe(10);
    expect(yuanToCents('1.999')).toBeUndefined();
    expect(yuanToCents('-1.00')).toBeUndefined();
    expect(yuanToCents('1e3')).toBeUndefined();
    expect(() => centsToYuan(19.5)).toThrow();
  });

  it('timestamps are Beijing time (UTC+8) in yyyy-MM-dd HH:mm:ss', () => {
    expect(alipayTimestamp(new Date('2026-11-20T17:30:05Z'))).toBe('2026-11-21 01:30:05');
    expect(parseAlipayTimestamp('2026-11-21 01:30:05')?.toISOString()).toBe('2026-11-20T17:30:05.000Z');
    expect(parseAlipayTimestamp('2026-11-21T01:30:05')).toBeUndefined();
  });
});
