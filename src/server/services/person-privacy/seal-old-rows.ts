import { randomUUID } from 'node:crypto';
import { and, eq, isNotNull, isNull } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { cardTransfers, memberPhotos, personInfo, teacherRequests, transferImages } from '../../db/schema/index';
import type { KeyAdapter } from '../../gateways/keys/key-adapter';
import type { ObjectStore } from '../../gateways/storage';
import { personIdContext, sealIdNumber, transferIdContext } from './id-numbers';
import { memberPhotoContext, sealImage, teacherRequestPhotoContext, transferImageContext } from './images';

const BATCH = 100;

/**
 * The data migration of decision 055: rows written before encryption (plain ID numbers, plain image
 * bytes) are sealed and their plain column emptied, a batch at a time. Each update checks the row is
 * still unsealed, so processes starting together seal each row once. Run at start; returns how many.
 */
export async function sealPlainRows(db: Db, keys: KeyAdapter, storage: ObjectStore | null): Promise<number> {
  let n = 0;
  for (;;) {
    const rows = await db.select().from(personInfo).where(isNull(personInfo.idNumberKeyId)).limit(BATCH);
    for (const r of rows) {
      const sealed = await sealIdNumber(keys, r.idNumber ?? '', personIdContext(r.accountId));
      await db
        .update(personInfo)
        .set(sealed)
        .where(and(eq(personInfo.accountId, r.accountId), isNull(personInfo.idNumberKeyId)));
    }
    n += rows.length;
    if (rows.length < BATCH) break;
  }
  for (;;) {
    const rows = await db.select().from(cardTransfers).where(isNull(cardTransfers.idNumberKeyId)).limit(BATCH);
    for (const r of rows) {
      const sealed = await sealIdNumber(keys, r.idNumber ?? '', transferIdContext(r.fromAccountId, r.cardId));
      await db
        .update(cardTransfers)
        .set(sealed)
        .where(and(eq(cardTransfers.id, r.id), isNull(cardTransfers.idNumberKeyId)));
    }
    n += rows.length;
    if (rows.length < BATCH) break;
  }
  for (;;) {
    const rows = await db.select().from(transferImages).where(isNull(transferImages.keyId)).limit(BATCH);
    for (const r of rows) {
      const { cipher, key } = await sealImage(keys, r.bytes, transferImageContext(r.accountId));
      await db
        .update(transferImages)
        .set({ bytes: cipher, ...key })
        .where(and(eq(transferImages.id, r.id), isNull(transferImages.keyId)));
    }
    n += rows.length;
    if (rows.length < BATCH) break;
  }
  for (;;) {
    const rows = await db
      .select()
      .from(memberPhotos)
      .where(and(isNull(memberPhotos.keyId), isNotNull(memberPhotos.bytes)))
      .limit(BATCH);
    for (const r of rows) {
      const { cipher, key } = await sealImage(keys, r.bytes!, memberPhotoContext(r.accountId));
      await db
        .update(memberPhotos)
        .set({ bytes: cipher, ...key })
        .where(and(eq(memberPhotos.id, r.id), isNull(memberPhotos.keyId)));
    }
    n += rows.length;
    if (rows.length < BATCH) break;
  }
  for (;;) {
    const rows = await db.select().from(teacherRequests).where(isNull(teacherRequests.photoKeyId)).limit(BATCH);
    for (const r of rows) {
      const { cipher, key } = await sealImage(keys, r.photo, teacherRequestPhotoContext(r.openId));
      await db
        .update(teacherRequests)
        .set({ photo: cipher, photoWrappedKey: key.wrappedKey, photoKeyId: key.keyId, photoNonce: key.nonce })
        .where(and(eq(teacherRequests.id, r.id), isNull(teacherRequests.photoKeyId)));
    }
    n += rows.length;
    if (rows.length < BATCH) break;
  }
  if (storage) n += await sealStoredPhotos(db, keys, storage);
  return n;
}

/** Photos kept in the object store from before encryption: sealed under a new key; the old object is left for the operator to delete. */
async function sealStoredPhotos(db: Db, keys: KeyAdapter, storage: ObjectStore): Promise<number> {
  let n = 0;
  for (;;) {
    const rows = await db
      .select()
      .from(memberPhotos)
      .where(and(isNull(memberPhotos.keyId), isNotNull(memberPhotos.storageKey)))
      .limit(BATCH);
    let sealedNow = 0;
    for (const r of rows) {
      const plain = await storage.get(r.storageKey!);
      if (!plain) continue;
      const { cipher, key } = await sealImage(keys, plain, memberPhotoContext(r.accountId));
      const storageKey = `photos/${r.accountId}/${randomUUID()}.sealed`;
      await storage.put(storageKey, cipher, 'application/octet-stream');
      await db
        .update(memberPhotos)
        .set({ storageKey, ...key })
        .where(and(eq(memberPhotos.id, r.id), isNull(memberPhotos.keyId)));
      sealedNow += 1;
    }
    n += sealedNow;
    if (rows.length < BATCH || sealedNow === 0) break;
  }
  return n;
}
