import { z } from '@hono/zod-openapi';
import { BOOKING_ROW_STATES, CARD_STATUSES } from '../domain/booking-rules';
import { GOODS_KIND_VALUES } from '../domain/catalog';
import { ORDER_STATES, PAY_METHODS } from '../domain/orders';
import { MemberCard } from './booking';
import { MoneyBreakdown } from './orders';
import { CalendarDay, IdField, IdParam, IdQuery, pagingQuery } from './common';

/** What members own besides bookings: a card with its history, my courses, my purchases. */
const IsoTime = z.string().openapi({ example: '2026-11-22T02:00:00.000Z' });

export const MemberCourse = z
  .object({
    id: z.number().int(),
    goodsId: z.number().int(),
    kind: z.enum(GOODS_KIND_VALUES),
    name: z.string(),
    image: z.string(),
    phaseId: z.number().int().nullable(),
    phaseName: z.string().nullable(),
    teacherId: z.number().int().nullable(),
    teacherName: z.string().nullable(),
    clubId: z.number().int().nullable(),
    clubName: z.string().nullable(),
    usesTotal: z.number().int().nullable(),
    usesLeft: z.number().int().nullable(),
    startsAt: IsoTime.nullable(),
    endsAt: IsoTime.nullable(),
    validUntil: IsoTime.nullable(),
    status: z.enum(['active', 'used_up', 'expired']),
    orderNo: z.string(),
    boughtAt: IsoTime,
  })
  .openapi('MemberCourse');
export type MemberCourse = z.infer<typeof MemberCourse>;

export const Purchase = z
  .object({
    orderNo: z.string(),
    goodsId: z.number().int(),
    goodsName: z.string(),
    goodsKind: z.enum(GOODS_KIND_VALUES),
    image: z.string(),
    phaseName: z.string().nullable(),
    teacherName: z.string().nullable(),
    priceCents: z.number().int(),
    couponDeductionCents: z.number().int(),
    balanceUsedCents: z.number().int(),
    amountToPayCents: z.number().int(),
    state: z.enum(ORDER_STATES),
    payMethod: z.enum(PAY_METHODS).nullable(),
    paidAt: IsoTime.nullable(),
    money: MoneyBreakdown,
  })
  .openapi('Purchase');
export type Purchase = z.infer<typeof Purchase>;

/**
 * One entry of a card's timeline (decision 034), newest first, read from the stored records:
 * bought (the order and what it cost), activated (by which booking), a class booked with it (the uses
 * it spent) and a use given back, each freeze (its days and the end it moved) and early unfreeze,
 * each extension (the end before and after), a transfer out (applied, then its outcome) or in, a
 * refund (asked, then its outcome) and each change of adviser.
 */
