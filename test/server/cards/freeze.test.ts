import { describe, expect, it } from 'vitest';
import { MAX_FREEZE_DAYS } from '../../../src/domain/card-rules';
import { addDays, shanghaiDate, shanghaiMidnight } from '../../../src/domain/time';
import { passTime } from '../../../src/server/jobs/time-passing';
import { book, cardRow, DAY, newCard, newClass, newMember, sh } from '../booking/support';
import { startTestServer } from '../support/harness';

/**
 * Freezing and unfreezing a card (spec §4, §5, §8 cards; decision 024) through the API, on the
 * real server: the dates' rules, the refusals with their codes, the validity end moved by the days
 * asked for (and the days not frozen taken back), a frozen or planned day that cannot book, and
 * the time-passing job that starts a planned freeze and ends one after its last day.
 */
const s = await startTestServer({ seed: true });
const today = () => shanghaiDate(s.clock.now());
const freeze = (token: string, id: number, from: string, until: string, headers: Record<string, string> = {}) =>
  s.call('POST', '/api/customers/cards/freeze', { token, body: { id, from, until }, headers });
const unfreeze = (token: string, id: number) => s.call('POST', '/api/customers/cards/unfreeze', { token, body: { id } });
const detail = async (token: string, id: number) => (await s.call('GET', `/api/customers/cards/detail?id=${id}`, { token })).body.data;
const refusal = (r: { status: number; body: { code: number } }) => [r.status, r.body.code];

describe('freezing a card', () => {
  it('from today: frozen now, its end later by the days asked for (both counted), the dates shown, unfreezing offered', async () => {
    const m = await newMember(s);
    const card = await newCard(s, m.id);
    const r = await freeze(m.token, card.id, today(), addDays(today(), 4));
    expect(r.body.code).toBe(200);
    expect(r.body.data).toMatchObject({
      status: 'frozen',
      frozenFrom: today(),
      frozenUntil: addDays(today(), 4),
      operations: ['unfreeze', 'changeAdviser'],
    });
    const row = await cardRow(s, card.id);
    expect(row.status).toBe('frozen');
    expect(row.validUntil!.getTime()).toBe(card.validUntil!.getTime() + 5 * DAY);
    expect(r.body.data.offers).toEqual([
      { operation: 'freeze', allowed: false, code: 30003, message: '会员卡当前状态不能冻结' },
      { operation: 'unfreeze', allowed: true, code: null, message: null },
      { operation: 'extend', allowed: false, code: 30014, message: '会员卡已冻结' },
      { operation: 'transfer', allowed: false, code: 30014, message: '会员卡已冻结' },
      // a card not bought in an order (granted here) is not refunded (decision 030)
      { operation: 'refund', allowed: false, code: 30041, message: '这张会员卡不是您购买的，不能退款' },
      // a frozen card's adviser may still change (decision 034)
      { operation: 'changeAdviser', allowed: true, code: null, message: null },
    ]);
  });

  it('a frozen card cannot book (20003)', async () => {
    const m = await newMember(s);
    const card = await newCard(s, m.id);
    await freeze(m.token, card.id, today(), addDays(today(), 2));
    const cls = await newClass(s);
    expect(refusal(await book(s, m.token, cls.id, card.id))).toEqual([400, 20003]);
  });

  it('from a later day: planned (still in use), books no class on its days but does outside them, and the job starts it on its first day', async () => {
    const m = await newMember(s);
    const card = await newCard(s, m.id);
    const from = addDays(today(), 2);
    const r = await freeze(m.token, card.id, from, addDays(from, 2));
    expect(r.body.data).toMatchObject({ status: 'in_use', frozenFrom: from, operations: ['unfreeze', 'extend', 'changeAdviser'] });
    expect(r.body.data.offers[0]).toMatchObject({ operation: 'freeze', allowed: false, code: 30016 });
    expect((await cardRow(s, card.id)).validUntil!.getTime()).toBe(card.validUntil!.getTime() + 3 * DAY);
    const inFreeze = await newClass(s, { startsAt: new Date(shanghaiMidnight(from).getTime() + 19 * 3600_000) });
    expect(refusal(await book(s, m.token, inFreeze.id, card.id))).toEqual([400, 20003]);
    const before = await newClass(s, { startsAt: sh(`${addDays(today(), 1)} 19:00`) });
    expect((await book(s, m.token, before.id, card.id)).body.code).toBe(200);
    // a second freeze while one is planned
    expect(refusal(await freeze(m.token, card.id, addDays(from, 5), addDays(from, 6)))).toEqual([409, 30016]);
    // the day before it: nothing yet; on its first day: frozen
    await passTime(s.deps.db, new Date(shanghaiMidnight(from).getTime() - 1));
    expect((await cardRow(s, card.id)).status).toBe('in_use');
    await passTime(s.deps.db, shanghaiMidnight(from));
    expect((await cardRow(s, card.id)).status).toBe('frozen');
    // after its last day the job unfreezes it, clears its dates, and takes nothing back
    await passTime(s.deps.db, new Date(shanghaiMidnight(addDays(from, 3)).getTime() - 1));
    expect((await cardRow(s, card.id)).status).toBe('frozen');
    await passTime(s.deps.db, shanghaiMidnight(addDays(from, 3)));
    const row = await cardRow(s, card.id);
    expect([row.status, row.frozenFrom, row.frozenUntil]).toEqual(['in_use', null, null]);
    expect(row.validUntil!.getTime()).toBe(card.validUntil!.getTime() + 3 * DAY);
  });

  it('refuses dates the spec refuses, naming the field: a start before today, an end before the start, too long, after the validity, not a date', async () => {
    const m = await newMember(s);
    const card = await newCard(s, m.id, { validUntil: new Date(s.clock.now().getTime() + 10 * DAY) });
    const cases: [string, string, number, string][] = [
      [addDays(today(), -1), today(), 30007, 'from'],
      [addDays(today(), 3), addDays(today(), 2), 30006, 'until'],
      [today(), addDays(today(), MAX_FREEZE_DAYS), 30008, 'until'],
      [addDays(today(), 11), addDays(today(), 12), 30009, 'from'],
      ['2026-02-30', '2026-03-01', 70003, 'from'],
    ];
    for (const [from, until, code, field] of cases) {
      const r = await freeze(m.token, card.id, from, until);
      expect([r.status, r.body.code, r.body.field], `${from}..${until}`).toEqual([400, code, field]);
    }
    // the longest freeze is fine
    expect((await freeze(m.token, card.id, today(), addDays(today(), MAX_FREEZE_DAYS - 1))).body.code).toBe(200);
    expect((await cardRow(s, card.id)).status).toBe('frozen');
  });

  it('refuses a card with a class booked or going on during the freeze (30005), and changes nothing', async () => {
    const m = await newMember(s);
    const card = await newCard(s, m.id);
    const cls = await newClass(s, { startsAt: sh(`${addDays(today(), 3)} 19:00`) });
    expect((await book(s, m.token, cls.id, card.id)).body.code).toBe(200);
    expect(refusal(await freeze(m.token, card.id, addDays(today(), 3), addDays(today(), 4)))).toEqual([409, 30005]);
    const row = await cardRow(s, card.id);
    expect([row.status, row.frozenFrom, row.validUntil]).toEqual(['in_use', null, card.validUntil]);
    // the days after it are free
    expect((await freeze(m.token, card.id, addDays(today(), 4), addDays(today(), 5))).body.code).toBe(200);
  });

  it('refuses a card whose status forbids freezing (30003), and another member’s card as if it did not exist (404)', async () => {
    const m = await newMember(s);
    for (const status of ['inactive', 'expired', 'frozen', 'invalid', 'transferred'] as const) {
      const card = await newCard(s, m.id, { status });
      expect(refusal(await freeze(m.token, card.id, today(), today())), status).toEqual([409, 30003]);
    }
    const other = await newMember(s);
    const theirs = await newCard(s, other.id);
    const r = await freeze(m.token, theirs.id, today(), today());
    expect([r.status, r.body.code]).toEqual([404, 70004]);
    expect((await unfreeze(m.token, theirs.id)).status).toBe(404);
    expect((await cardRow(s, theirs.id)).status).toBe('in_use');
  });

  it('replays a retry under the same Idempotency-Key (frozen once)', async () => {
    const m = await newMember(s);
    const card = await newCard(s, m.id);
    const headers = { 'Idempotency-Key': 'freeze-key-0001' };
    const a = await freeze(m.token, card.id, today(), addDays(today(), 1), headers);
    const b = await freeze(m.token, card.id, today(), addDays(today(), 1), headers);
    expect([a.body.code, b.body.code, b.headers.get('Idempotent-Replayed')]).toEqual([200, 200, 'true']);
    expect((await cardRow(s, card.id)).validUntil!.getTime()).toBe(card.validUntil!.getTime() + 2 * DAY);
  });
});

