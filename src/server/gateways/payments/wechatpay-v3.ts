import { createCipheriv, createDecipheriv, createSign, createVerify, randomBytes, type KeyObject } from 'node:crypto';
import { shanghaiFormat } from '../../../domain/time';

/**
 * WeChat Pay API v3's signatures and encryption, node:crypto only. Used by our adapter (sign requests,
 * verify answers and notifications, decrypt resources) and by the stand-in (the other side of each).
 */

/** A PEM string or a KeyObject (node:crypto accepts both). */
export type KeyLike = string | KeyObject;

export const WECHATPAY_SCHEMA = 'WECHATPAY2-SHA256-RSA2048';
/** Notifications and answers older or newer than this (on our clock) are refused as replays. */
export const WECHATPAY_MAX_SKEW_SECONDS = 300;

/** An instant as RFC 3339 Beijing time, whole seconds (cut down): 2026-11-20T10:00:00+08:00 (time_expire, success_time). */
export const beijingIso = (at: Date) => shanghaiFormat(at, 'YYYY-MM-DD[T]HH:mm:ssZ');

/** Reads an RFC 3339 time (time_expire) back; undefined if malformed. */
export function parseRfc3339(s: string | undefined): Date | undefined {
  if (!s || !/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?(Z|[+-]\d{2}:\d{2})$/.test(s)) return undefined;
  const d = new Date(s);
  return Number.isNaN(d.getTime()) ? undefined : d;
}

/** Lines joined by \n, each ending with \n (the last too). */
const lines = (...parts: string[]) => parts.map((p) => `${p}\n`).join('');

/** The request signature message: METHOD\nURL\nTIMESTAMP\nNONCE\nBODY\n (URL = path and query). */
export function requestMessage(method: string, url: string, timestamp: number | string, nonce: string, body: string): string {
  return lines(method.toUpperCase(), url, String(timestamp), nonce, body);
}

/** The answer/notification signature message: TIMESTAMP\nNONCE\nBODY\n over the raw body. */
export function responseMessage(timestamp: number | string, nonce: string, body: string): string {
  return lines(String(timestamp), nonce, body);
}

/** The JSAPI pay-sign message: appId\ntimeStamp\nnonceStr\npackage\n. */
export function paySignMessage(appId: string, timeStamp: string, nonceStr: string, pkg: string): string {
  return lines(appId, timeStamp, nonceStr, pkg);
}

/** SHA256 with RSA (PKCS#1 v1.5), base64. */
export function rsaSign(message: string, privateKey: KeyLike): string {
  return createSign('RSA-SHA256').update(message, 'utf8').sign(privateKey, 'base64');
}

/** Checks a base64 SHA256-with-RSA signature; false (never a throw) for garbage. */
export function rsaVerify(message: string, signature: string, publicKey: KeyLike): boolean {
  try {
    return createVerify('RSA-SHA256').update(message, 'utf8').verify(publicKey, signature, 'base64');
  } catch {
    return false;
  }
}

/** A 32-character random nonce (upper-case hex, as the documentation's examples). */
export function newNonce(): string {
  return randomBytes(16).toString('hex').toUpperCase();
}

export interface AuthorizationParts {
  mchid: string;
  serialNo: string;
  timestamp: string;
  nonce: string;
  signature: string;
}

/** The Authorization header of a signed request. */
export function authorizationHeader(p: AuthorizationParts): string {
  return `${WECHATPAY_SCHEMA} mchid="${p.mchid}",nonce_str="${p.nonce}",signature="${p.signature}",timestamp="${p.timestamp}",serial_no="${p.serialNo}"`;
}

/** Signs one request as the merchant and returns its Authorization header. */
export function signRequest(r: {
  method: string;
  url: string;
  body: string;
  mchid: string;
  serialNo: string;
  privateKey: KeyLike;
  timestamp: number;
  nonce: string;
}): string {
  const signature = rsaSign(requestMessage(r.method, r.url, r.timestamp, r.nonce, r.body), r.privateKey);
  return authorizationHeader({ mchid: r.mchid, serialNo: r.serialNo, timestamp: String(r.timestamp), nonce: r.nonce, signature });
}

