import { z } from '@hono/zod-openapi';
import { CANCEL_REASONS, CARD_STATUSES, BOOKING_ROW_STATES } from '../domain/booking-rules';
import { CARD_TYPE_VALUES, CLASS_TYPES, DIFFICULTIES, EFFECTS, TIMES_OF_DAY } from '../domain/catalog';
import { CalendarDay, IdField, IdParam, pagingQuery } from './common';

/**
 * Query and answer schemas of the booking calls, check-in and the front photo (decision 007):
 * the server documents and checks them, the app reads their inferred types (src/api/booking.ts).
 */

const values = <T extends string>(list: readonly { value: T }[]) => list.map((e) => e.value) as [T, ...T[]];
const IsoTime = z.string().openapi({ example: '2026-11-21T01:00:00.000Z' });

const q = (name: string, extra: Record<string, unknown> = {}) => ({ param: { name, in: 'query' as const }, ...extra });

/** Spec §3 course filter names (catgory is the spec's spelling). */
export const ScheduleQuery = z.object({
  date: CalendarDay.optional().openapi(q('date', { example: '2026-11-21', description: 'Shanghai calendar day; today by default' })),
  clubId: IdParam.optional().openapi(q('clubId', { description: 'studio' })),
  courseTimelong: z.coerce
    .number()
    .int()
    .min(1)
    .max(600)
    .optional()
    .openapi(q('courseTimelong', { description: 'duration in minutes', example: 60 })),
  level: z
    .enum(values(DIFFICULTIES))
    .optional()
    .openapi(q('level', { description: 'difficulty' })),
  courseAt: z
    .enum(values(TIMES_OF_DAY))
    .optional()
    .openapi(q('courseAt', { description: 'time of day' })),
  catgory: z
    .string()
    .regex(/^[a-z0-9-]{1,40}$/)
    .optional()
    .openapi(q('catgory', { description: 'style key', example: 'hatha' })),
  ability: z
    .enum(values(EFFECTS))
    .optional()
    .openapi(q('ability', { description: 'effect' })),
  type: z
    .enum(values(CLASS_TYPES))
    .optional()
    .openapi(q('type', { description: 'class type' })),
  keywords: z.string().trim().min(1).max(40).optional().openapi(q('keywords')),
});
export type ScheduleQuery = z.infer<typeof ScheduleQuery>;

export const ClassItem = z
  .object({
    id: z.number().int(),
    title: z.string(),
    clubId: z.number().int(),
    clubName: z.string(),
    room: z.string(),
    teacherId: z.number().int().nullable(),
    teacherName: z.string().nullable(),
    teacherPhoto: z.string().nullable(),
    classType: z.enum(values(CLASS_TYPES)),
    style: z.string(),
    effect: z.string(),
    difficulty: z.enum(values(DIFFICULTIES)),
    timeOfDay: z.enum(values(TIMES_OF_DAY)),
    startsAt: IsoTime,
    endsAt: IsoTime,
    durationMin: z.number().int(),
    capacity: z.number().int(),
    bookedCount: z.number().int(),
    queueCount: z.number().int(),
    usesCost: z.number().int(),
  })
  .openapi('ClassItem');
export type ClassItem = z.infer<typeof ClassItem>;

export const ScheduleItem = ClassItem.extend({
  state: z.enum(['bookable', 'queueable', 'full', 'expired', 'not-open', 'booked', 'queued', 'checked-in', 'not-checked-in']).openapi({
    description:
      "spec §4 for the caller: can book, queued (class full: join the queue), fully booked, expired, booked, queued, checked in, not checked in; and not-open: beyond the caller's booking window (decision 014)",
  }),
  opensOn: z
    .string()
    .nullable()
    .openapi({ description: 'not-open: the first Shanghai date (YYYY-MM-DD) this member may book it', example: '2026-11-21' }),
  bookingId: z.number().int().nullable(),
  queuePosition: z.number().int().nullable(),
  promoted: z.boolean(),
  canCancel: z.boolean().openapi({ description: 'my seat can still be cancelled (before the class starts)' }),
  canCancelQueue: z.boolean().openapi({ description: 'my queue place can still be left (before the class starts)' }),
  clashesWith: z
    .object({ bookingId: z.number().int(), classId: z.number().int(), title: z.string(), startsAt: IsoTime, endsAt: IsoTime })
    .nullable()
    .openapi({
      description:
        'bookable, queueable or not open yet, and it overlaps a class I booked: that booking (booking it would be refused, 20030)',
    }),
}).openapi('ScheduleItem');
export type ScheduleItem = z.infer<typeof ScheduleItem>;

export const BookingWindow = z
  .object({
    today: z.string().openapi({ example: '2026-11-20' }),
    days: z.number().int().openapi({ description: 'calendar days ahead the caller can book with any card they hold', example: 3 }),
    openUntil: z.string().openapi({ example: '2026-11-23' }),
  })
  .openapi('BookingWindow');
export type BookingWindow = z.infer<typeof BookingWindow>;

/** What cancelling my seat gives back, for the cancel dialog to say before the member confirms. */
export const CancelGives = z
  .object({
    usesBack: z.number().int().openapi({ description: 'uses returned to the card' }),
    cardStaysActive: z.boolean().openapi({
      description: 'the seat activated its card: cancelling gives the use back, the card stays activated and its validity keeps running',
    }),
  })
  .openapi('CancelGives');
export type CancelGives = z.infer<typeof CancelGives>;

