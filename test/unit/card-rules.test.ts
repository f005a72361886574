import { describe, expect, it } from 'vitest';
import {
  daysBetween,
  extendedValidUntil,
  extensionRefusal,
  extensionDateBounds,
  freezeDateBounds,
  freezeDatesRefusal,
  freezeEndsAt,
  MAX_FREEZE_DAYS,
  shiftValidity,
  unusedFreezeDays,
} from '../../src/domain/card-rules';
import { lastValidDay } from '../../src/domain/time';
import { inFreeze } from '../../src/domain/booking-rules';

/** Shanghai wall time as an instant. */
const sh = (s: string) => new Date(`${s.replace(' ', 'T')}:00+08:00`);

describe('freeze rules (spec §5, decision 024)', () => {
  it('counts both days of a freeze, across a month end', () => {
    expect(daysBetween('2026-11-20', '2026-11-20')).toBe(1);
    expect(daysBetween('2026-11-29', '2026-12-02')).toBe(4);
  });

  it('refuses a start before today, an end before the start, more than the longest freeze, a start after the validity', () => {
    const until = sh('2026-12-01 10:00');
    expect(freezeDatesRefusal({ from: '2026-11-19', until: '2026-11-21' }, '2026-11-20', until)).toBe('freezeStartPast');
    expect(freezeDatesRefusal({ from: '2026-11-22', until: '2026-11-21' }, '2026-11-20', until)).toBe('freezeEndBeforeStart');
    expect(freezeDatesRefusal({ from: '2026-11-20', until: '2026-12-19' }, '2026-11-20', null)).toBe(null);
    expect(daysBetween('2026-11-20', '2026-12-19')).toBe(MAX_FREEZE_DAYS);
    expect(freezeDatesRefusal({ from: '2026-11-20', until: '2026-12-20' }, '2026-11-20', null)).toBe('freezeTooLong');
    // its last valid day is 12-01: a freeze may start then, not the day after
    expect(freezeDatesRefusal({ from: '2026-12-01', until: '2026-12-02' }, '2026-11-20', until)).toBe(null);
    expect(freezeDatesRefusal({ from: '2026-12-02', until: '2026-12-03' }, '2026-11-20', until)).toBe('freezeAfterValidity');
    expect(freezeDatesRefusal({ from: '2026-11-20', until: '2026-11-20' }, '2026-11-20', until)).toBe(null);
  });

  it('offers in the date pickers exactly the days the freeze rule accepts', () => {
    const until = sh('2026-12-01 10:00');
    const b = freezeDateBounds('2026-11-25', '2026-11-20', until);
    expect(b).toEqual({ fromMin: '2026-11-20', fromMax: '2026-12-01', untilMin: '2026-11-25', untilMax: '2026-12-24' });
    // the pickers' ends are accepted, one day beyond each is the rule's refusal
    expect(freezeDatesRefusal({ from: '2026-11-25', until: b.untilMax }, '2026-11-20', until)).toBe(null);
    expect(freezeDatesRefusal({ from: '2026-11-25', until: '2026-12-25' }, '2026-11-20', until)).toBe('freezeTooLong');
    expect(freezeDatesRefusal({ from: b.fromMax!, until: b.fromMax! }, '2026-11-20', until)).toBe(null);
    expect(freezeDatesRefusal({ from: '2026-12-02', until: '2026-12-02' }, '2026-11-20', until)).toBe('freezeAfterValidity');
    // a first day before today bounds the last day from today; an endless card bounds no first day
    expect(freezeDateBounds('2026-11-10', '2026-11-20', null)).toEqual({
      fromMin: '2026-11-20',
      fromMax: undefined,
      untilMin: '2026-11-20',
      untilMax: '2026-12-19',
    });
  });

  it('gives back the days from the unfreeze day on, all of a planned freeze, none after it', () => {
    const f = { from: '2026-11-20', until: '2026-11-24' };
    expect(unusedFreezeDays(f, '2026-11-19')).toBe(5);
    expect(unusedFreezeDays(f, '2026-11-20')).toBe(5);
    expect(unusedFreezeDays(f, '2026-11-22')).toBe(3);
    expect(unusedFreezeDays(f, '2026-11-24')).toBe(1);
    expect(unusedFreezeDays(f, '2026-11-25')).toBe(0);
  });

  it('moves the end by whole days, and ends a freeze at Shanghai midnight after its last day', () => {
    expect(shiftValidity(sh('2026-12-01 10:00'), 3)).toEqual(sh('2026-12-04 10:00'));
    expect(shiftValidity(sh('2026-12-01 10:00'), -2)).toEqual(sh('2026-11-29 10:00'));
    expect(shiftValidity(null, 3)).toBe(null);
    expect(freezeEndsAt('2026-11-24')).toEqual(sh('2026-11-25 00:00'));
  });

  it('a class on a frozen (or planned) day cannot book; the days around it can', () => {
    const card = { frozenFrom: '2026-11-21', frozenUntil: '2026-11-22' };
    expect(inFreeze(card, sh('2026-11-20 23:59'))).toBe(false);
    expect(inFreeze(card, sh('2026-11-21 00:00'))).toBe(true);
    expect(inFreeze(card, sh('2026-11-22 23:00'))).toBe(true);
    expect(inFreeze(card, sh('2026-11-23 00:00'))).toBe(false);
    expect(inFreeze({ frozenFrom: null, frozenUntil: null }, sh('2026-11-21 10:00'))).toBe(false);
  });
});

