import { randomUUID } from 'node:crypto';
import { and, asc, desc, eq } from 'drizzle-orm';
import type { Clock } from '../../domain/clock';
import { Errors } from '../../domain/errors';
import { canUploadPhoto, nextPhotoStatus } from '../../../machines/domain/photo-review-transitions';
import { PHOTO_MAX_BYTES, sniffImageType, type PhotoReviewState, type PhotoStatus } from '../../domain/photo-review';
import type { Db } from '../db/client';
import type { ObjectStore } from '../gateways/storage';
import type { KeyAdapter } from '../gateways/keys/key-adapter';
import type { Audit } from './staff-audit/audit-log';
import { memberPhotoContext, openImage, sealImage } from './person-privacy/images';
import { accounts, memberPhotos } from '../db/schema/index';
import { ApiError } from '../http/api-error';
import { imageTooLarge } from '../http/image-too-large';
import type { MemberPhoto, PhotoReviewed, PhotoToReview, PhotoView } from '../../contracts/photos';

type PhotoRow = typeof memberPhotos.$inferSelect;

const latestOf = (db: Db, accountId: number) =>
  db.select().from(memberPhotos).where(eq(memberPhotos.accountId, accountId)).orderBy(desc(memberPhotos.id)).limit(1);

function viewOf(row: PhotoRow | undefined): PhotoView {
  const status: PhotoStatus = row?.state ?? 'none';
  return {
    status,
    photoId: row?.id ?? null,
    reason: row?.state === 'rejected' ? row.rejectReason : null,
    uploadedAt: row?.createdAt.toISOString() ?? null,
    reviewedAt: row?.reviewedAt?.toISOString() ?? null,
    canUpload: canUploadPhoto(status),
  };
}

/** The member's photo review state (none, under review, rejected with the reason, passed). */
export async function myPhoto(db: Db, accountId: number): Promise<PhotoView> {
  const [row] = await latestOf(db, accountId);
  return viewOf(row);
}

/**
 * A member's front photo (also their avatar, decision 042): the type from its bytes (JPEG, PNG,
 * WebP), at most PHOTO_MAX_BYTES, and only when there is none yet, staff rejected the last one, or
 * staff allowed another (spec §5 "upload only once unless staff are contacted"). The member's
 * account row is locked so two uploads at once make one photo. The bytes go to the object store when
 * one is configured (after the chart allowed the upload, so a refused one stores nothing), else into
 * the row. Either way they are encrypted first (decision 055): the row keeps the wrapped data key.
 */
export async function uploadPhoto(
  db: Db,
  clock: Clock,
  keys: KeyAdapter,
  accountId: number,
  bytes: Buffer,
  storage: ObjectStore | null = null,
): Promise<PhotoView> {
  if (bytes.length > PHOTO_MAX_BYTES) throw imageTooLarge('image');
  const type = sniffImageType(bytes);
  if (!type) throw new ApiError(Errors.photoType, { field: 'image' });
  return db.transaction(async (tx) => {
    await tx.select({ id: accounts.id }).from(accounts).where(eq(accounts.id, accountId)).for('no key update');
    const [last] = await tx
      .select()
      .from(memberPhotos)
      .where(eq(memberPhotos.accountId, accountId))
      .orderBy(desc(memberPhotos.id))
      .limit(1);
    const state = nextPhotoStatus(last?.state ?? 'none', 'photo.upload') as PhotoReviewState | null;
    if (!state) throw new ApiError(Errors.photoUploadClosed);
    const { cipher, key } = await sealImage(keys, bytes, memberPhotoContext(accountId));
    let storageKey: string | null = null;
    if (storage) {
      storageKey = `photos/${accountId}/${randomUUID()}.${type.slice('image/'.length)}.sealed`;
      try {
        await storage.put(storageKey, cipher, 'application/octet-stream');
      } catch {
        throw new ApiError(Errors.photoStorageDown);
      }
    }
    const [row] = await tx
      .insert(memberPhotos)
      .values({
        accountId,
        contentType: type,
        bytes: storageKey ? null : cipher,
        ...key,
        storageKey,
        size: bytes.length,
        state,
        createdAt: clock.now(),
      })
      .returning();
    return viewOf(row);
  });
}

