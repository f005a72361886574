import { and, asc, desc, eq, gt, inArray, isNull, or, sql } from 'drizzle-orm';
import {
  ACCOUNT_CLOSING_INITIAL,
  nextAccountClosingState,
  OPEN_ACCOUNT_CLOSING_STATES,
  type AccountClosingState,
} from '../../../../machines/domain/account-closing-transitions';
import type { AccountClosingEvent } from '../../../../machines/domain/account-closing.machine';
import { BOOKING_OPEN_STATES } from '../../../../machines/domain/booking-transitions';
import { OPEN_CARD_REFUND_STATES } from '../../../../machines/domain/card-refund-transitions';
import { CARD_ENDED_STATUSES, CARD_STORED_STATUSES } from '../../../../machines/domain/card-transitions';
import { AWAITING_MONEY_STATES } from '../../../../machines/domain/order-transitions';
import { OPEN_TRANSFER_STATES } from '../../../../machines/domain/card-transfer-application-transitions';
import type { Clock } from '../../../domain/clock';
import { closedPhone, closingBlockers, type ClosingFacts } from '../../../domain/account-closing';
import { Errors } from '../../../domain/errors';
import type { MyAccountClosing, StaffAccountClosing } from '../../../contracts/account-closing';
import type { Db, Tx } from '../../db/client';
import * as t from '../../db/schema/index';
import { stateIn } from '../../db/state-checks';
import { ApiError } from '../../http/api-error';
import type { Audit } from '../staff-audit/audit-log';
import { revokeAccountSessions } from '../auth/sessions';
import { balanceOf } from '../orders/balance';
import { lockAccount } from '../orders/locks';

type Row = typeof t.accountClosings.$inferSelect;

/** Orders with money still moving: waiting for it, or a refund under way (refunding, refund failed). */
const MONEY_MOVING = [...AWAITING_MONEY_STATES, 'refunding', 'refund_failed'] as const;

/** Cards that still hold value: not ended (transferred, refunded) and not expired. */
const CARD_HOLDING_VALUE = CARD_STORED_STATUSES.filter((s) => !CARD_ENDED_STATUSES.includes(s) && s !== 'expired');

const count = async (q: Promise<Array<{ n: number }>>) => Number((await q)[0]?.n ?? 0);
const n = sql<number>`count(*)::int`;

/** What the member still holds now (decision 057): each thing that keeps the account from being closed. */
export async function closingFacts(db: Db | Tx, accountId: number, now: Date): Promise<ClosingFacts> {
  const notExpired = (col: typeof t.memberCards.validUntil | typeof t.memberCourses.validUntil) => or(isNull(col), gt(col, now));
  const [liveCards, liveCourses, openOrders, balanceCents, liveBookings, transfers, refunds] = await Promise.all([
    count(
      db
        .select({ n })
        .from(t.memberCards)
        .where(
          and(
            eq(t.memberCards.accountId, accountId),
            stateIn(t.memberCards.status, CARD_HOLDING_VALUE),
            notExpired(t.memberCards.validUntil),
            or(isNull(t.memberCards.usesLeft), gt(t.memberCards.usesLeft, 0)),
          ),
        ),
    ),
    // a course with uses left and not expired, or one without uses (a workshop, a training) not yet over
    count(
      db
        .select({ n })
        .from(t.memberCourses)
        .where(
          and(
            eq(t.memberCourses.accountId, accountId),
            or(
              and(gt(t.memberCourses.usesLeft, 0), notExpired(t.memberCourses.validUntil)),
              and(isNull(t.memberCourses.usesLeft), gt(t.memberCourses.endsAt, now)),
            ),
          ),
        ),
    ),
    count(
      db
        .select({ n })
        .from(t.orders)
        .where(and(eq(t.orders.accountId, accountId), stateIn(t.orders.state, MONEY_MOVING))),
    ),
    balanceOf(db, accountId),
    count(
      db
        .select({ n })
        .from(t.bookings)
        .innerJoin(t.classes, eq(t.classes.id, t.bookings.classId))
        .where(and(eq(t.bookings.accountId, accountId), stateIn(t.bookings.state, BOOKING_OPEN_STATES), gt(t.classes.startsAt, now))),
    ),
    count(
      db
        .select({ n })
        .from(t.cardTransfers)
        .where(
          and(
            or(eq(t.cardTransfers.fromAccountId, accountId), eq(t.cardTransfers.toAccountId, accountId)),
            stateIn(t.cardTransfers.state, OPEN_TRANSFER_STATES),
          ),
        ),
    ),
    count(
      db
        .select({ n })
        .from(t.cardRefunds)
        .where(and(eq(t.cardRefunds.accountId, accountId), stateIn(t.cardRefunds.state, OPEN_CARD_REFUND_STATES))),
    ),
  ]);
  return { liveCards, liveCourses, openOrders, balanceCents, liveBookings, openApplications: transfers + refunds };
}

