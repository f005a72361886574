import { describe, expect, it } from 'vitest';
import {
  beyondHorizon,
  cardRefusal,
  cardReminders,
  cancelRefusal,
  clashOf,
  sortCardChoice,
  classRefusal,
  horizonDays,
  mayStillBook,
  overlaps,
  timeOfDay,
  windowRefusal,
  type CardFacts,
  type ClassFacts,
} from '../../src/domain/booking-rules';
import { addShanghaiMonths, shanghaiDate, shanghaiDayIndex, shanghaiMidnight } from '../../src/domain/time';
import { Errors } from '../../src/domain/errors';

/** Shanghai wall time "YYYY-MM-DD HH:MM" as an instant (UTC+08:00, no DST). */
const sh = (s: string) => new Date(`${s.replace(' ', 'T')}:00+08:00`);

const cls = (over: Partial<ClassFacts> = {}): ClassFacts => ({
  clubId: 1,
  classType: 'regular',
  difficulty: 'beginner',
  startsAt: sh('2026-11-21 10:00'),
  durationMin: 60,
  usesCost: 1,
  status: 'open',
  ...over,
});

const card = (over: Partial<CardFacts> = {}): CardFacts => ({
  accountId: 2,
  cardType: 'count',
  clubId: null,
  status: 'in_use',
  usesLeft: 8,
  validityDays: 180,
  validUntil: sh('2027-03-01 00:00'),
  weekendOnly: false,
  offPeakSlots: null,
  maxDifficulty: null,
  bookingWindowDays: null,
  experience: false,
  buyerAccountId: null,
  allowedClassTypes: ['regular', 'small-group'],
  ...over,
});

const member2 = { accountId: 2, level: '2' };

describe('Shanghai calendar days (UTC+08:00)', () => {
  it('puts 23:59 and 00:00 Shanghai on different days although their UTC dates are the same', () => {
    const late = sh('2026-11-20 23:59');
    const midnight = sh('2026-11-21 00:00');
    expect(late.toISOString().slice(0, 10)).toBe('2026-11-20');
    expect(midnight.toISOString().slice(0, 10)).toBe('2026-11-20');
    expect(shanghaiDayIndex(midnight) - shanghaiDayIndex(late)).toBe(1);
    expect(shanghaiDate(midnight)).toBe('2026-11-21');
  });

  it('puts 07:59 Shanghai on the local day whose UTC date is the day before', () => {
    const early = sh('2026-11-21 07:59');
    expect(early.toISOString().slice(0, 10)).toBe('2026-11-20');
    expect(shanghaiDate(early)).toBe('2026-11-21');
  });

  it('reads local midnight and refuses malformed dates', () => {
    expect(shanghaiMidnight('2026-11-21').toISOString()).toBe('2026-11-20T16:00:00.000Z');
    expect(() => shanghaiMidnight('2026-02-30')).toThrow();
    expect(() => shanghaiMidnight('21/11/2026')).toThrow();
  });

  it('adds a calendar month, clamping to the month end', () => {
    expect(shanghaiDate(addShanghaiMonths(sh('2026-01-31 10:00'), 1))).toBe('2026-02-28');
    expect(shanghaiDate(addShanghaiMonths(sh('2026-12-15 23:30'), 1))).toBe('2027-01-15');
  });

  it('names the time of day (spec §9)', () => {
    expect(timeOfDay(sh('2026-11-21 11:59'))).toBe('morning');
    expect(timeOfDay(sh('2026-11-21 12:00'))).toBe('afternoon');
    expect(timeOfDay(sh('2026-11-21 18:00'))).toBe('evening');
  });
});

