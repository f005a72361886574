import { createHash, createHmac } from 'node:crypto';

/** What one Tencent Cloud API 3.0 call needs signed (POST, JSON body, signed headers content-type;host). */
export interface Tc3Request {
  secretId: string;
  secretKey: string;
  /** product name, the first label of the host: "sms", "cvm" */
  service: string;
  host: string;
  action: string;
  version: string;
  region?: string;
  /** the exact body bytes that will be sent */
  payload: string;
  /** X-TC-Timestamp, Unix seconds */
  timestamp: number;
}

export const TC3_CONTENT_TYPE = 'application/json; charset=utf-8';

const sha256Hex = (s: string) => createHash('sha256').update(s, 'utf8').digest('hex');
const hmac = (key: string | Buffer, msg: string) => createHmac('sha256', key).update(msg, 'utf8').digest();

/** UTC date of a Unix timestamp (the credential scope is in UTC, never local time). */
function utcDate(timestamp: number): string {
  return new Date(timestamp * 1000).toISOString().slice(0, 10);
}

/** Step 1 of TC3-HMAC-SHA256: the canonical request. */
export function tc3CanonicalRequest(r: Pick<Tc3Request, 'host' | 'payload'>): string {
  return ['POST', '/', '', `content-type:${TC3_CONTENT_TYPE}\nhost:${r.host}\n`, 'content-type;host', sha256Hex(r.payload)].join('\n');
}

/** Step 2: the string to sign. */
export function tc3StringToSign(r: Pick<Tc3Request, 'host' | 'payload' | 'service' | 'timestamp'>): string {
  const scope = `${utcDate(r.timestamp)}/${r.service}/tc3_request`;
  return ['TC3-HMAC-SHA256', String(r.timestamp), scope, sha256Hex(tc3CanonicalRequest(r))].join('\n');
}

/** Steps 3-4: the signature and the Authorization header value. */
export function tc3Sign(r: Tc3Request): { signature: string; authorization: string } {
  const date = utcDate(r.timestamp);
  const secretSigning = hmac(hmac(hmac(`TC3${r.secretKey}`, date), r.service), 'tc3_request');
  const signature = hmac(secretSigning, tc3StringToSign(r)).toString('hex');
  const authorization = `TC3-HMAC-SHA256 Credential=${r.secretId}/${date}/${r.service}/tc3_request, SignedHeaders=content-type;host, Signature=${signature}`;
  return { signature, authorization };
}

/** Every header a signed Tencent Cloud API 3.0 request carries. */
export function tc3Headers(r: Tc3Request): Record<string, string> {
  const { authorization } = tc3Sign(r);
  return {
    Authorization: authorization,
    'Content-Type': TC3_CONTENT_TYPE,
    Host: r.host,
    'X-TC-Action': r.action,
    'X-TC-Timestamp': String(r.timestamp),
    'X-TC-Version': r.version,
    ...(r.region ? { 'X-TC-Region': r.region } : {}),
  };
}
