import { describe, expect, it } from 'vitest';
import { CARD_STATUSES } from '../../../src/domain/booking-rules';
import { CARD_STATUS_LABELS } from '../../../src/app/screens/cards/card-labels';
import { cardActions, cardFrequency, cardValidity } from '../../../src/app/screens/cards/card-view-rules';
import { cardTypeParam, vipcardPath, vipcardTab } from '../../../src/app/screens/cards/vipcard-rules';

describe('card status a member sees (spec §4 card status, by the card chart)', () => {
  it('every status of the chart has a label', () => {
    for (const s of CARD_STATUSES) expect(CARD_STATUS_LABELS[s], s).toBeTruthy();
  });
});

describe('card facts (spec §3 frequency, validity start and end)', () => {
  it('a count card shows uses left of the total; a time-based card is unlimited', () => {
    expect(cardFrequency({ usesTotal: 10, usesLeft: 4 })).toEqual({ kind: 'count', left: 4, total: 10 });
    expect(cardFrequency({ usesTotal: null, usesLeft: null })).toEqual({ kind: 'unlimited' });
  });

  it('an inactive card runs its validity days from the first booking; an activated one shows its dates', () => {
    expect(cardValidity({ status: 'inactive', validFrom: null, validUntil: null, validityDays: 180 })).toEqual({
      kind: 'from-first-booking',
      days: 180,
    });
    expect(
      cardValidity({ status: 'in_use', validFrom: '2026-01-01T00:00:00Z', validUntil: '2026-07-01T00:00:00Z', validityDays: 180 }),
    ).toEqual({
      kind: 'dates',
      from: '2026-01-01T00:00:00Z',
      until: '2026-07-01T00:00:00Z',
    });
  });
});

describe('card actions (the server offers, a screen exists)', () => {
  it('an inactive card the server offers activation for: activation by booking a class (spec §4 first booking activates)', () => {
    expect(cardActions({ id: 7, status: 'inactive', operations: ['activate', 'freeze'] })).toEqual([
      { op: 'activate', to: '/takecourse/bookcourse' },
    ]);
  });

  it('an inactive card with an application waiting: the server offers no activation, nor does the page', () => {
    expect(cardActions({ id: 7, status: 'inactive', operations: [] })).toEqual([]);
  });

  it('a card in use or frozen links to no other page (freeze and extension are on the card page)', () => {
    expect(cardActions({ id: 7, status: 'in_use', operations: ['freeze', 'extend'] })).toEqual([]);
    expect(cardActions({ id: 7, status: 'frozen', operations: ['unfreeze'] })).toEqual([]);
  });

  it('an expired, invalid or transferred card offers buying a new one', () => {
    for (const status of ['expired', 'invalid', 'transferred'] as const) {
      expect(cardActions({ id: 7, status, operations: [] }), status).toEqual([{ op: 'buy-again', to: '/vipcard?tab=shop' }]);
    }
  });
});

describe('/vipcard opens on (spec §6 members with no valid card are pushed to buy one)', () => {
  it('the tab asked for wins', () => {
    expect(vipcardTab('shop', true, ['in_use'])).toBe('shop');
    expect(vipcardTab('mine', false, [])).toBe('mine');
  });

  it('a member with a usable card sees their cards; without one, the products; a visitor, the products', () => {
    expect(vipcardTab(null, true, ['expired', 'in_use'])).toBe('mine');
    expect(vipcardTab(null, true, ['inactive'])).toBe('mine');
    expect(vipcardTab(null, true, ['expired', 'frozen'])).toBe('shop');
    expect(vipcardTab(null, true, [])).toBe('shop');
    expect(vipcardTab('bogus', false, [])).toBe('shop');
  });

  it('the type filter takes the card-type dictionary values only', () => {
    expect(cardTypeParam('count')).toBe('count');
    expect(cardTypeParam('time-based')).toBe('time-based');
    expect(cardTypeParam('nope')).toBeUndefined();
    expect(cardTypeParam(null)).toBeUndefined();
    expect(vipcardPath('shop', 'count')).toBe('/vipcard?tab=shop&type=count');
    expect(vipcardPath('mine')).toBe('/vipcard?tab=mine');
  });
});