/** Refuses with the first thing the member still holds (10030-10034), naming nothing else. */
async function refuseWhileHolding(tx: Tx, accountId: number, now: Date): Promise<void> {
  const [first] = closingBlockers(await closingFacts(tx, accountId, now));
  if (first) throw new ApiError(Errors[first]);
}

const memberView = (r: Row): MyAccountClosing => ({
  id: r.id,
  state: r.state,
  note: r.note,
  reason: r.reason,
  createdAt: r.createdAt.toISOString(),
  decidedAt: r.decidedAt?.toISOString() ?? null,
  withdrawnAt: r.withdrawnAt?.toISOString() ?? null,
});

/**
 * A member asks to close their account: members only (staff and teacher accounts are closed by an
 * administrator: 70008); one open request at a time (10035); refused while they hold something of
 * value or something staff have not decided (10030-10034). Under the account's lock, so a purchase
 * cannot slip in between the check and the request.
 */
export async function requestClosing(db: Db, clock: Clock, accountId: number, note: string | null | undefined): Promise<MyAccountClosing> {
  const text = note?.trim() ? note.trim() : null;
  try {
    return await openRequest(db, clock, accountId, text);
  } catch (err) {
    // the partial unique index is the backstop: a second request that slipped past is 10035, never a 500
    if (openElsewhere(err)) throw new ApiError(Errors.closingPending);
    throw err;
  }
}

/** PostgreSQL's unique violation of the one-open-request index, possibly wrapped by drizzle. */
function openElsewhere(err: unknown): boolean {
  for (let e: unknown = err; e && typeof e === 'object'; e = (e as { cause?: unknown }).cause) {
    const x = e as { code?: unknown; constraint_name?: unknown; constraint?: unknown; message?: unknown };
    if (x.code === '23505' && String(x.constraint_name ?? x.constraint ?? x.message).includes('account_closings_one_open')) return true;
  }
  return false;
}

async function openRequest(db: Db, clock: Clock, accountId: number, text: string | null): Promise<MyAccountClosing> {
  return db.transaction(async (tx) => {
    await lockAccount(tx, accountId);
    const [account] = await tx.select({ role: t.accounts.role }).from(t.accounts).where(eq(t.accounts.id, accountId));
    if (account?.role !== 'member') throw new ApiError(Errors.forbidden);
    const [open] = await tx
      .select({ id: t.accountClosings.id })
      .from(t.accountClosings)
      .where(and(eq(t.accountClosings.accountId, accountId), stateIn(t.accountClosings.state, OPEN_ACCOUNT_CLOSING_STATES)));
    if (open) throw new ApiError(Errors.closingPending);
    const now = clock.now();
    await refuseWhileHolding(tx, accountId, now);
    const [row] = await tx
      .insert(t.accountClosings)
      .values({ accountId, state: ACCOUNT_CLOSING_INITIAL, note: text, createdAt: now })
      .returning();
    return memberView(row!);
  });
}

/** My latest closing request (null: never asked), with its state and the reason when refused. */
export async function myClosing(db: Db, accountId: number): Promise<MyAccountClosing | null> {
  const [row] = await db
    .select()
    .from(t.accountClosings)
    .where(eq(t.accountClosings.accountId, accountId))
    .orderBy(desc(t.accountClosings.id))
    .limit(1);
  return row ? memberView(row) : null;
}