export const CardHistoryItem = z
  .discriminatedUnion('kind', [
    z.object({
      kind: z.literal('bought'),
      at: IsoTime,
      orderNo: z.string(),
      money: MoneyBreakdown.openapi({ description: "the order's money (decision 101)" }),
    }),
    z.object({
      kind: z.literal('activated'),
      at: IsoTime,
      classTitle: z.string().nullable().openapi({ description: 'the class whose booking activated it; null when activated by hand' }),
    }),
    z.object({
      kind: z.literal('class'),
      at: IsoTime,
      bookingId: z.number().int(),
      state: z.enum(BOOKING_ROW_STATES).openapi({ description: 'the booking state' }),
      usesSpent: z.number().int().openapi({ description: '0 once cancelled (uses given back)' }),
      classTitle: z.string(),
      clubName: z.string(),
      classStartsAt: IsoTime,
    }),
    z.object({
      kind: z.literal('returned'),
      at: IsoTime,
      bookingId: z.number().int(),
      usesReturned: z.number().int().openapi({ description: 'uses given back to the card by the cancel' }),
      classTitle: z.string(),
    }),
    z.object({
      kind: z.literal('freeze'),
      at: IsoTime,
      from: z.string().openapi({ description: 'first frozen day (Shanghai date)' }),
      until: z.string().openapi({ description: 'last frozen day' }),
      validUntilBefore: IsoTime.nullable(),
      validUntilAfter: IsoTime.nullable(),
    }),
    z.object({
      kind: z.literal('unfreeze'),
      at: IsoTime,
      from: z.string(),
      until: z.string(),
      validUntilAfter: IsoTime.nullable().openapi({ description: 'the end after the days not frozen were taken back' }),
    }),
    z.object({ kind: z.literal('extend'), at: IsoTime, validUntilBefore: IsoTime.nullable(), validUntilAfter: IsoTime }),
    z.object({ kind: z.literal('transferOut'), at: IsoTime, transferId: z.number().int() }),
    z.object({
      kind: z.literal('transferOutcome'),
      at: IsoTime,
      transferId: z.number().int(),
      state: z.enum(['approved', 'rejected', 'cancelled']),
      reason: z.string().nullable(),
    }),
    z.object({
      kind: z.literal('transferIn'),
      at: IsoTime,
      usesLeft: z.number().int().nullable().openapi({ description: 'the uses the card was given with (null for a time card)' }),
    }),
    z.object({ kind: z.literal('refundRequested'), at: IsoTime, refundId: z.number().int(), quotedCents: z.number().int() }),
    z.object({
      kind: z.literal('refundOutcome'),
      at: IsoTime,
      refundId: z.number().int(),
      state: z.enum(['approved', 'rejected', 'cancelled']),
      amountCents: z.number().int().nullable(),
      reason: z.string().nullable(),
    }),
    z.object({
      kind: z.literal('adviser'),
      at: IsoTime,
      from: z.string().nullable().openapi({ description: 'the adviser before (null: none)' }),
      to: z.string(),
      clubName: z.string().openapi({ description: "the new adviser's club" }),
    }),
    z.object({
      kind: z.literal('familyAdded'),
      at: IsoTime,
      name: z.string().openapi({ description: 'the sub-card holder, masked (decision 040)' }),
    }),
    z.object({ kind: z.literal('familyRemoved'), at: IsoTime, name: z.string().openapi({ description: 'the sub-card holder, masked' }) }),
    z
      .object({ kind: z.literal('gifted'), at: IsoTime })
      .openapi({ description: 'the card arrived as a gift (decision 040); the giver is not named' }),
  ])
  .openapi('CardHistoryItem');
export type CardHistoryItem = z.infer<typeof CardHistoryItem>;

/** A Shanghai calendar date. */
const ShanghaiDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'YYYY-MM-DD')
  .openapi({ example: '2026-12-01' });

/** A club's membership adviser (decision 034). */
export const CardAdviser = z
  .object({ id: z.number().int(), name: z.string(), clubId: z.number().int(), clubName: z.string() })
  .openapi('CardAdviser');
export type CardAdviser = z.infer<typeof CardAdviser>;

/** GET /customers/cards/advisers: the advisers of one club (spec §5: a club first, then its adviser). */
export const AdvisersQuery = z.object({ clubId: IdParam.openapi({ param: { name: 'clubId', in: 'query' }, example: 1 }) });
export type AdvisersQuery = z.infer<typeof AdvisersQuery>;

/**
 * POST /customers/cards/adviser: change one of my cards' adviser (spec §5 "needs club and adviser").
 * Both may be left out or null so the refusal names the field (30045 club, 30046 adviser).
 */
export const CardAdviserBody = z
  .object({
    id: IdField,
    clubId: IdField.nullable().optional().openapi({ description: 'the club chosen first (required: 30045)' }),
    adviserId: IdField.nullable().optional().openapi({ description: "one of that club's advisers (required: 30046)" }),
  })
  .openapi('CardAdviserRequest');
export type CardAdviserBody = z.infer<typeof CardAdviserBody>;

/** One card-management operation on the card page: offered now, or refused with its reason (spec §8 cards). */
export const OperationOffer = z
  .object({
    operation: z.enum(['freeze', 'unfreeze', 'extend', 'transfer', 'refund', 'changeAdviser', 'family', 'gift']),
    allowed: z.boolean(),
    code: z.number().int().nullable(),
    message: z.string().nullable(),
  })
  .openapi('CardOperationOffer');
export type OperationOffer = z.infer<typeof OperationOffer>;

