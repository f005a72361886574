import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import type { KeyAdapter } from './key-adapter';

const NONCE = 12;
const TAG = 16;

/**
 * One value encrypted at rest (decision 055): the ciphertext (AES-256-GCM, its tag at the end) under
 * a fresh data key, that data key wrapped by the key adapter, the wrapping key's id and the nonce.
 * These are the columns stored beside each other; nothing in them reads without the key adapter.
 */
export interface Sealed {
  cipher: Buffer;
  wrappedKey: Buffer;
  keyId: string;
  nonce: Buffer;
}

/**
 * Encrypts one value with its own data key. `context` is bound to the ciphertext (GCM additional data),
 * e.g. `person_info.id_number:42`: a ciphertext copied into another member's row does not open there.
 */
export async function seal(keys: KeyAdapter, plain: Buffer, context: string): Promise<Sealed> {
  const dataKey = randomBytes(32);
  const nonce = randomBytes(NONCE);
  const c = createCipheriv('aes-256-gcm', dataKey, nonce);
  c.setAAD(Buffer.from(context));
  const cipher = Buffer.concat([c.update(plain), c.final(), c.getAuthTag()]);
  const { keyId, wrapped } = await keys.wrap(dataKey);
  dataKey.fill(0);
  return { cipher, wrappedKey: wrapped, keyId, nonce };
}

/** Decrypts a sealed value; throws when the key, the context or any byte is not the one it was sealed with. */
export async function open(keys: KeyAdapter, s: Sealed, context: string): Promise<Buffer> {
  const dataKey = await keys.unwrap(s.keyId, s.wrappedKey);
  try {
    const d = createDecipheriv('aes-256-gcm', dataKey, s.nonce);
    d.setAAD(Buffer.from(context));
    d.setAuthTag(s.cipher.subarray(s.cipher.length - TAG));
    return Buffer.concat([d.update(s.cipher.subarray(0, s.cipher.length - TAG)), d.final()]);
  } finally {
    dataKey.fill(0);
  }
}

/** Text form of seal/open, for ID numbers. */
export const sealText = (keys: KeyAdapter, plain: string, context: string) => seal(keys, Buffer.from(plain, 'utf8'), context);
export const openText = async (keys: KeyAdapter, s: Sealed, context: string) => (await open(keys, s, context)).toString('utf8');
