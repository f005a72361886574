import { and, asc, eq, inArray } from 'drizzle-orm';
import { guards } from '../../db/guards';
import { alias } from 'drizzle-orm/pg-core';
import { cardFactsOf, nextCardStatus } from '../../../../machines/domain/card-transitions';
import {
  nextTransferState,
  OPEN_TRANSFER_STATES,
  type TransferState,
} from '../../../../machines/domain/card-transfer-application-transitions';
import type { TransferEvent } from '../../../../machines/domain/card-transfer-application.machine';
import type { Clock } from '../../../domain/clock';
import { Errors } from '../../../domain/errors';
import type { StaffTransfer } from '../../../contracts/card-transfers';
import type { Db, Tx } from '../../db/client';
import { accounts, cardTransfers, memberCards, notifications } from '../../db/schema/index';
import { maskIdNumber } from '../../../domain/identity';
import type { KeyAdapter } from '../../gateways/keys/key-adapter';
import { ApiError } from '../../http/api-error';
import type { Audit } from '../staff-audit/audit-log';
import { decide } from '../../db/transaction';
import { openIdNumber, transferIdContext } from '../person-privacy/id-numbers';
import { catchUpCard, lockMyCard } from './my-card';
import { maskPhone } from './transfer';
import { transferredInNotice, transferredOutNotice, transferRejectedNotice } from './transfer-notices';
import { recipientByPhone, refuseTransfer, transferRefusal } from './transfer-rules';
import { shownNames } from '../person/shown-name';

type TransferRow = typeof cardTransfers.$inferSelect;
const giver = alias(accounts, 'giver');
const taker = alias(accounts, 'taker');

/**
 * The staff queue of transfer applications (decision 026): pending or under review, oldest first.
 * Clubs are not modelled on staff accounts, so every staff member sees all of them; `id` reads one
 * application in any state (after a decision). The ID number is masked: the whole number only through
 * `revealTransferIdNumber`, with a reason, recorded (decision 055).
 */
export async function transfersForStaff(db: Db, keys: KeyAdapter, q: { id?: number } = {}): Promise<StaffTransfer[]> {
  const rows = await db
    .select({ t: cardTransfers, cardName: memberCards.name, cardNumber: memberCards.number, fromPhone: giver.phone, toPhone: taker.phone })
    .from(cardTransfers)
    .innerJoin(memberCards, eq(memberCards.id, cardTransfers.cardId))
    .innerJoin(giver, eq(giver.id, cardTransfers.fromAccountId))
    .innerJoin(taker, eq(taker.id, cardTransfers.toAccountId))
    .where(q.id === undefined ? inArray(cardTransfers.state, OPEN_TRANSFER_STATES) : eq(cardTransfers.id, q.id))
    .orderBy(asc(cardTransfers.id))
    .limit(100);
  const ids = await Promise.all(rows.map(({ t }) => openIdNumber(keys, t, transferIdContext(t.fromAccountId, t.cardId))));
  const fromNames = await shownNames(
    db,
    rows.map(({ t }) => t.fromAccountId),
  );
  return rows.map(({ t, ...r }, i) => ({
    id: t.id,
    state: t.state,
    cardId: t.cardId,
    ...r,
    fromName: fromNames.get(t.fromAccountId) ?? null,
    recipientName: t.recipientName,
    idNumber: maskIdNumber(ids[i]!),
    reason: t.reason,
    reviewedBy: t.reviewedBy,
    reviewedAt: t.reviewedAt?.toISOString() ?? null,
    decidedBy: t.decidedBy,
    decidedAt: t.decidedAt?.toISOString() ?? null,
    newCardId: t.newCardId,
    createdAt: t.createdAt.toISOString(),
  }));
}

/**
 * The whole ID number typed for an application's recipient, for staff who gave a reason; the reveal
 * is recorded (who, why, when, from where) before the number is answered.
 */
export async function revealTransferIdNumber(
  db: Db,
  keys: KeyAdapter,
  audit: Audit,
  id: number,
  reason: string,
): Promise<{ id: number; idNumber: string }> {
  const [t] = await db.select().from(cardTransfers).where(eq(cardTransfers.id, id));
  if (!t) throw new ApiError(Errors.notFound, { field: 'id' });
  const idNumber = await openIdNumber(keys, t, transferIdContext(t.fromAccountId, t.cardId));
  await audit(db, { action: 'transfer.id-number.reveal', subjectKind: 'transfer', subjectId: t.id, reason });
  return { id: t.id, idNumber };
}

/** The application locked for a decision, and the state the chart moves it to on `event` (30037 when it refuses). */
async function lockTransfer(tx: Tx, id: number, event: TransferEvent['type']): Promise<{ t: TransferRow; state: TransferState }> {
  const q = tx.select().from(cardTransfers).where(eq(cardTransfers.id, id));
  const [t] = await q.for('update');
  if (!t) throw new ApiError(Errors.notFound, { field: 'id' });
  const state = nextTransferState(t.state, event);
  if (!state) throw new ApiError(Errors.transferNotInState);
  return { t, state };
}

