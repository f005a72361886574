import { hash, randomBytes } from 'node:crypto';

/** A 128-bit random secret (session tokens, reset and open-id tickets), URL-safe. */
export function newSecret(): string {
  return randomBytes(16).toString('base64url');
}

/** Secrets are stored only as their SHA-256, so a database leak gives no usable token. */
export function hashSecret(secret: string): string {
  return hash('sha256', secret, 'hex');
}