describe('the booking window by calendar day (spec §5, §9)', () => {
  it('lets a level 1 member book today and tomorrow only, whatever the hour', () => {
    const now = sh('2026-11-20 23:59');
    expect(windowRefusal(sh('2026-11-21 23:30'), now, '1', null)).toBeNull();
    expect(windowRefusal(sh('2026-11-22 00:00'), now, '1', null)).toBe('notOpenYet');
    // one minute later it is the 21st: the 22nd opens
    expect(windowRefusal(sh('2026-11-22 00:00'), sh('2026-11-21 00:00'), '1', null)).toBeNull();
  });

  it('lets other members book up to three days ahead', () => {
    const now = sh('2026-11-20 08:00');
    expect(windowRefusal(sh('2026-11-23 21:00'), now, '2', null)).toBeNull();
    expect(windowRefusal(sh('2026-11-24 07:00'), now, '2', null)).toBe('notOpenYet');
  });

  it('uses a card window of two days (20021) or seven days (20022) instead', () => {
    const now = sh('2026-11-20 10:00');
    expect(windowRefusal(sh('2026-11-22 20:00'), now, '1', 2)).toBeNull();
    expect(windowRefusal(sh('2026-11-23 08:00'), now, '1', 2)).toBe('withinTwoDays');
    expect(windowRefusal(sh('2026-11-27 20:00'), now, '2', 7)).toBeNull();
    expect(windowRefusal(sh('2026-11-28 08:00'), now, '2', 7)).toBe('withinSevenDays');
    expect(Errors.withinTwoDays.code).toBe(20021);
    expect(Errors.withinSevenDays.code).toBe(20022);
  });
});

describe("the member's horizon: the widest window any of their cards can book (decision 014)", () => {
  const now = sh('2026-11-20 23:30');
  it("is the level's window without a card that can book", () => {
    expect(horizonDays('1', [])).toBe(1);
    expect(horizonDays('2', [])).toBe(3);
  });
  it("takes the widest card window; a card without its own window counts the level's", () => {
    expect(horizonDays('1', [null, 7])).toBe(7);
    expect(horizonDays('2', [2])).toBe(2);
    expect(horizonDays('2', [2, null])).toBe(3);
  });
  it('agrees with windowRefusal at the edge, by calendar day in Shanghai (23:30 Friday: Saturday is one day ahead)', () => {
    for (const [level, w] of [
      ['1', null],
      ['2', null],
      ['2', 2],
      ['1', 7],
    ] as const) {
      const h = horizonDays(level, [w]);
      for (let d = 0; d <= 9; d++) {
        const at = new Date(sh('2026-11-21 00:30').getTime() + (d - 1) * 86_400_000);
        expect(beyondHorizon(at, now, h), `${level}/${w} +${d}`).toBe(windowRefusal(at, now, level, w) !== null);
      }
    }
  });
  it('counts only cards that may still book: live status, uses left, valid, not an own experience card, not a benefits card', () => {
    expect(mayStillBook(card(), now)).toBe(true);
    expect(mayStillBook(card({ status: 'inactive', validUntil: null }), now)).toBe(true);
    expect(mayStillBook(card({ status: 'frozen' }), now)).toBe(false);
    expect(mayStillBook(card({ status: 'expired' }), now)).toBe(false);
    expect(mayStillBook(card({ usesLeft: 0 }), now)).toBe(false);
    expect(mayStillBook(card({ validUntil: sh('2026-11-20 23:00') }), now)).toBe(false);
    expect(mayStillBook(card({ cardType: 'equity' }), now)).toBe(false);
    expect(mayStillBook(card({ experience: true, buyerAccountId: 2 }), now)).toBe(false);
    expect(mayStillBook(card({ experience: true, buyerAccountId: 9 }), now)).toBe(true);
  });
});

describe('class start and cancel (20007, 20008)', () => {
  it('refuses booking at and after the start, not a minute before', () => {
    const c = cls({ startsAt: sh('2026-11-20 10:00') });
    expect(classRefusal(c, sh('2026-11-20 09:59'))).toBeNull();
    expect(classRefusal(c, sh('2026-11-20 10:00'))).toBe('classStarted');
    expect(classRefusal({ ...c, status: 'cancelled' }, sh('2026-11-20 09:00'))).toBe('bookingFailed');
  });

  it('refuses a cancel once the class has started', () => {
    const c = cls({ startsAt: sh('2026-11-20 10:00') });
    expect(cancelRefusal(c, sh('2026-11-20 09:59'))).toBeNull();
    expect(cancelRefusal(c, sh('2026-11-20 10:00'))).toBe('classExpired');
  });
});