/** Reads an Authorization header back into its parts (the fields may come in any order); undefined if malformed. */
export function parseAuthorization(header: string | null | undefined): AuthorizationParts | undefined {
  if (!header?.startsWith(`${WECHATPAY_SCHEMA} `)) return undefined;
  const fields = new Map<string, string>();
  for (const m of header.slice(WECHATPAY_SCHEMA.length + 1).matchAll(/(\w+)="([^"]*)"/g)) fields.set(m[1]!, m[2]!);
  const mchid = fields.get('mchid');
  const serialNo = fields.get('serial_no');
  const timestamp = fields.get('timestamp');
  const nonce = fields.get('nonce_str');
  const signature = fields.get('signature');
  if (!mchid || !serialNo || !timestamp || !nonce || !signature) return undefined;
  return { mchid, serialNo, timestamp, nonce, signature };
}

/** The Wechatpay-* headers the provider puts on an answer or a notification. */
export function signedHeaders(
  body: string,
  key: { serial: string; privateKey: KeyLike },
  timestamp: number,
  nonce: string,
): Record<string, string> {
  return {
    'Wechatpay-Timestamp': String(timestamp),
    'Wechatpay-Nonce': nonce,
    'Wechatpay-Serial': key.serial,
    'Wechatpay-Signature': rsaSign(responseMessage(timestamp, nonce, body), key.privateKey),
  };
}

export type SignatureCheck = { ok: true } | { ok: false; reason: 'malformed' | 'unknown_serial' | 'timestamp_skew' | 'bad_signature' };

/**
 * Verifies an answer or a notification from WeChat Pay: the platform key is chosen by Wechatpay-Serial,
 * the timestamp must be within five minutes of our clock, and the signature covers the raw body.
 */
export function verifySignedHeaders(
  body: string,
  headers: Headers,
  platformKeys: ReadonlyMap<string, KeyLike>,
  nowSeconds: number,
): SignatureCheck {
  const timestamp = headers.get('wechatpay-timestamp');
  const nonce = headers.get('wechatpay-nonce');
  const serial = headers.get('wechatpay-serial');
  const signature = headers.get('wechatpay-signature');
  if (!timestamp || !nonce || !serial || !signature || !/^\d{1,12}$/.test(timestamp)) return { ok: false, reason: 'malformed' };
  const key = platformKeys.get(serial);
  if (!key) return { ok: false, reason: 'unknown_serial' };
  if (Math.abs(nowSeconds - Number(timestamp)) > WECHATPAY_MAX_SKEW_SECONDS) return { ok: false, reason: 'timestamp_skew' };
  return rsaVerify(responseMessage(timestamp, nonce, body), signature, key) ? { ok: true } : { ok: false, reason: 'bad_signature' };
}

/** AEAD_AES_256_GCM with the 32-byte APIv3 key: base64(ciphertext || 16-byte tag). */
export function aesGcmEncrypt(plaintext: string, apiV3Key: string, nonce: string, associatedData: string): string {
  const cipher = createCipheriv('aes-256-gcm', Buffer.from(apiV3Key, 'utf8'), Buffer.from(nonce, 'utf8'));
  cipher.setAAD(Buffer.from(associatedData, 'utf8'));
  return Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final(), cipher.getAuthTag()]).toString('base64');
}

/** Decrypts a notification resource; throws if the key, nonce, associated data or ciphertext is wrong. */
export function aesGcmDecrypt(ciphertext: string, apiV3Key: string, nonce: string, associatedData: string): string {
  const buf = Buffer.from(ciphertext, 'base64');
  if (buf.length < 17) throw new Error('ciphertext too short');
  const decipher = createDecipheriv('aes-256-gcm', Buffer.from(apiV3Key, 'utf8'), Buffer.from(nonce, 'utf8'));
  decipher.setAAD(Buffer.from(associatedData, 'utf8'));
  decipher.setAuthTag(buf.subarray(buf.length - 16));
  return Buffer.concat([decipher.update(buf.subarray(0, buf.length - 16)), decipher.final()]).toString('utf8');
}

/** The JSAPI parameters for WeixinJSBridge.invoke('getBrandWCPayRequest', …), signed with the merchant key. */
export function jsapiPayParams(appId: string, prepayId: string, privateKey: KeyLike, timestamp: number, nonce: string) {
  const timeStamp = String(timestamp);
  const pkg = `prepay_id=${prepayId}`;
  return {
    appId,
    timeStamp,
    nonceStr: nonce,
    package: pkg,
    signType: 'RSA' as const,
    paySign: rsaSign(paySignMessage(appId, timeStamp, nonce, pkg), privateKey),
  };
}
