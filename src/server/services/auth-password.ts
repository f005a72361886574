import { randomBytes, scrypt as scryptCb, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import type { Clock } from '../../domain/clock';
import { PASSWORD_SCRYPT_N, type Config } from '../config';
import type { Db } from '../db/client';

/** What the login and password services need: the database, the clock and the hashing cost. */
export interface AuthDeps {
  db: Db;
  clock: Clock;
  config: Pick<Config, 'passwordScryptN'>;
}

const scrypt = (pw: string, salt: Buffer, len: number, opts: ScryptOptions) =>
  new Promise<Buffer>((resolve, reject) => scryptCb(pw, salt, len, opts, (err, key) => (err ? reject(err) : resolve(key))));

const R = 8;
const P = 1;
const KEYLEN = 32;
// N=2^15, r=8 needs 32 MiB; node's default maxmem is exactly that, so allow headroom.
const MAXMEM = 64 * 1024 * 1024;

/**
 * Hashes a password with scrypt (N=2^15 unless the config says otherwise, r=8, p=1, 16-byte salt):
 * "scrypt$N$r$p$salt$hash".
 */
export async function hashPassword(plain: string, N = PASSWORD_SCRYPT_N): Promise<string> {
  const salt = randomBytes(16);
  const key = await scrypt(plain, salt, KEYLEN, { N, r: R, p: P, maxmem: MAXMEM });
  return `scrypt$${N}$${R}$${P}$${salt.toString('base64')}$${key.toString('base64')}`;
}

/** Checks a password against a stored hash in constant time; false for any malformed hash. */
export async function verifyPassword(plain: string, stored: string | null | undefined): Promise<boolean> {
  if (!stored) return false;
  const [alg, n, r, p, saltB64, keyB64] = stored.split('$');
  if (alg !== 'scrypt' || !n || !r || !p || !saltB64 || !keyB64) return false;
  const expected = Buffer.from(keyB64, 'base64');
  const key = await scrypt(plain, Buffer.from(saltB64, 'base64'), expected.length, {
    N: Number(n),
    r: Number(r),
    p: Number(p),
    maxmem: MAXMEM,
  });
  return key.length === expected.length && timingSafeEqual(key, expected);
}
