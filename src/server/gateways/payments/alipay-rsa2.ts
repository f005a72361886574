import { createSign, createVerify, type KeyObject } from 'node:crypto';
import { parseShanghaiWallTime, shanghaiFormat } from '../../../domain/time';

/**
 * Alipay's RSA2 (SHA256withRSA) signing of sorted parameters, node:crypto only.
 *
 * Requests (OpenAPI gateway): every parameter but `sign`, empty values skipped, sorted by key,
 * joined as key=value&… (sign_type is signed). Asynchronous notifications: the same, but without
 * `sign` and `sign_type`, over the URL-decoded values.
 */
export type KeyLike = string | KeyObject;

/** The string to sign: keys sorted by code point, empty values skipped, `exclude` left out. */
export function signContent(params: Record<string, string | undefined>, exclude: readonly string[]): string {
  return Object.keys(params)
    .filter((k) => !exclude.includes(k) && params[k] !== undefined && params[k] !== '')
    .sort()
    .map((k) => `${k}=${params[k]}`)
    .join('&');
}

/** The request signing rule: everything but `sign`. */
export const requestSignContent = (params: Record<string, string | undefined>) => signContent(params, ['sign']);
/** The notification verification rule: everything but `sign` and `sign_type`. */
export const notifySignContent = (params: Record<string, string | undefined>) => signContent(params, ['sign', 'sign_type']);

export function rsa2Sign(content: string, privateKey: KeyLike): string {
  return createSign('RSA-SHA256').update(content, 'utf8').sign(privateKey, 'base64');
}

/** false (never a throw) for a bad or garbled signature. */
export function rsa2Verify(content: string, signature: string, publicKey: KeyLike): boolean {
  try {
    return createVerify('RSA-SHA256').update(content, 'utf8').verify(publicKey, signature, 'base64');
  } catch {
    return false;
  }
}

/** Signs request parameters and returns them with `sign` added. */
export function signRequestParams(params: Record<string, string>, privateKey: KeyLike): Record<string, string> {
  return { ...params, sign: rsa2Sign(requestSignContent(params), privateKey) };
}

/** Alipay's timestamp format, in Beijing time: yyyy-MM-dd HH:mm:ss. */
export function alipayTimestamp(at: Date): string {
  return shanghaiFormat(at, 'YYYY-MM-DD HH:mm:ss');
}

/** Reads an Alipay Beijing-time timestamp back into an instant (undefined if malformed). */
export function parseAlipayTimestamp(s: string | undefined): Date | undefined {
  return s === undefined ? undefined : parseShanghaiWallTime(s);
}

/** 1999 -> "19.99": Alipay amounts are yuan with two decimals, never floats on our side. */
export function centsToYuan(cents: number): string {
  if (!Number.isSafeInteger(cents) || cents < 0) throw new RangeError('amount must be a non-negative integer of cents');
  return `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;
}

/** "19.99" -> 1999, "20" -> 2000; undefined for anything else. */
export function yuanToCents(yuan: string | undefined): number | undefined {
  const m = yuan?.match(/^(\d{1,12})(?:\.(\d{1,2}))?$/);
  if (!m) return undefined;
  return Number(m[1]) * 100 + Number((m[2] ?? '').padEnd(2, '0'));
}
