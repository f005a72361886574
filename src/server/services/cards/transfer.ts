import { and, desc, eq } from 'drizzle-orm';
import { nextTransferState, TRANSFER_INITIAL } from '../../../../machines/domain/card-transfer-application-transitions';
import type { Clock } from '../../../domain/clock';
import { Errors } from '../../../domain/errors';
import { PHOTO_MAX_BYTES, sniffImageType } from '../../../domain/photo-review';
import type { MemberByPhone, MyTransfer } from '../../../contracts/card-transfers';
import type { Db } from '../../db/client';
import { accounts, cardTransfers, memberCards, transferImages } from '../../db/schema/index';
import type { KeyAdapter } from '../../gateways/keys/key-adapter';
import { ApiError } from '../../http/api-error';
import { imageTooLarge } from '../../http/image-too-large';
import { decide } from '../../db/transaction';
import { recipientIdentityMatches } from '../person/person-info';
import { shownName } from '../person/shown-name';
import { sealIdNumber, transferIdContext } from '../person-privacy/id-numbers';
import { openImage, sealImage, transferImageContext } from '../person-privacy/images';
import { catchUpCard, lockMyCard } from './my-card';
import { recipientByPhone, refuseTransfer, transferRefusal } from './transfer-rules';

type TransferRow = typeof cardTransfers.$inferSelect;

/** `13700000001` → `137****0001`: a phone shown to someone who may not know it whole. */
import { maskPhone } from '../../../domain/card-transfer';

export { maskPhone };

/**
 * Spec §7 GET /customers/members/phone: a member's masked name, or "no such member" (30036); nothing
 * more. The name is the real one from their personal information when stored (a member who signed up
 * in the app has no account name), else the account name; null when there is neither, so the giver is
 * told the phone cannot be confirmed by a name rather than shown a lone "*".
 */
export async function memberByPhone(db: Db, phone: string): Promise<MemberByPhone> {
  const m = await recipientByPhone(db, phone);
  if (!m) throw new ApiError(Errors.noSuchMember, { field: 'phone' });
  return { name: await shownName(db, m.id) };
}

/**
 * One image for a transfer application (the ID photo or the photo): JPEG, PNG or WebP, at most
 * PHOTO_MAX_BYTES; stored encrypted (decision 055).
 */
export async function uploadTransferImage(
  db: Db,
  clock: Clock,
  keys: KeyAdapter,
  accountId: number,
  bytes: Buffer,
): Promise<{ imageId: number }> {
  if (bytes.length > PHOTO_MAX_BYTES) throw imageTooLarge('image');
  const type = sniffImageType(bytes);
  if (!type) throw new ApiError(Errors.photoType, { field: 'image' });
  const { cipher, key } = await sealImage(keys, bytes, transferImageContext(accountId));
  const [row] = await db
    .insert(transferImages)
    .values({ accountId, contentType: type, bytes: cipher, ...key, size: bytes.length, createdAt: clock.now() })
    .returning({ id: transferImages.id });
  return { imageId: row!.id };
}

/** The bytes of a transfer image, decrypted (staff read any by application). */
export async function transferImageBytes(db: Db, keys: KeyAdapter, transferId: number, which: 'id-photo' | 'photo') {
  const [t] = await db.select().from(cardTransfers).where(eq(cardTransfers.id, transferId));
  if (!t) return null;
  const [img] = await db
    .select()
    .from(transferImages)
    .where(eq(transferImages.id, which === 'photo' ? t.photoId : t.idPhotoId));
  return img ? { contentType: img.contentType, bytes: await openImage(keys, img.bytes, img, transferImageContext(img.accountId)) } : null;
}

export interface TransferApply {
  cardId: number;
  phone: string;
  name: string;
  idNumber: string;
  idPhotoId: number;
  photoId: number;
}

/**
 * Applies to transfer one of my cards to the member with `phone` (spec §5, decision 026): every rule
 * is checked under the member's and the card's locks (the booking decisions' order), so a booking
 * with the card and the application serialise; the images must be mine. The application waits for staff.
 */