describe('card rules (spec §8)', () => {
  const now = sh('2026-11-20 10:00');

  it('accepts a good card', () => {
    expect(cardRefusal(card(), cls(), member2, now)).toBeNull();
  });

  it.each([
    [{ experience: true, buyerAccountId: 2 }, 'experienceSelf'],
    [{ cardType: 'equity' as const }, 'invalidMemberCard'],
    [{ status: 'frozen' as const }, 'cardInvalid'],
    [{ status: 'transferred' as const }, 'cardInvalid'],
    [{ status: 'invalid' as const }, 'cardInvalid'],
    [{ status: 'expired' as const }, 'cardExpired'],
    [{ validUntil: sh('2026-11-20 09:00') }, 'cardExpired'],
    [{ validUntil: sh('2026-11-21 09:00') }, 'cardExpired'],
    [{ usesLeft: 0 }, 'noUsesLeft'],
    [{ clubId: 2 }, 'beyondBenefits'],
    [{ allowedClassTypes: ['private' as const] }, 'beyondBenefits'],
    [{ maxDifficulty: 'beginner' as const }, null],
  ])('card %j → %s', (over, want) => {
    expect(cardRefusal(card(over as Partial<CardFacts>), cls(), member2, now)).toBe(want);
  });

  it('lets an experience card be used by the friend it was bought for', () => {
    expect(cardRefusal(card({ experience: true, buyerAccountId: 9 }), cls(), member2, now)).toBeNull();
  });

  it('refuses a class harder than the card level (20013)', () => {
    expect(cardRefusal(card({ maxDifficulty: 'beginner' }), cls({ difficulty: 'intermediate' }), member2, now)).toBe('cardLevelMismatch');
    expect(cardRefusal(card({ maxDifficulty: 'advanced' }), cls({ difficulty: 'advanced' }), member2, now)).toBeNull();
  });

  it('books a weekend card on Saturday and Sunday in Shanghai only (20011)', () => {
    const weekend = card({ weekendOnly: true });
    // Friday 23:30 Shanghai: Friday locally, whatever UTC says
    expect(cardRefusal(weekend, cls({ startsAt: sh('2026-11-20 23:30') }), member2, now)).toBe('weekendOnly');
    // Saturday 07:00 Shanghai is Friday 23:00 UTC
    expect(cardRefusal(weekend, cls({ startsAt: sh('2026-11-21 07:00') }), member2, now)).toBeNull();
    expect(cardRefusal(weekend, cls({ startsAt: sh('2026-11-22 20:00') }), member2, now)).toBeNull();
    expect(cardRefusal(weekend, cls({ startsAt: sh('2026-11-23 00:30') }), member2, now)).toBe('weekendOnly');
  });

  it('books an off-peak card inside its slots only (20012)', () => {
    const offPeak = card({ offPeakSlots: ['10:00-16:00'] });
    expect(cardRefusal(offPeak, cls({ startsAt: sh('2026-11-21 10:00') }), member2, now)).toBeNull();
    expect(cardRefusal(offPeak, cls({ startsAt: sh('2026-11-21 15:59') }), member2, now)).toBeNull();
    expect(cardRefusal(offPeak, cls({ startsAt: sh('2026-11-21 16:00') }), member2, now)).toBe('offPeakOnly');
    expect(cardRefusal(offPeak, cls({ startsAt: sh('2026-11-21 09:30') }), member2, now)).toBe('offPeakOnly');
  });

  it('activates an inactive card now: validity runs from today', () => {
    const inactive = card({ status: 'inactive', validUntil: null, validityDays: 30 });
    expect(cardRefusal(inactive, cls(), member2, now)).toBeNull();
    expect(cardRefusal({ ...inactive, validityDays: 0 }, cls(), member2, now)).toBe('cardExpired');
  });
});

describe('overlap', () => {
  it('finds classes that share time, not back-to-back ones', () => {
    const a = { startsAt: sh('2026-11-21 10:00'), durationMin: 60 };
    expect(overlaps(a, { startsAt: sh('2026-11-21 10:30'), durationMin: 60 })).toBe(true);
    expect(overlaps(a, { startsAt: sh('2026-11-21 09:30'), durationMin: 45 })).toBe(true);
    expect(overlaps(a, { startsAt: sh('2026-11-21 11:00'), durationMin: 60 })).toBe(false);
    expect(overlaps(a, { startsAt: sh('2026-11-21 09:00'), durationMin: 60 })).toBe(false);
  });

  it('names the seat a class clashes with: the earliest overlapping one, never the class itself', () => {
    const cls = { id: 7, startsAt: sh('2026-11-21 10:00'), durationMin: 60 };
    const seat = (classId: number, at: string, durationMin = 60) => ({ classId, startsAt: sh(`2026-11-21 ${at}`), durationMin });
    expect(clashOf(cls, [])).toBeUndefined();
    expect(clashOf(cls, [seat(7, '10:00')]), 'its own seat').toBeUndefined();
    expect(clashOf(cls, [seat(1, '09:00'), seat(2, '11:00')]), 'back to back').toBeUndefined();
    const late = seat(3, '10:45');
    const early = seat(4, '09:30');
    expect(clashOf(cls, [late, early])).toBe(early);
    expect(clashOf(cls, [seat(7, '10:00'), late])).toBe(late);
  });
});

