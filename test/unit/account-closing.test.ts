import { describe, expect, it } from 'vitest';
import { closedPhone, closingBlockers, type ClosingFacts } from '../../src/domain/account-closing';
import { isValidPhone as validPhone } from '../../src/domain/validation';

/** Decision 057: what keeps an account from being closed, in the order the member is told. */
const none: ClosingFacts = { liveCards: 0, liveCourses: 0, openOrders: 0, balanceCents: 0, liveBookings: 0, openApplications: 0 };

describe('closingBlockers', () => {
  it('holds nothing: may be closed', () => expect(closingBlockers(none)).toEqual([]));
  it('a live card or a course with uses left blocks it (10030)', () => {
    expect(closingBlockers({ ...none, liveCards: 1 })).toEqual(['closingLiveCard']);
    expect(closingBlockers({ ...none, liveCourses: 2 })).toEqual(['closingLiveCard']);
  });
  it('an order with money moving (10031), a balance of one cent (10032), a booking (10033), an open application (10034)', () => {
    expect(closingBlockers({ ...none, openOrders: 1 })).toEqual(['closingOpenOrder']);
    expect(closingBlockers({ ...none, balanceCents: 1 })).toEqual(['closingBalance']);
    expect(closingBlockers({ ...none, liveBookings: 1 })).toEqual(['closingLiveBooking']);
    expect(closingBlockers({ ...none, openApplications: 1 })).toEqual(['closingOpenApplication']);
  });
  it('a balance of zero does not block it', () => expect(closingBlockers({ ...none, balanceCents: 0 })).toEqual([]));
  it('money first: every blocker in order', () =>
    expect(closingBlockers({ liveCards: 1, liveCourses: 0, openOrders: 1, balanceCents: 5, liveBookings: 1, openApplications: 1 })).toEqual(
      ['closingLiveCard', 'closingOpenOrder', 'closingBalance', 'closingLiveBooking', 'closingOpenApplication'],
    ));
});

describe('closedPhone', () => {
  it('is unique per account and never a mobile number', () => {
    expect(closedPhone(42)).toBe('closed-42');
    expect(closedPhone(42)).not.toBe(closedPhone(43));
    expect(validPhone(closedPhone(42))).toBe(false);
  });
});