/** The member withdraws their open request (10036 when there is none: decided or withdrawn already). */
export async function withdrawClosing(db: Db, clock: Clock, accountId: number): Promise<MyAccountClosing> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .select()
      .from(t.accountClosings)
      .where(eq(t.accountClosings.accountId, accountId))
      .orderBy(desc(t.accountClosings.id))
      .limit(1)
      .for('update');
    const state = row ? nextAccountClosingState(row.state, 'closing.withdraw') : null;
    if (!row || !state) throw new ApiError(Errors.closingNotPending);
    const [done] = await tx
      .update(t.accountClosings)
      .set({ state, withdrawnAt: clock.now() })
      .where(and(eq(t.accountClosings.id, row.id), eq(t.accountClosings.state, row.state)))
      .returning();
    return memberView(done!);
  });
}

const staffSelect = (db: Db | Tx) =>
  db
    .select({ r: t.accountClosings, phone: t.accounts.phone, name: t.accounts.name })
    .from(t.accountClosings)
    .innerJoin(t.accounts, eq(t.accounts.id, t.accountClosings.accountId));

const staffView = (x: { r: Row; phone: string; name: string | null }): StaffAccountClosing => ({
  ...memberView(x.r),
  accountId: x.r.accountId,
  memberPhone: x.phone,
  memberName: x.name,
});

/** The staff queue: requests waiting to be confirmed or refused, oldest first (chain-wide: an account is not one club's). */
export async function closingsForStaff(db: Db): Promise<StaffAccountClosing[]> {
  const rows = await staffSelect(db)
    .where(stateIn(t.accountClosings.state, OPEN_ACCOUNT_CLOSING_STATES))
    .orderBy(asc(t.accountClosings.id))
    .limit(100);
  return rows.map(staffView);
}

/** One request, as staff see it (404 when there is none). */
export async function staffClosing(db: Db, id: number): Promise<StaffAccountClosing> {
  const [row] = await staffSelect(db).where(eq(t.accountClosings.id, id));
  if (!row) throw new ApiError(Errors.notFound, { field: 'id' });
  return staffView(row);
}

/** The request locked for a staff decision, and where the chart moves it (404 none, 10036 the chart refuses). */
async function lockForStaff(tx: Tx, id: number, event: AccountClosingEvent['type']): Promise<{ r: Row; state: AccountClosingState }> {
  const [r] = await tx.select().from(t.accountClosings).where(eq(t.accountClosings.id, id)).for('update');
  if (!r) throw new ApiError(Errors.notFound, { field: 'id' });
  const state = nextAccountClosingState(r.state, event);
  if (!state) throw new ApiError(Errors.closingNotPending);
  return { r, state };
}

/**
 * Erases or anonymises the account's personal data, in the caller's transaction (decision 057): the
 * name, avatars, nickname and password go; the phone becomes `closed-<id>` (no login and no code
 * reaches it; the number is free for a new account); every session is revoked and the open-id
 * bindings, reset tickets, login counters and codes of the phone deleted; the personal information
 * (real name, sealed ID number) and the check-in photos deleted (a photo in the object store is
 * ciphertext whose key was in the row: unreadable); transfer images the member uploaded, and the
 * recipient's name, ID number and photos on transfers to them, emptied (the transfer record stays); notices, page views, survey answers and complaint images deleted; family places ended.
 * Orders, payments, the ledger, invoices, cards, bookings, refunds, transfers and the audit log stay.
 */
