import type { CardType, ClassTypeKey, Difficulty } from './catalog';
import { addShanghaiMonths, DAY_MS, daysAfter, shanghaiDate, shanghaiDayIndex, shanghaiMinutes, shanghaiWeekday } from './time';

/**
 * The booking rules of spec §4, §5, §8 and §9, pure: the server decides with them inside its
 * transaction, the app explains with them. Each refusal is a key of src/domain/errors.ts.
 */

/** Spec §9 time of day: morning before 12:00, afternoon before 18:00, evening after (Shanghai wall clock). */
export function timeOfDay(at: Date): 'morning' | 'afternoon' | 'evening' {
  const min = shanghaiMinutes(at);
  if (min < 12 * 60) return 'morning';
  if (min < 18 * 60) return 'afternoon';
  return 'evening';
}

/** Spec §4 card status. */
export const CARD_STATUSES = ['inactive', 'in_use', 'invalid', 'expired', 'transferred', 'frozen'] as const;
export type CardStatus = (typeof CARD_STATUSES)[number];

/** A booking row's stored state (the chart in machines/domain/booking.machine.ts). */
export const BOOKING_ROW_STATES = ['booked', 'queued', 'cancelled', 'queue_cancelled', 'checked_in', 'not_checked_in', 'expired'] as const;
export type BookingRowState = (typeof BOOKING_ROW_STATES)[number];

/** Why a seat or queue place ended without the class: the member cancelled, their card no longer
 * qualified when a seat freed up, they were booked into an overlapping class, or the club cancelled
 * the class (decision 041). */
export const CANCEL_REASONS = ['member', 'not-qualified', 'overlap', 'class-cancelled'] as const;
export type CancelReason = (typeof CANCEL_REASONS)[number];

/** Spec §9: level '1' books 1 day ahead, others 3 days. */
export const LEVEL1_WINDOW_DAYS = 1;
export const DEFAULT_WINDOW_DAYS = 3;
/** Spec §9 reminders: fewer than 5 uses left; validity under one month. */
export const FEW_USES_LEFT = 5;
/** A member may hold this many upcoming bookings and queue entries at once (20002 beyond). */
export const MAX_UPCOMING_PER_MEMBER = 20;

/** Card types that never book a class (a benefits card gives discounts, not classes). */
const NON_BOOKING_CARD_TYPES: readonly CardType[] = ['equity'];

const DIFFICULTY_RANK: Record<Difficulty, number> = { beginner: 0, intermediate: 1, advanced: 2 };

export type BookingRefusal =
  | 'bookingFailed'
  | 'bookingLimit'
  | 'cardInvalid'
  | 'noUsesLeft'
  | 'cardExpired'
  | 'alreadyBooked'
  | 'classStarted'
  | 'classExpired'
  | 'notOpenYet'
  | 'beyondBenefits'
  | 'weekendOnly'
  | 'offPeakOnly'
  | 'cardLevelMismatch'
  | 'invalidMemberCard'
  | 'withinTwoDays'
  | 'withinSevenDays'
  | 'overlapping'
  | 'experienceSelf'
  | 'cardApplicationPending';

export interface ClassFacts {
  clubId: number;
  classType: ClassTypeKey;
  difficulty: Difficulty;
  startsAt: Date;
  durationMin: number;
  usesCost: number;
  status: string;
}

export interface CardFacts {
  accountId: number;
  cardType: CardType;
  clubId: number | null;
  status: CardStatus;
  usesLeft: number | null;
  validityDays: number | null;
  validUntil: Date | null;
  weekendOnly: boolean;
  offPeakSlots: readonly string[] | null;
  maxDifficulty: Difficulty | null;
  bookingWindowDays: number | null;
  experience: boolean;
  buyerAccountId: number | null;
  allowedClassTypes: readonly ClassTypeKey[];
  /** a freeze planned or running (Shanghai dates, both frozen; decision 024): no class on those days */
  frozenFrom?: string | null;
  frozenUntil?: string | null;
  /**
   * A transfer or refund of the card waits on staff: it books nothing meanwhile, since a class booked
   * would change (or refuse) what the application was asked on
   */
  applicationPending?: boolean;
}

/** Whether a class falls on a day the card is frozen (or planned to be). */
export function inFreeze(card: Pick<CardFacts, 'frozenFrom' | 'frozenUntil'>, startsAt: Date): boolean {
  if (!card.frozenFrom || !card.frozenUntil) return false;
  const day = shanghaiDate(startsAt);
  return day >= card.frozenFrom && day <= card.frozenUntil;
}

/** The end of a class. */
export function classEnd(c: Pick<ClassFacts, 'startsAt' | 'durationMin'>): Date {
  return new Date(c.startsAt.getTime() + c.durationMin * 60_000);
}