export async function applyTransfer(db: Db, clock: Clock, keys: KeyAdapter, accountId: number, input: TransferApply): Promise<TransferRow> {
  const now = clock.now();
  await catchUpCard(db, now, input.cardId);
  const sealed = await sealIdNumber(keys, input.idNumber, transferIdContext(accountId, input.cardId));
  return decide(db, async (tx) => {
    const card = await lockMyCard(tx, now, accountId, input.cardId);
    const to = await recipientByPhone(tx, input.phone);
    if (!to) throw new ApiError(Errors.noSuchMember, { field: 'phone' });
    if (to.id === accountId) throw new ApiError(Errors.transferToSelf, { field: 'phone' });
    if (!(await recipientIdentityMatches(tx, keys, to.id, input.name, input.idNumber)))
      throw new ApiError(Errors.recipientIdentityMismatch, { field: 'name' });
    const why = await transferRefusal(tx, card, now);
    if (why) refuseTransfer(why);
    for (const [field, id] of [
      ['idPhotoId', input.idPhotoId],
      ['photoId', input.photoId],
    ] as const) {
      const [img] = await tx
        .select({ id: transferImages.id })
        .from(transferImages)
        .where(and(eq(transferImages.id, id), eq(transferImages.accountId, accountId)));
      if (!img) throw new ApiError(Errors.invalidField, { field, values: { field } });
    }
    const [row] = await tx
      .insert(cardTransfers)
      .values({
        cardId: card.id,
        fromAccountId: accountId,
        toAccountId: to.id,
        recipientName: input.name,
        ...sealed,
        idPhotoId: input.idPhotoId,
        photoId: input.photoId,
        state: TRANSFER_INITIAL,
        createdAt: now,
      })
      .returning();
    return row!;
  });
}

/** Cancels my application while it waits for review (the chart's `transfer.cancel`); another member's is 404. */
export async function cancelTransfer(db: Db, clock: Clock, accountId: number, transferId: number): Promise<TransferRow> {
  return decide(db, async (tx) => {
    const [t] = await tx
      .select()
      .from(cardTransfers)
      .where(and(eq(cardTransfers.id, transferId), eq(cardTransfers.fromAccountId, accountId)))
      .for('update');
    if (!t) throw new ApiError(Errors.notFound, { field: 'id' });
    const state = nextTransferState(t.state, 'transfer.cancel');
    if (!state) throw new ApiError(Errors.transferNotInState);
    const [row] = await tx
      .update(cardTransfers)
      .set({ state, decidedBy: accountId, decidedAt: clock.now() })
      .where(and(eq(cardTransfers.id, t.id), eq(cardTransfers.state, t.state)))
      .returning();
    if (!row) throw new ApiError(Errors.transferNotInState);
    return row;
  });
}

/** An application as its member sees it. */
export async function myTransferView(db: Db, t: TransferRow): Promise<MyTransfer> {
  const [to] = await db.select({ phone: accounts.phone }).from(accounts).where(eq(accounts.id, t.toAccountId));
  return {
    id: t.id,
    cardId: t.cardId,
    state: t.state,
    recipientName: t.recipientName,
    recipientPhone: maskPhone(to?.phone ?? ''),
    reason: t.state === 'rejected' ? t.reason : null,
    createdAt: t.createdAt.toISOString(),
    decidedAt: t.decidedAt?.toISOString() ?? null,
    canCancel: nextTransferState(t.state, 'transfer.cancel') !== null,
  };
}

/** My latest application on one of my cards; undefined when there is none. Another member's card is 404. */
export async function myTransfer(db: Db, accountId: number, cardId: number): Promise<MyTransfer | undefined> {
  const [card] = await db
    .select({ id: memberCards.id })
    .from(memberCards)
    .where(and(eq(memberCards.id, cardId), eq(memberCards.accountId, accountId)));
  if (!card) throw new ApiError(Errors.notFound, { field: 'cardId' });
  const [t] = await db
    .select()
    .from(cardTransfers)
    .where(and(eq(cardTransfers.cardId, cardId), eq(cardTransfers.fromAccountId, accountId)))
    .orderBy(desc(cardTransfers.id))
    .limit(1);
  return t ? myTransferView(db, t) : undefined;
}