export async function eraseAccount(tx: Tx, clock: Clock, accountId: number): Promise<void> {
  const now = clock.now();
  const [a] = await tx.select({ phone: t.accounts.phone }).from(t.accounts).where(eq(t.accounts.id, accountId)).for('update');
  if (!a) throw new ApiError(Errors.notFound, { field: 'id' });
  await tx
    .update(t.accounts)
    .set({
      phone: closedPhone(accountId),
      passwordHash: null,
      name: null,
      avatarUrl: null,
      wxNickname: null,
      wxAvatar: null,
      banned: true,
      passwordMustChange: false,
      closedAt: now,
    })
    .where(eq(t.accounts.id, accountId));
  await revokeAccountSessions(tx, accountId, clock);
  await tx.delete(t.openIdBindings).where(eq(t.openIdBindings.accountId, accountId));
  await tx.delete(t.resetTickets).where(eq(t.resetTickets.accountId, accountId));
  await tx.delete(t.loginFailures).where(eq(t.loginFailures.phone, a.phone));
  await tx.delete(t.smsCodes).where(eq(t.smsCodes.phone, a.phone));
  await tx.delete(t.devSmsOutbox).where(eq(t.devSmsOutbox.phone, a.phone));
  await tx.delete(t.personInfo).where(eq(t.personInfo.accountId, accountId));
  await tx.delete(t.memberPhotos).where(eq(t.memberPhotos.accountId, accountId));
  // transfers to the member: the recipient's name, ID number and photos go; the transfer record stays
  const toMe = await tx
    .select({ idPhotoId: t.cardTransfers.idPhotoId, photoId: t.cardTransfers.photoId })
    .from(t.cardTransfers)
    .where(eq(t.cardTransfers.toAccountId, accountId));
  await tx
    .update(t.cardTransfers)
    .set({ recipientName: '', idNumber: '', idNumberCipher: null, idNumberWrappedKey: null, idNumberKeyId: null, idNumberNonce: null })
    .where(eq(t.cardTransfers.toAccountId, accountId));
  const images = toMe.flatMap((x) => [x.idPhotoId, x.photoId]);
  await tx
    .update(t.transferImages)
    .set({ bytes: Buffer.alloc(0), size: 0, wrappedKey: null, keyId: null, nonce: null })
    .where(
      images.length > 0
        ? or(eq(t.transferImages.accountId, accountId), inArray(t.transferImages.id, images))
        : eq(t.transferImages.accountId, accountId),
    );
  await tx.delete(t.complaintImages).where(eq(t.complaintImages.accountId, accountId));
  await tx.delete(t.notifications).where(eq(t.notifications.accountId, accountId));
  await tx.delete(t.pageViews).where(eq(t.pageViews.accountId, accountId));
  await tx.delete(t.surveyAnswers).where(eq(t.surveyAnswers.accountId, accountId));
  await tx
    .update(t.cardFamilyMembers)
    .set({ removedAt: now })
    .where(and(eq(t.cardFamilyMembers.accountId, accountId), isNull(t.cardFamilyMembers.removedAt)));
}

/**
 * Staff confirm a request: the member must still hold nothing of value (10030-10034: refuse it with
 * the reason instead), then the account is erased (eraseAccount) and the request closed, with the
 * audit entry, in one transaction under the account's lock.
 */
export async function confirmClosing(db: Db, clock: Clock, staffId: number, id: number, audit?: Audit): Promise<void> {
  await db.transaction(async (tx) => {
    const { r, state } = await lockForStaff(tx, id, 'closing.confirm');
    await lockAccount(tx, r.accountId);
    await refuseWhileHolding(tx, r.accountId, clock.now());
    await eraseAccount(tx, clock, r.accountId);
    await tx
      .update(t.accountClosings)
      .set({ state, note: null, decidedBy: staffId, decidedAt: clock.now() })
      .where(and(eq(t.accountClosings.id, id), eq(t.accountClosings.state, r.state)));
    await audit?.(tx, { action: 'account-closing.confirm', subjectKind: 'account-closing', subjectId: id });
  });
}

/** Staff refuse a request with the reason the member reads (10037 empty); nothing else changes. */
export async function refuseClosing(db: Db, clock: Clock, staffId: number, id: number, reason: string, audit?: Audit): Promise<void> {
  const text = reason.trim();
  if (text === '') throw new ApiError(Errors.closingReasonEmpty, { field: 'reason' });
  await db.transaction(async (tx) => {
    const { r, state } = await lockForStaff(tx, id, 'closing.refuse');
    await tx
      .update(t.accountClosings)
      .set({ state, reason: text, decidedBy: staffId, decidedAt: clock.now() })
      .where(and(eq(t.accountClosings.id, id), eq(t.accountClosings.state, r.state)));
    await audit?.(tx, { action: 'account-closing.refuse', subjectKind: 'account-closing', subjectId: id, reason: text });
  });
}