/** A class can be booked (or queued for) only before it starts (20007). */
export function classRefusal(c: Pick<ClassFacts, 'startsAt' | 'status'>, now: Date): BookingRefusal | null {
  if (c.status !== 'open') return 'bookingFailed';
  if (now.getTime() >= c.startsAt.getTime()) return 'classStarted';
  return null;
}

/** A booking or queue entry can be cancelled until the class starts; after that it is expired (20008). */
export function cancelRefusal(c: Pick<ClassFacts, 'startsAt'>, now: Date): BookingRefusal | null {
  return now.getTime() >= c.startsAt.getTime() ? 'classExpired' : null;
}

/** How many calendar days ahead a member may book: the card's own window, else the member level's. */
export function windowDays(level: string, cardWindow: number | null): number {
  if (cardWindow !== null) return cardWindow;
  return level === '1' ? LEVEL1_WINDOW_DAYS : DEFAULT_WINDOW_DAYS;
}

/** A card that could book some class for its holder now (whatever the class): counts for the horizon. */
export function mayStillBook(
  card: Pick<CardFacts, 'status' | 'cardType' | 'experience' | 'buyerAccountId' | 'accountId' | 'usesLeft' | 'validUntil' | 'validityDays'>,
  now: Date,
): boolean {
  if (card.status !== 'inactive' && card.status !== 'in_use') return false;
  if (NON_BOOKING_CARD_TYPES.includes(card.cardType)) return false;
  if (card.experience && card.buyerAccountId === card.accountId) return false;
  if (card.usesLeft !== null && card.usesLeft <= 0) return false;
  const until = effectiveValidUntil(card, now);
  return until === null || until.getTime() > now.getTime();
}

/**
 * How many calendar days ahead this member can book at all: the widest window of the cards that
 * may still book (a card's own window replaces the level's), or the level's when there is none.
 * The schedule marks later classes "not open yet" (decision 014), so what a screen offers is what
 * booking accepts.
 */
export function horizonDays(level: string, cardWindows: readonly (number | null)[]): number {
  if (cardWindows.length === 0) return windowDays(level, null);
  return Math.max(...cardWindows.map((w) => windowDays(level, w)));
}

/** Whether a class lies beyond the member's horizon, by Shanghai calendar day. */
export function beyondHorizon(startsAt: Date, now: Date, horizon: number): boolean {
  return shanghaiDayIndex(startsAt) - shanghaiDayIndex(now) > horizon;
}

/**
 * The booking window by calendar day in Asia/Shanghai: from today up to today + N days, whatever
 * the hour (spec §5 "day-boundary rule"). A card window of 2 or 7 days refuses with its own code.
 */
export function windowRefusal(startsAt: Date, now: Date, level: string, cardWindow: number | null): BookingRefusal | null {
  const ahead = shanghaiDayIndex(startsAt) - shanghaiDayIndex(now);
  if (ahead <= windowDays(level, cardWindow)) return null;
  if (cardWindow === 2) return 'withinTwoDays';
  if (cardWindow === 7) return 'withinSevenDays';
  return 'notOpenYet';
}

/** Parses "HH:MM-HH:MM" into minutes after midnight; null when malformed. */
export function parseSlot(slot: string): { from: number; to: number } | null {
  const m = /^(\d{2}):(\d{2})-(\d{2}):(\d{2})$/.exec(slot);
  if (!m) return null;
  const from = Number(m[1]) * 60 + Number(m[2]);
  const to = Number(m[3]) * 60 + Number(m[4]);
  return from < to && to <= 24 * 60 ? { from, to } : null;
}

/** An off-peak card books classes that start inside one of its slots (local time). */
export function inOffPeakSlots(startsAt: Date, slots: readonly string[]): boolean {
  const min = shanghaiMinutes(startsAt);
  return slots.some((s) => {
    const slot = parseSlot(s);
    return slot !== null && min >= slot.from && min < slot.to;
  });
}

/** Saturday or Sunday in Shanghai. */
export function isWeekend(at: Date): boolean {
  const d = shanghaiWeekday(at);
  return d === 0 || d === 6;
}

/** When a card activated at `at` stops being valid: its validity days later (null: it never ends). */
export function validUntilFrom(at: Date, validityDays: number | null): Date | null {
  return validityDays === null ? null : daysAfter(at, validityDays);
}

/** When the card's validity ends if this booking is made now: an inactive card starts today. */
export function effectiveValidUntil(card: Pick<CardFacts, 'status' | 'validUntil' | 'validityDays'>, now: Date): Date | null {
  if (card.status === 'inactive') return validUntilFrom(now, card.validityDays);
  return card.validUntil;
}

/**
 * The order a member's cards are offered for a class, so the first is the one to use:
 * usable cards first; of those, cards already in use before ones a booking would activate (whose
 * clock would start); then the card that would be lost first (the earliest end, then the fewest uses
 * left); no end and no count last; the newest card breaks a tie.
 */