/** The bytes of a photo, decrypted: the member's latest, or (staff) any by id; from the row or the object store. */
export async function photoBytes(
  db: Db,
  keys: KeyAdapter,
  q: { accountId: number } | { photoId: number },
  storage: ObjectStore | null = null,
): Promise<{ id: number; contentType: string; bytes: Buffer } | null> {
  const [row] =
    'photoId' in q ? await db.select().from(memberPhotos).where(eq(memberPhotos.id, q.photoId)) : await latestOf(db, q.accountId);
  if (!row) return null;
  let bytes: Buffer | null = row.bytes;
  if (!bytes && row.storageKey && storage) {
    try {
      bytes = await storage.get(row.storageKey);
    } catch {
      throw new ApiError(Errors.photoStorageDown);
    }
  }
  return bytes
    ? { id: row.id, contentType: row.contentType, bytes: await openImage(keys, bytes, row, memberPhotoContext(row.accountId)) }
    : null;
}

/** Photos waiting for staff, oldest first (the review queue). */
export async function photosToReview(db: Db, limit = 50): Promise<PhotoToReview[]> {
  const rows = await db
    .select({
      id: memberPhotos.id,
      accountId: memberPhotos.accountId,
      name: accounts.name,
      phone: accounts.phone,
      createdAt: memberPhotos.createdAt,
      size: memberPhotos.size,
    })
    .from(memberPhotos)
    .innerJoin(accounts, eq(accounts.id, memberPhotos.accountId))
    .where(eq(memberPhotos.state, 'reviewing'))
    .orderBy(asc(memberPhotos.id))
    .limit(limit);
  return rows.map((r) => ({ ...r, createdAt: r.createdAt.toISOString() }));
}

/** Staff pass or reject a photo under review; a rejection carries the reason the member reads. Decided once. */
export async function reviewPhoto(
  db: Db,
  clock: Clock,
  staffId: number,
  photoId: number,
  decision: { pass: true } | { pass: false; reason: string },
  audit?: Audit,
): Promise<PhotoReviewed> {
  const [row] = await db.select({ state: memberPhotos.state }).from(memberPhotos).where(eq(memberPhotos.id, photoId));
  if (!row) throw new ApiError(Errors.notFound, { field: 'photoId' });
  const state = nextPhotoStatus(row.state, decision.pass ? 'photo.pass' : 'photo.reject') as PhotoReviewState | null;
  if (!state) throw new ApiError(Errors.photoAlreadyReviewed);
  return db.transaction(async (tx) => {
    const [done] = await tx
      .update(memberPhotos)
      .set({ state, rejectReason: decision.pass ? null : decision.reason, reviewedBy: staffId, reviewedAt: clock.now() })
      .where(and(eq(memberPhotos.id, photoId), eq(memberPhotos.state, 'reviewing')))
      .returning({ id: memberPhotos.id });
    if (!done) throw new ApiError(Errors.photoAlreadyReviewed);
    await audit?.(tx, {
      action: decision.pass ? 'photo.pass' : 'photo.reject',
      subjectKind: 'photo',
      subjectId: photoId,
      reason: decision.pass ? null : decision.reason,
    });
    return { photoId, state };
  });
}

/**
 * Staff allow a member another upload of a passed photo (the member asked at the desk, spec §5
 * "contact staff"; decision 042): the photo goes to `reopened` and keeps counting until the member
 * sends the new one. Only a passed photo (the member's latest, as passed is never followed by another).
 */
export async function allowAnotherPhoto(db: Db, clock: Clock, staffId: number, photoId: number, audit?: Audit): Promise<PhotoReviewed> {
  const [row] = await db.select({ state: memberPhotos.state }).from(memberPhotos).where(eq(memberPhotos.id, photoId));
  if (!row) throw new ApiError(Errors.notFound, { field: 'photoId' });
  const state = nextPhotoStatus(row.state, 'photo.allowAnother') as PhotoReviewState | null;
  if (!state) throw new ApiError(Errors.photoNotPassed);
  return db.transaction(async (tx) => {
    const [done] = await tx
      .update(memberPhotos)
      .set({ state, reopenedBy: staffId, reopenedAt: clock.now() })
      .where(and(eq(memberPhotos.id, photoId), eq(memberPhotos.state, row.state)))
      .returning({ id: memberPhotos.id });
    if (!done) throw new ApiError(Errors.photoNotPassed);
    await audit?.(tx, { action: 'photo.allow-another', subjectKind: 'photo', subjectId: photoId });
    return { photoId, state };
  });
}

/** Staff look a member up by phone: who, and their photo's review state (to allow another upload). */
export async function memberPhotoByPhone(db: Db, phone: string): Promise<MemberPhoto | null> {
  const [a] = await db
    .select({ id: accounts.id, name: accounts.name, phone: accounts.phone })
    .from(accounts)
    .where(eq(accounts.phone, phone));
  if (!a) return null;
  return { accountId: a.id, name: a.name, phone: a.phone, photo: await myPhoto(db, a.id) };
}
