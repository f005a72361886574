import { and, asc, eq, gt, ne } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/client';
import { cardTransfers, memberPhotos, personInfo, teacherRequests, transferImages } from '../../db/schema/index';
import type { KeyAdapter } from '../../gateways/keys/key-adapter';

const BATCH = 100;

/** A table's sealed value: its row id, the wrapping key's id and the wrapped data key (decision 055). */
interface SealedColumns {
  name: string;
  table: PgTable;
  id: PgColumn;
  keyId: PgColumn;
  wrapped: PgColumn;
  /** the update that stores a rewrapped data key */
  set: (keyId: string, wrapped: Buffer) => Record<string, unknown>;
}

/** Every value sealed at rest; a new sealed column joins this list. */
const SEALED: SealedColumns[] = [
  {
    name: 'person_info',
    table: personInfo,
    id: personInfo.accountId,
    keyId: personInfo.idNumberKeyId,
    wrapped: personInfo.idNumberWrappedKey,
    set: (k, w) => ({ idNumberKeyId: k, idNumberWrappedKey: w }),
  },
  {
    name: 'card_transfers',
    table: cardTransfers,
    id: cardTransfers.id,
    keyId: cardTransfers.idNumberKeyId,
    wrapped: cardTransfers.idNumberWrappedKey,
    set: (k, w) => ({ idNumberKeyId: k, idNumberWrappedKey: w }),
  },
  {
    name: 'transfer_images',
    table: transferImages,
    id: transferImages.id,
    keyId: transferImages.keyId,
    wrapped: transferImages.wrappedKey,
    set: (k, w) => ({ keyId: k, wrappedKey: w }),
  },
  {
    name: 'member_photos',
    table: memberPhotos,
    id: memberPhotos.id,
    keyId: memberPhotos.keyId,
    wrapped: memberPhotos.wrappedKey,
    set: (k, w) => ({ keyId: k, wrappedKey: w }),
  },
  {
    name: 'teacher_requests',
    table: teacherRequests,
    id: teacherRequests.id,
    keyId: teacherRequests.photoKeyId,
    wrapped: teacherRequests.photoWrappedKey,
    set: (k, w) => ({ photoKeyId: k, photoWrappedKey: w }),
  },
];

/** `table.column` of each sealed value's key id, so a test can check no sealed column is left out of rotation. */
export const REWRAPPED_KEY_COLUMNS = SEALED.map((t) => `${t.name}.${t.keyId.name}`);

/** What a rewrap pass did: data keys moved to the current key, and those it could not open (their key is not held). */
export interface RewrapResult {
  rewrapped: number;
  failed: Record<string, number>;
}

/**
 * Key rotation's second half (decision 055): every data key still wrapped by an older key-encryption
 * key is unwrapped with it and wrapped again with the current one. Only the wrapped key and its key id
 * change; the ciphertext (in the row or the object store) stays as it is. Each update re-checks the old
 * key id, so processes running this together rewrap a row once. Once no row names an old key id, that
 * key can leave DATA_KEYS_PREVIOUS. Run by the hourly housekeeping job.
 */
export async function rewrapOldDataKeys(db: Db, keys: KeyAdapter): Promise<RewrapResult> {
  const result: RewrapResult = { rewrapped: 0, failed: {} };
  for (const t of SEALED) {
    let after = 0;
    for (;;) {
      const rows = await db
        .select({ id: t.id, keyId: t.keyId, wrapped: t.wrapped })
        .from(t.table)
        .where(and(ne(t.keyId, keys.currentKeyId), gt(t.id, after)))
        .orderBy(asc(t.id))
        .limit(BATCH);
      for (const r of rows) {
        const id = r.id as number;
        const oldKeyId = r.keyId as string;
        let dataKey: Buffer;
        try {
          dataKey = await keys.unwrap(oldKeyId, Buffer.from(r.wrapped as Uint8Array));
        } catch {
          result.failed[oldKeyId] = (result.failed[oldKeyId] ?? 0) + 1;
          continue;
        }
        const { keyId, wrapped } = await keys.wrap(dataKey);
        dataKey.fill(0);
        const done = await db
          .update(t.table)
          .set(t.set(keyId, wrapped))
          .where(and(eq(t.id, id), eq(t.keyId, oldKeyId)))
          .returning({ id: t.id });
        result.rewrapped += done.length;
      }
      if (rows.length < BATCH) break;
      after = rows[rows.length - 1]!.id as number;
    }
  }
  return result;
}
