import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * The access tokens of the messaging-app OAuth stand-in (demo mode and tests only): a signed note of
 * whom and what the token is for, so /sns/userinfo can check a token without a table. The signature
 * is an HMAC-SHA256 with the stand-in's app secret over the note.
 */
export interface StandInGrant {
  openId: string;
  /** snsapi_base | snsapi_userinfo */
  scope: string;
  /** the nickname chosen for this authorization, or null for the open id's default */
  nickname: string | null;
  /** when the token stops working, in ms since the epoch */
  expiresAt: number;
}

const mac = (secret: string, note: string) => createHmac('sha256', secret).update(note, 'utf8').digest('base64url');

/** Issues a token: `<note>.<signature>`, the note a base64url JSON of the grant. */
export function signStandInToken(secret: string, grant: StandInGrant): string {
  const note = Buffer.from(JSON.stringify({ o: grant.openId, s: grant.scope, n: grant.nickname, e: grant.expiresAt }), 'utf8').toString(
    'base64url',
  );
  return `${note}.${mac(secret, note)}`;
}

/** The grant of a token signed with this secret and not yet expired; undefined for anything else. */
export function readStandInToken(secret: string, token: string, now: Date): StandInGrant | undefined {
  const [note, signature, ...rest] = token.split('.');
  if (!note || !signature || rest.length > 0) return undefined;
  const expected = Buffer.from(mac(secret, note));
  const given = Buffer.from(signature);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
  // signed by us, so the note is our JSON
  const raw = JSON.parse(Buffer.from(note, 'base64url').toString('utf8')) as { o: string; s: string; n: string | null; e: number };
  if (raw.e <= now.getTime()) return undefined;
  return { openId: raw.o, scope: raw.s, nickname: raw.n, expiresAt: raw.e };
}