export const ClassDetail = ScheduleItem.extend({
  clubAddress: z.string(),
  classStatus: z.string(),
  cancelGives: CancelGives.nullable().openapi({ description: 'my seat in it: what a cancel gives back; null without a seat' }),
}).openapi('ClassDetail');
export type ClassDetail = z.infer<typeof ClassDetail>;

export const MemberCard = z
  .object({
    id: z.number().int(),
    name: z.string(),
    number: z.string(),
    cardType: z.enum(CARD_TYPE_VALUES),
    clubId: z.number().int().nullable(),
    status: z.enum(CARD_STATUSES),
    usesTotal: z.number().int().nullable(),
    usesLeft: z.number().int().nullable(),
    validFrom: IsoTime.nullable(),
    validUntil: IsoTime.nullable(),
    validityDays: z.number().int().nullable(),
    extensionCount: z.number().int(),
    weekendOnly: z.boolean(),
    offPeakSlots: z.array(z.string()),
    bookingWindowDays: z.number().int().nullable(),
    experience: z.boolean(),
    familySub: z.boolean().openapi({
      description:
        "the caller holds this card as a family sub card: it books with the main card's uses, only its owner manages it (decision 040)",
    }),
  })
  .openapi('MemberCard');
export type MemberCard = z.infer<typeof MemberCard>;

export const CardForClass = MemberCard.extend({
  usable: z.boolean(),
  code: z.number().int().nullable().openapi({ description: 'the booking code refusing this card (spec §8)' }),
  message: z.string().nullable(),
  reminders: z.array(z.enum(['will-activate', 'first-use', 'few-uses-left', 'short-validity'])),
}).openapi('CardForClass');
export type CardForClass = z.infer<typeof CardForClass>;

export const BookBody = z
  .object({
    classId: IdField,
    cardId: IdField,
    agreeNotice: z.literal(true).openapi({ description: 'the member notice must be agreed (spec §5)' }),
  })
  .openapi('BookRequest');
export type BookBody = z.infer<typeof BookBody>;

export const BookingIdBody = z.object({ bookingId: IdField }).openapi('BookingRef');

export const BookAnswer = z
  .object({
    bookingId: z.number().int(),
    state: z.enum(['booked', 'queued']),
    position: z.number().int().optional().openapi({ description: 'queue position when queued' }),
    activated: z.boolean().optional(),
    usesLeft: z.number().int().nullable().optional(),
    bookedNum: z.number().int().openapi({ description: 'upcoming booked classes (footer badge)' }),
  })
  .openapi('BookAnswer');
export type BookAnswer = z.infer<typeof BookAnswer>;

export const CancelAnswer = z
  .object({
    bookingId: z.number().int(),
    state: z.enum(BOOKING_ROW_STATES),
    usesReturned: z.number().int().optional(),
    bookedNum: z.number().int(),
  })
  .openapi('CancelAnswer');
export type CancelAnswer = z.infer<typeof CancelAnswer>;

export const MyBooking = z
  .object({
    bookingId: z.number().int(),
    state: z.enum(BOOKING_ROW_STATES),
    promoted: z.boolean(),
    queuePosition: z.number().int().nullable(),
    cardId: z.number().int(),
    cancelledAt: IsoTime.nullable(),
    cancelReason: z.enum(CANCEL_REASONS).nullable(),
    canCancel: z.boolean(),
    canCancelQueue: z.boolean(),
    cancelGives: CancelGives.nullable().openapi({
      description: 'a seat: what a cancel gives back; null for a queue place or a past booking',
    }),
    class: ClassItem,
  })
  .openapi('MyBooking');
export type MyBooking = z.infer<typeof MyBooking>;

/** How many of my bookings a page holds. */
export const MINE_PAGE_SIZE = 10;

export const MineQuery = z.object({
  scope: z
    .enum(['upcoming', 'past'])
    .default('upcoming')
    .openapi({ param: { name: 'scope', in: 'query' } }),
  month: z
    .string()
    .regex(/^20\d\d-(0[1-9]|1[0-2])$/)
    .optional()
    .openapi({
      param: { name: 'month', in: 'query', description: 'only classes starting in this Shanghai month (the calendar)' },
      example: '2026-11',
    }),
  ...pagingQuery(MINE_PAGE_SIZE),
});
export type MineQuery = z.infer<typeof MineQuery>;

/** A seat checked in (decision 007). */
export const CheckinAnswer = z
  .object({
    bookingId: z.number().int(),
    classId: z.number().int(),
    state: z.literal('checked_in'),
    checkedInAt: z.string(),
    usesSpent: z.number().int().openapi({ description: 'uses the door took (a seat that had not paid its class yet)' }),
  })
  .openapi('CheckinAnswer');
export type CheckinAnswer = z.infer<typeof CheckinAnswer>;

export const CheckinBody = z.object({ classId: IdField, code: z.string().trim().min(1).max(32) });
export type CheckinBody = z.infer<typeof CheckinBody>;

/** One class, by id (the cards that can book it; its check-in code). */
export const ClassIdQuery = z.object({ classId: IdParam.openapi({ param: { name: 'classId', in: 'query' }, example: 1 }) });
/** One of my bookings, by id (its calendar file). */
export const BookingIdQuery = z.object({ bookingId: IdParam.openapi({ param: { name: 'bookingId', in: 'query' }, example: 1 }) });

/** A class's check-in code: what the QR code the teacher shows carries. */
export const CheckinCode = z.object({ classId: z.number().int(), code: z.string() }).openapi('CheckinCode');
export type CheckinCode = z.infer<typeof CheckinCode>;
