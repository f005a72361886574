import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import type { KeyAdapter, LocalKeySettings } from './key-adapter';

const NONCE = 12;
const TAG = 16;

/**
 * Key-encryption keys held by this process (from DATA_KEY, decision 055): a data key is wrapped with
 * AES-256-GCM under the current key (nonce, then ciphertext, then tag); older keys stay readable.
 */
export function localKeys(settings: LocalKeySettings): KeyAdapter {
  const keys = new Map<string, Buffer>([...settings.previous, settings.current].map((k) => [k.id, k.key]));
  for (const [id, key] of keys) if (key.length !== 32) throw new Error(`key ${id} must be 32 bytes`);
  const current = settings.current;
  return {
    currentKeyId: current.id,
    async wrap(dataKey) {
      const nonce = randomBytes(NONCE);
      const c = createCipheriv('aes-256-gcm', current.key, nonce);
      c.setAAD(Buffer.from(current.id));
      const body = Buffer.concat([c.update(dataKey), c.final()]);
      return { keyId: current.id, wrapped: Buffer.concat([nonce, body, c.getAuthTag()]) };
    },
    async unwrap(keyId, wrapped) {
      const key = keys.get(keyId);
      if (!key) throw new Error(`no key-encryption key with id ${keyId}`);
      const d = createDecipheriv('aes-256-gcm', key, wrapped.subarray(0, NONCE));
      d.setAAD(Buffer.from(keyId));
      d.setAuthTag(wrapped.subarray(wrapped.length - TAG));
      return Buffer.concat([d.update(wrapped.subarray(NONCE, wrapped.length - TAG)), d.final()]);
    },
  };
}
