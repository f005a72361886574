import { describe, expect, it } from 'vitest';
import { lastValidDay, addDays, shanghaiDate, shanghaiMidnight } from '../../../src/domain/time';
import { CARD_TYPE_RULES } from '../../../src/server/db/seed/card-rules';
import { cardRow, DAY, newCard, newMember } from '../booking/support';
import { startTestServer } from '../support/harness';

/**
 * Extending a card (spec §4, §5; decision 024) through the API: only in use or expired, to a day
 * later than its end, free, within its card type's count and days (card_type_rules, seeded); an
 * expired card is in use again; the extension count goes up and shows on the card.
 */
const s = await startTestServer({ seed: true });
const today = () => shanghaiDate(s.clock.now());
const extend = (token: string, id: number, until: string) => s.call('POST', '/api/customers/cards/extend', { token, body: { id, until } });
const refusal = (r: { status: number; body: { code: number } }) => [r.status, r.body.code];
const endOf = (card: { validUntil: Date | null }) => lastValidDay(card.validUntil!);

describe('extending a card', () => {
  it('in use: its end becomes the end of the day asked for, the count goes up and shows', async () => {
    const m = await newMember(s);
    const card = await newCard(s, m.id);
    const until = addDays(endOf(card), 10);
    const r = await extend(m.token, card.id, until);
    expect(r.body.data).toMatchObject({
      status: 'in_use',
      extensionCount: 1,
      validUntil: shanghaiMidnight(addDays(until, 1)).toISOString(),
    });
    const row = await cardRow(s, card.id);
    expect([row.extensionCount, lastValidDay(row.validUntil!)]).toEqual([1, until]);
  });

  it('expired: in use again', async () => {
    const m = await newMember(s);
    const card = await newCard(s, m.id, { status: 'expired', validUntil: new Date(s.clock.now().getTime() - 2 * DAY) });
    const r = await extend(m.token, card.id, addDays(today(), 5));
    expect(r.body.data).toMatchObject({ status: 'in_use', extensionCount: 1 });
  });

  it("within its type's count: a count card twice (seeded), then 30021", async () => {
    expect(CARD_TYPE_RULES.count.maxExtensions).toBe(2);
    const m = await newMember(s);
    const card = await newCard(s, m.id);
    expect((await extend(m.token, card.id, addDays(endOf(card), 1))).body.code).toBe(200);
    expect((await extend(m.token, card.id, addDays(endOf(card), 2))).body.code).toBe(200);
    const r = await extend(m.token, card.id, addDays(endOf(card), 3));
    expect(refusal(r)).toEqual([409, 30021]);
    expect((await cardRow(s, card.id)).extensionCount).toBe(2);
    const d = (await s.call('GET', `/api/customers/cards/detail?id=${card.id}`, { token: m.token })).body.data;
    expect(d.operations).toEqual(['freeze', 'transfer', 'changeAdviser']);
    expect(d.offers.find((o: { operation: string }) => o.operation === 'extend')).toEqual({
      operation: 'extend',
      allowed: false,
      code: 30021,
      message: '这张会员卡的延期次数已用完',
    });
  });

  it("refuses a type that is never extended (30020), a day not later than the end (30022), beyond the type's days (30023), an end before today (30024)", async () => {
    const m = await newMember(s);
    const gift = await newCard(s, m.id, { cardType: 'gift' });
    expect(refusal(await extend(m.token, gift.id, addDays(endOf(gift), 1)))).toEqual([409, 30020]);
    const card = await newCard(s, m.id);
    expect(refusal(await extend(m.token, card.id, endOf(card)))).toEqual([400, 30022]);
    expect(refusal(await extend(m.token, card.id, addDays(endOf(card), CARD_TYPE_RULES.count.maxExtensionDays + 1)))).toEqual([400, 30023]);
    expect((await extend(m.token, card.id, addDays(endOf(card), CARD_TYPE_RULES.count.maxExtensionDays))).body.code).toBe(200);
    const old = await newCard(s, m.id, { status: 'expired', validUntil: new Date(s.clock.now().getTime() - 20 * DAY) });
    expect(refusal(await extend(m.token, old.id, addDays(endOf(old), 5)))).toEqual([400, 30024]);
    expect((await cardRow(s, old.id)).status).toBe('expired');
  });

  it('refuses a card not in use or expired with its status code, another member’s card with 404', async () => {
    const m = await newMember(s);
    const codes = { inactive: 30010, frozen: 30014, invalid: 30011, transferred: 30013 } as const;
    for (const [status, code] of Object.entries(codes)) {
      const card = await newCard(s, m.id, { status: status as keyof typeof codes });
      expect(refusal(await extend(m.token, card.id, addDays(endOf(card), 1))), status).toEqual([409, code]);
    }
    const other = await newMember(s);
    const theirs = await newCard(s, other.id);
    expect((await extend(m.token, theirs.id, addDays(endOf(theirs), 1))).status).toBe(404);
    expect((await cardRow(s, theirs.id)).extensionCount).toBe(0);
  });

  it('a card in use past its end is expired first (decision 018), then extended back into use', async () => {
    const m = await newMember(s);
    const card = await newCard(s, m.id, { validUntil: new Date(s.clock.now().getTime() + DAY) });
    s.clock.advance(2 * DAY);
    const r = await extend(m.token, card.id, addDays(today(), 3));
    expect(r.body.data).toMatchObject({ status: 'in_use', extensionCount: 1 });
  });
});