describe('unfreezing a card', () => {
  it('early: in use again, the days from today on taken back from its end', async () => {
    const m = await newMember(s);
    const card = await newCard(s, m.id);
    await freeze(m.token, card.id, today(), addDays(today(), 4));
    s.clock.advance(2 * DAY);
    const r = await unfreeze(m.token, card.id);
    expect(r.body.data).toMatchObject({ status: 'in_use', frozenFrom: null, frozenUntil: null });
    // frozen two days (the first two); the other three are taken back
    expect((await cardRow(s, card.id)).validUntil!.getTime()).toBe(card.validUntil!.getTime() + 2 * DAY);
    expect(r.body.data.offers.map((o: { operation: string }) => o.operation)).toEqual([
      'freeze',
      'extend',
      'transfer',
      'refund',
      'changeAdviser',
    ]);
  });

  it('a planned freeze called off: all its days taken back', async () => {
    const m = await newMember(s);
    const card = await newCard(s, m.id);
    await freeze(m.token, card.id, addDays(today(), 1), addDays(today(), 3));
    expect((await unfreeze(m.token, card.id)).body.data).toMatchObject({ status: 'in_use', frozenFrom: null });
    expect((await cardRow(s, card.id)).validUntil!.getTime()).toBe(card.validUntil!.getTime());
  });

  it('refuses a card not frozen (30017) or in another status (its code)', async () => {
    const m = await newMember(s);
    expect(refusal(await unfreeze(m.token, (await newCard(s, m.id)).id))).toEqual([409, 30017]);
    expect(refusal(await unfreeze(m.token, (await newCard(s, m.id, { status: 'expired' })).id))).toEqual([409, 30012]);
    expect(refusal(await unfreeze(m.token, (await newCard(s, m.id, { status: 'inactive' })).id))).toEqual([409, 30010]);
  });

  it('a card whose freeze ended while nobody looked is brought up to date first (decision 018): unfreezing then is refused', async () => {
    const m = await newMember(s);
    const card = await newCard(s, m.id);
    await freeze(m.token, card.id, today(), today());
    s.clock.advance(2 * DAY);
    expect(refusal(await unfreeze(m.token, card.id))).toEqual([409, 30017]);
    expect((await cardRow(s, card.id)).validUntil!.getTime()).toBe(card.validUntil!.getTime() + DAY);
    expect((await detail(m.token, card.id)).status).toBe('in_use');
  });
});
