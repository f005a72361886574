import type { KeyAdapter } from '../../gateways/keys/key-adapter';
import { open, seal } from '../../gateways/keys/envelope';

/** An image's key columns (member_photos, transfer_images): null in a row from before encryption. */
export interface ImageKey {
  wrappedKey: Buffer | null;
  keyId: string | null;
  nonce: Buffer | null;
}

/** An image's bytes encrypted (decision 055): the ciphertext to store (row or object store) and its key columns. */
export async function sealImage(keys: KeyAdapter, bytes: Buffer, context: string): Promise<{ cipher: Buffer; key: ImageKey }> {
  const s = await seal(keys, bytes, context);
  return { cipher: s.cipher, key: { wrappedKey: s.wrappedKey, keyId: s.keyId, nonce: s.nonce } };
}

/** An image's bytes as stored, decrypted (a row from before encryption is read as it is). */
export async function openImage(keys: KeyAdapter, stored: Buffer, key: ImageKey, context: string): Promise<Buffer> {
  if (key.keyId === null) return stored;
  if (!key.wrappedKey || !key.nonce) throw new Error(`sealed image incomplete (${context})`);
  return open(keys, { cipher: stored, wrappedKey: key.wrappedKey, keyId: key.keyId, nonce: key.nonce }, context);
}

/** The context a member's face photo is sealed under (its member). */
export const memberPhotoContext = (accountId: number) => `member_photos:${accountId}`;
/** The context a new teacher's request photo is sealed under (the open id that sent it). */
export const teacherRequestPhotoContext = (openId: string) => `teacher_requests.photo:${openId}`;
/** The context a transfer image (ID photo or photo) is sealed under (its uploader). */
export const transferImageContext = (accountId: number) => `transfer_images:${accountId}`;