export const CardDetail = MemberCard.extend({
  status: z.enum(CARD_STATUSES).openapi({ description: 'as the member sees it: in use past its validity reads expired' }),
  goodsId: z.number().int().nullable(),
  clubName: z.string().nullable(),
  usesUsed: z.number().int().nullable(),
  operations: z.array(z.enum(['activate', 'freeze', 'unfreeze', 'transfer', 'extend', 'refund', 'changeAdviser'])).openapi({
    description:
      'what the card chart allows now, its card type permits, and this server has an endpoint for (services/cards/operations.ts)',
  }),
  frozenFrom: ShanghaiDate.nullable().openapi({ description: 'first day of the freeze planned or running (Shanghai date)' }),
  frozenUntil: ShanghaiDate.nullable().openapi({ description: 'last day of that freeze' }),
  offers: z.array(OperationOffer).openapi({
    description:
      'freeze, unfreeze (when frozen or planned), extend, transfer, refund and change of adviser: offered now, or the code and message refusing it',
  }),
  application: z.enum(['transfer', 'refund']).nullable().openapi({
    description: 'the transfer or refund of this card waiting on staff (it books nothing meanwhile); null when none',
  }),
  adviser: CardAdviser.nullable().openapi({ description: "the card's membership adviser; null until one is chosen" }),
  freezeMaxDays: z.number().int().openapi({ description: 'the longest freeze, both days counted' }),
  extension: z
    .object({ maxExtensions: z.number().int(), maxExtensionDays: z.number().int() })
    .nullable()
    .openapi({ description: "the card type's extension rule (card_type_rules); null when the type is never extended" }),
}).openapi('CardDetail');
export type CardDetail = z.infer<typeof CardDetail>;

/** A family main card's sharing (decision 040): its places and its live sub-card holders (masked). */
export const CardFamily = z
  .object({
    cardId: z.number().int(),
    slots: z.number().int().openapi({ description: 'how many sub-card holders the card type shares with (card_type_rules.family_slots)' }),
    members: z.array(
      z.object({
        id: z.number().int().openapi({ description: 'the sub card (for removing it)' }),
        name: z.string(),
        phone: z.string(),
        since: IsoTime,
      }),
    ),
    canAdd: z.boolean().openapi({ description: 'a place is free and the card may be shared now' }),
  })
  .openapi('CardFamily');
export type CardFamily = z.infer<typeof CardFamily>;

/** POST /customers/cards/family/add: a sub-card holder by phone (a member). */
export const CardFamilyAddBody = z
  .object({ id: IdField, phone: z.string().trim().min(1).max(32).openapi({ description: "the sub-card holder's phone (a member)" }) })
  .openapi('CardFamilyAddRequest');
/** POST /customers/cards/family/remove: one live sub card of the card. */
export const CardFamilyRemoveBody = z.object({ id: IdField, subId: IdField }).openapi('CardFamilyRemoveRequest');

/** POST /customers/cards/gift: the card to give and the recipient's phone (a member). */
export const CardGiftBody = z
  .object({ id: IdField, phone: z.string().trim().min(1).max(32).openapi({ description: "the recipient's phone (a member)" }) })
  .openapi('CardGiftRequest');
export const CardGift = z
  .object({ cardId: z.number().int(), recipientName: z.string(), recipientPhone: z.string(), giftedAt: IsoTime })
  .openapi('CardGift');
export type CardGift = z.infer<typeof CardGift>;

/** GET /customers/cards/history: a page of one of my cards' history. */
export const CardHistoryQuery = z.object({ ...IdQuery.shape, ...pagingQuery(20) });
export type CardHistoryQuery = z.infer<typeof CardHistoryQuery>;

/** Which of my cards (POST /customers/cards/activate). */
export const CardIdBody = z.object({ id: IdField }).openapi('CardIdBody');
export type CardIdBody = z.infer<typeof CardIdBody>;

/** POST /customers/cards/freeze: freeze one of my cards from one Shanghai day to another, both frozen (spec §5). */
export const CardFreezeBody = z
  .object({
    id: IdField,
    from: CalendarDay.openapi({ description: 'first frozen day: today or later' }),
    until: CalendarDay.openapi({ description: 'last frozen day: not before from' }),
  })
  .openapi('CardFreezeRequest');
export type CardFreezeBody = z.infer<typeof CardFreezeBody>;

/** POST /customers/cards/extend: extend one of my cards to end on a later Shanghai day (spec §5). */
export const CardExtendBody = z
  .object({ id: IdField, until: CalendarDay.openapi({ description: 'the new last valid day: later than the current one' }) })
  .openapi('CardExtendRequest');
export type CardExtendBody = z.infer<typeof CardExtendBody>;