export function sortCardChoice<
  T extends {
    id: number;
    usable: boolean;
    status: string;
    validUntil: string | null;
    validityDays: number | null;
    usesLeft: number | null;
  },
>(cards: readonly T[], now: Date): T[] {
  const end = (c: T) =>
    effectiveValidUntil(
      { status: c.status as CardStatus, validUntil: c.validUntil === null ? null : new Date(c.validUntil), validityDays: c.validityDays },
      now,
    )?.getTime() ?? Infinity;
  const key = (c: T) => [c.usable ? 0 : 1, c.status === 'inactive' ? 1 : 0, end(c), c.usesLeft ?? Infinity, -c.id];
  return [...cards].sort((a, b) => {
    const ka = key(a);
    const kb = key(b);
    for (let i = 0; i < ka.length; i++) if (ka[i] !== kb[i]) return ka[i]! < kb[i]! ? -1 : 1;
    return 0;
  });
}

/**
 * Whether this card may book this class for this member now (spec §8 codes), in a fixed order:
 * who may use it, its status and validity, uses, benefits, restrictions, then the window.
 */
export function cardRefusal(
  card: CardFacts,
  cls: ClassFacts,
  member: { accountId: number; level: string },
  now: Date,
): BookingRefusal | null {
  if (card.experience && card.buyerAccountId === member.accountId) return 'experienceSelf';
  if (NON_BOOKING_CARD_TYPES.includes(card.cardType)) return 'invalidMemberCard';
  if (card.status === 'invalid' || card.status === 'transferred' || card.status === 'frozen') return 'cardInvalid';
  if (card.status === 'expired') return 'cardExpired';
  if (card.applicationPending) return 'cardApplicationPending';
  // a freeze planned from a later day: the card books no class on its days (spec §8 20003)
  if (inFreeze(card, cls.startsAt)) return 'cardInvalid';
  const until = effectiveValidUntil(card, now);
  if (until !== null && (until.getTime() <= now.getTime() || until.getTime() < cls.startsAt.getTime())) return 'cardExpired';
  if (card.usesLeft !== null && card.usesLeft < cls.usesCost) return 'noUsesLeft';
  if (card.clubId !== null && card.clubId !== cls.clubId) return 'beyondBenefits';
  if (!card.allowedClassTypes.includes(cls.classType)) return 'beyondBenefits';
  if (card.maxDifficulty !== null && DIFFICULTY_RANK[cls.difficulty] > DIFFICULTY_RANK[card.maxDifficulty]) return 'cardLevelMismatch';
  if (card.weekendOnly && !isWeekend(cls.startsAt)) return 'weekendOnly';
  if (card.offPeakSlots !== null && card.offPeakSlots.length > 0 && !inOffPeakSlots(cls.startsAt, card.offPeakSlots)) return 'offPeakOnly';
  return windowRefusal(cls.startsAt, now, member.level, card.bookingWindowDays);
}

/** Two classes overlap when each starts before the other ends (back to back is fine). */
export function overlaps(a: Pick<ClassFacts, 'startsAt' | 'durationMin'>, b: Pick<ClassFacts, 'startsAt' | 'durationMin'>): boolean {
  return a.startsAt.getTime() < classEnd(b).getTime() && b.startsAt.getTime() < classEnd(a).getTime();
}

/** The longest a class may last: seats starting this long before a class are the only ones that can overlap it. */
export const LONGEST_CLASS_MS = DAY_MS;

/**
 * The member's booked seat a class clashes with (spec §8 20030): the first, by start, of
 * `seats` (their booked classes) in another class that overlaps it; undefined when none does. The
 * schedule's mark and the booking's refusal both ask this.
 */
export function clashOf<T extends { classId: number; startsAt: Date; durationMin: number }>(
  cls: { id: number; startsAt: Date; durationMin: number },
  seats: readonly T[],
): T | undefined {
  return [...seats]
    .sort((a, b) => a.startsAt.getTime() - b.startsAt.getTime())
    .find((seat) => seat.classId !== cls.id && overlaps(seat, cls));
}

/** Spec §8 booking reminders shown in the confirm step. */
export type CardReminder = 'will-activate' | 'first-use' | 'few-uses-left' | 'short-validity';

export function cardReminders(
  card: Pick<CardFacts, 'status' | 'usesLeft' | 'validUntil' | 'validityDays'> & { everUsed: boolean },
  now: Date,
): CardReminder[] {
  const out: CardReminder[] = [];
  if (card.status === 'inactive') out.push('will-activate');
  if (!card.everUsed) out.push('first-use');
  if (card.usesLeft !== null && card.usesLeft < FEW_USES_LEFT) out.push('few-uses-left');
  const until = effectiveValidUntil(card, now);
  if (until !== null && until.getTime() < addShanghaiMonths(now, 1).getTime()) out.push('short-validity');
  return out;
}