/** Writes the application's move where it still is in the state it was decided on. */
async function writeTransfer(tx: Tx, t: TransferRow, set: Partial<typeof cardTransfers.$inferInsert>): Promise<TransferRow> {
  const [row] = await tx
    .update(cardTransfers)
    .set(set)
    .where(and(eq(cardTransfers.id, t.id), guards.still(cardTransfers.state, t.state)))
    .returning();
  if (!row) throw new ApiError(Errors.transferNotInState);
  return row;
}

/** Staff take an application for review (`transfer.take`): who and when are kept. */
export async function takeTransfer(db: Db, clock: Clock, staffId: number, id: number, audit?: Audit): Promise<TransferRow> {
  return decide(db, async (tx) => {
    const { t, state } = await lockTransfer(tx, id, 'transfer.take');
    const row = await writeTransfer(tx, t, { state, reviewedBy: staffId, reviewedAt: clock.now() });
    await audit?.(tx, { action: 'transfer.take', subjectKind: 'transfer', subjectId: t.id });
    return row;
  });
}

/** Staff reject an application under review with the reason the member reads; the giver is notified. */
export async function rejectTransfer(
  db: Db,
  clock: Clock,
  staffId: number,
  id: number,
  reason: string,
  audit?: Audit,
): Promise<TransferRow> {
  return decide(db, async (tx) => {
    const now = clock.now();
    const { t, state } = await lockTransfer(tx, id, 'transfer.reject');
    const row = await writeTransfer(tx, t, { state, reason, decidedBy: staffId, decidedAt: now });
    const [card] = await tx.select().from(memberCards).where(eq(memberCards.id, t.cardId));
    await tx.insert(notifications).values({ accountId: t.fromAccountId, createdAt: now, ...transferRejectedNotice(card!, reason) });
    await audit?.(tx, { action: 'transfer.reject', subjectKind: 'transfer', subjectId: t.id, reason });
    return row;
  });
}

/**
 * Staff approve an application under review (decision 026), in one transaction: the application,
 * then the giver and the card are locked (the booking decisions' order: a booking with the card waits
 * or is waited for); every rule is checked again (a refusal leaves it under review, for staff to
 * reject with the reason); the card moves by the chart to transferred; the recipient gets a new card
 * with the uses and validity end left, marked received by transfer; both members are notified.
 */
export async function approveTransfer(db: Db, clock: Clock, staffId: number, id: number, audit?: Audit): Promise<TransferRow> {
  const [pre] = await db.select({ cardId: cardTransfers.cardId }).from(cardTransfers).where(eq(cardTransfers.id, id));
  if (pre) await catchUpCard(db, clock.now(), pre.cardId);
  return decide(db, async (tx) => {
    const now = clock.now();
    const { t, state } = await lockTransfer(tx, id, 'transfer.approve');
    const card = await lockMyCard(tx, now, t.fromAccountId, t.cardId);
    const why = await transferRefusal(tx, card, now, t.id);
    if (why) refuseTransfer(why);
    const [to] = await tx.select().from(accounts).where(eq(accounts.id, t.toAccountId));
    if (!to || !(await recipientByPhone(tx, to.phone))) throw new ApiError(Errors.noSuchMember);
    const status = nextCardStatus(card.status, 'card.transfer', cardFactsOf(card));
    if (!status) throw new ApiError(Errors.cardStatusForbids);
    const [old] = await tx
      .update(memberCards)
      .set({ status })
      .where(and(eq(memberCards.id, card.id), guards.still(memberCards.status, card.status)))
      .returning();
    if (!old) throw new ApiError(Errors.cardStatusForbids);
    const {
      id: _id,
      accountId: _a,
      status: kept,
      number,
      transferredFromCardId: _f,
      createdAt: _c,
      frozenFrom: _ff,
      frozenUntil: _fu,
      groupEndsAt: _g,
      ...rest
    } = card;
    const [issued] = await tx
      .insert(memberCards)
      .values({
        ...rest,
        accountId: t.toAccountId,
        status: kept,
        number: `${number}-T${t.id}`,
        transferredFromCardId: card.id,
        createdAt: now,
      })
      .returning();
    const row = await writeTransfer(tx, t, { state, decidedBy: staffId, decidedAt: now, newCardId: issued!.id });
    const [from] = await tx.select({ phone: accounts.phone }).from(accounts).where(eq(accounts.id, t.fromAccountId));
    await tx.insert(notifications).values([
      { accountId: t.fromAccountId, createdAt: now, ...transferredOutNotice(card, t.recipientName) },
      { accountId: t.toAccountId, createdAt: now, ...transferredInNotice(issued!, maskPhone(from?.phone ?? '')) },
    ]);
    await audit?.(tx, { action: 'transfer.approve', subjectKind: 'transfer', subjectId: t.id });
    return row;
  });
}
