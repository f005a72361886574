import { z } from '@hono/zod-openapi';
import { BOOKING_ROW_STATES, CARD_STATUSES } from '../domain/booking-rules';
import { GOODS_KIND_VALUES } from '../domain/catalog';
import { ORDER_STATES, PAY_METHODS } from '../domain/orders';
import { MemberCard } from './booking';
import { CalendarDay, IdParam, IdQuery, pagingQuery } from './common';

/** What members own besides bookings (issue 4): a card with its history, my courses, my purchases. */
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
  })
  .openapi('Purchase');
export type Purchase = z.infer<typeof Purchase>;

/** One line of a card's history, newest first: bought (what it cost), activated, or a class booked with it. */
export const CardHistoryItem = z
  .discriminatedUnion('kind', [
    z.object({
      kind: z.literal('bought'),
      at: IsoTime,
      orderNo: z.string(),
      paidCents: z.number().int().openapi({ description: 'price less the coupon' }),
    }),
    z.object({ kind: z.literal('activated'), at: IsoTime }),
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
  ])
  .openapi('CardHistoryItem');
export type CardHistoryItem = z.infer<typeof CardHistoryItem>;

/** A Shanghai calendar date. */
const ShanghaiDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'YYYY-MM-DD').openapi({ example: '2026-12-01' });

/** One card-management operation on the card page: offered now, or refused with its reason (spec §8 cards). */
export const OperationOffer = z
  .object({
    operation: z.enum(['freeze', 'unfreeze', 'extend', 'transfer', 'refund']),
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
  operations: z.array(z.enum(['activate', 'freeze', 'unfreeze', 'transfer', 'extend', 'refund'])).openapi({ description: 'what the card chart allows now, its card type permits, and this server has an endpoint for (services/cards/operations.ts)' }),
  frozenFrom: ShanghaiDate.nullable().openapi({ description: 'first day of the freeze planned or running (Shanghai date)' }),
  frozenUntil: ShanghaiDate.nullable().openapi({ description: 'last day of that freeze' }),
  offers: z.array(OperationOffer).openapi({ description: 'freeze, unfreeze (when frozen or planned), extend, transfer and refund: offered now, or the code and message refusing it' }),
  freezeMaxDays: z.number().int().openapi({ description: 'the longest freeze, both days counted' }),
  extension: z
    .object({ maxExtensions: z.number().int(), maxExtensionDays: z.number().int() })
    .nullable()
    .openapi({ description: "the card type's extension rule (card_type_rules); null when the type is never extended" }),
}).openapi('CardDetail');
export type CardDetail = z.infer<typeof CardDetail>;

/** GET /customers/cards/history: a page of one of my cards' history. */
export const CardHistoryQuery = z.object({ ...IdQuery.shape, ...pagingQuery(20) });
export type CardHistoryQuery = z.infer<typeof CardHistoryQuery>;

/** Which of my cards (POST /customers/cards/activate). */
export const CardIdBody = z.object({ id: IdParam }).openapi('CardIdBody');
export type CardIdBody = z.infer<typeof CardIdBody>;


/** POST /customers/cards/freeze: freeze one of my cards from one Shanghai day to another, both frozen (spec §5). */
export const CardFreezeBody = z
  .object({ id: IdParam, from: CalendarDay.openapi({ description: 'first frozen day: today or later' }), until: CalendarDay.openapi({ description: 'last frozen day: not before from' }) })
  .openapi('CardFreezeRequest');
export type CardFreezeBody = z.infer<typeof CardFreezeBody>;

/** POST /customers/cards/extend: extend one of my cards to end on a later Shanghai day (spec §5). */
export const CardExtendBody = z
  .object({ id: IdParam, until: CalendarDay.openapi({ description: 'the new last valid day: later than the current one' }) })
  .openapi('CardExtendRequest');
export type CardExtendBody = z.infer<typeof CardExtendBody>;