describe('extension rules (spec §5, decision 024)', () => {
  const rule = { maxExtensions: 2, maxExtensionDays: 30 };
  const card = { extensionCount: 0, validUntil: sh('2026-12-01 10:00') };

  it('reads the last valid day of an end at midnight as the day before', () => {
    expect(lastValidDay(sh('2026-12-01 10:00'))).toBe('2026-12-01');
    expect(lastValidDay(sh('2026-12-02 00:00'))).toBe('2026-12-01');
    expect(extendedValidUntil('2026-12-01')).toEqual(sh('2026-12-02 00:00'));
  });

  it('offers in the date picker exactly the days the extension rule accepts', () => {
    const b = extensionDateBounds(card, rule, '2026-11-20')!;
    expect(b).toEqual({ min: '2026-12-02', max: '2026-12-31' });
    expect(extensionRefusal(card, rule, b.min, '2026-11-20')).toBe(null);
    expect(extensionRefusal(card, rule, b.max, '2026-11-20')).toBe(null);
    expect(extensionRefusal(card, rule, '2027-01-01', '2026-11-20')).toBe('extensionTooLong');
    // an expired card is extended from today at the earliest
    expect(extensionDateBounds(card, rule, '2026-12-10')).toEqual({ min: '2026-12-10', max: '2026-12-31' });
    expect(extensionDateBounds(card, { maxExtensions: 0, maxExtensionDays: 0 }, '2026-11-20')).toBe(null);
    expect(extensionDateBounds({ validUntil: null }, rule, '2026-11-20')).toBe(null);
  });

  it('allows a later day within the type’s days and count', () => {
    expect(extensionRefusal(card, rule, '2026-12-02', '2026-11-20')).toBe(null);
    expect(extensionRefusal(card, rule, '2026-12-31', '2026-11-20')).toBe(null);
    expect(extensionRefusal(card, rule, '2027-01-01', '2026-11-20')).toBe('extensionTooLong');
    expect(extensionRefusal(card, rule, '2026-12-01', '2026-11-20')).toBe('extensionNotLater');
    expect(extensionRefusal({ ...card, extensionCount: 1 }, rule, '2026-12-02', '2026-11-20')).toBe(null);
    expect(extensionRefusal({ ...card, extensionCount: 2 }, rule, '2026-12-02', '2026-11-20')).toBe('extensionLimitReached');
  });

  it('refuses a type never extended, a card with no end, an end before today', () => {
    expect(extensionRefusal(card, null, '2026-12-02', '2026-11-20')).toBe('extensionNotAllowed');
    expect(extensionRefusal(card, { maxExtensions: 0, maxExtensionDays: 30 }, '2026-12-02', '2026-11-20')).toBe('extensionNotAllowed');
    expect(extensionRefusal({ ...card, validUntil: null }, rule, '2026-12-02', '2026-11-20')).toBe('extensionNotAllowed');
    expect(extensionRefusal(card, rule, '2026-12-05', '2026-12-06')).toBe('extensionInPast');
  });
});