describe('the order cards are offered in', () => {
  const now = sh('2026-11-20 10:00');
  const c = (
    id: number,
    over: Partial<{
      usable: boolean;
      status: string;
      validUntil: string | null;
      validityDays: number | null;
      usesLeft: number | null;
    }> = {},
  ) => ({
    id,
    usable: true,
    status: 'in_use',
    validUntil: sh('2026-12-20 00:00').toISOString(),
    validityDays: 90,
    usesLeft: 10,
    ...over,
  });
  const order = (cards: ReturnType<typeof c>[]) => sortCardChoice(cards, now).map((x) => x.id);
  it('usable first, cards in use before ones a booking would activate, then the one lost first', () => {
    expect(order([c(1, { usable: false }), c(2)])).toEqual([2, 1]);
    // a new inactive card (its 90 days would start) after an older card in use with a later end
    expect(order([c(3, { status: 'inactive', validUntil: null }), c(4, { validUntil: sh('2027-06-01 00:00').toISOString() })])).toEqual([
      4, 3,
    ]);
    // the earliest end first, then the fewest uses left, then the newest
    expect(
      order([c(5, { validUntil: sh('2027-01-01 00:00').toISOString() }), c(6, { validUntil: sh('2026-12-01 00:00').toISOString() })]),
    ).toEqual([6, 5]);
    expect(order([c(7, { usesLeft: 8 }), c(8, { usesLeft: 4 })])).toEqual([8, 7]);
    expect(order([c(9), c(10)])).toEqual([10, 9]);
    // no end and no count come after ones that end
    expect(order([c(11, { validUntil: null, validityDays: null, usesLeft: null }), c(12)])).toEqual([12, 11]);
    // two inactive cards: the shorter validity would be lost first
    expect(
      order([
        c(13, { status: 'inactive', validUntil: null, validityDays: 365 }),
        c(14, { status: 'inactive', validUntil: null, validityDays: 30 }),
      ]),
    ).toEqual([14, 13]);
  });
});

describe('reminders in the confirm step (spec §8)', () => {
  const now = sh('2026-11-20 10:00');
  it('tells a first use and an activation', () => {
    expect(cardReminders({ status: 'inactive', usesLeft: 10, validUntil: null, validityDays: 180, everUsed: false }, now)).toEqual([
      'will-activate',
      'first-use',
    ]);
  });
  it('warns under 5 uses left (4 warns, 5 does not)', () => {
    const base = { status: 'in_use' as const, validUntil: sh('2027-06-01 00:00'), validityDays: 180, everUsed: true };
    expect(cardReminders({ ...base, usesLeft: 4 }, now)).toEqual(['few-uses-left']);
    expect(cardReminders({ ...base, usesLeft: 5 }, now)).toEqual([]);
    expect(cardReminders({ ...base, usesLeft: null }, now)).toEqual([]);
  });
  it('warns when validity ends within one calendar month', () => {
    const base = { status: 'in_use' as const, usesLeft: null, validityDays: 365, everUsed: true };
    expect(cardReminders({ ...base, validUntil: sh('2026-12-20 09:59') }, now)).toEqual(['short-validity']);
    expect(cardReminders({ ...base, validUntil: sh('2026-12-20 10:00') }, now)).toEqual([]);
    expect(cardReminders({ status: 'inactive', usesLeft: 2, validUntil: null, validityDays: 20, everUsed: false }, now)).toEqual([
      'will-activate',
      'first-use',
      'few-uses-left',
      'short-validity',
    ]);
  });
});
