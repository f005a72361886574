import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { notifications } from '../../../src/server/db/schema/index';
import { book, cardRow, DAY, newCard, newClass, newMember } from '../booking/support';
import { startTestServer } from '../support/harness';
import { askRefund, boughtCard, quote } from './refund-support';
import { applyFor, phoneOf } from './transfer-support';

/**
 * Gift cards (decision 040) through the API: an unused gift card (or a trial card bought
 * for a friend) is given to another member by phone and arrives as a gifted card in one transaction;
 * the giver is afterwards "not owner" (30002); an experience card cannot be used by its buyer
 * (20031), but can by the friend it was given to. Also: a family main card is not refunded while
 * shared (30059).
 */
const s = await startTestServer({ seed: true });
const refusal = (r: { status: number; body: { code: number; field?: string } }) => [r.status, r.body.code, r.body.field];
const gift = (token: string, id: number, phone: string, headers: Record<string, string> = {}) =>
  s.call('POST', '/api/customers/cards/gift', { token, body: { id, phone }, headers });
const giftCard = (accountId: number, over: Parameters<typeof newCard>[2] = {}) =>
  newCard(s, accountId, {
    cardType: 'gift',
    name: '礼品卡',
    nameEn: 'Gift card',
    status: 'inactive',
    validFrom: null,
    validUntil: null,
    usesTotal: 8,
    usesLeft: 8,
    validityDays: 365,
    ...over,
  });
const detail = (token: string, id: number) => s.call('GET', `/api/customers/cards/detail?id=${id}`, { token });
const offer = (d: { offers: Array<{ operation: string }> }, op: string) => d.offers.find((o) => o.operation === op);
const soon = () => newClass(s, { startsAt: new Date(s.clock.now().getTime() + DAY) });

describe('giving a gift card', () => {
  it('moves the card to the recipient as a gifted card in one step: theirs, told, timeline starting with the gift; the giver no longer lists it', async () => {
    const giver = await newMember(s);
    const friend = await newMember(s);
    const card = await giftCard(giver.id);
    expect(offer((await detail(giver.token, card.id)).body.data, 'gift')).toEqual({
      operation: 'gift',
      allowed: true,
      code: null,
      message: null,
    });
    const r = await gift(giver.token, card.id, await phoneOf(s, friend.id));
    expect(r.body.data).toMatchObject({ cardId: card.id, giftedAt: s.clock.now().toISOString() });
    const row = await cardRow(s, card.id);
    expect([row.accountId, row.cardType, row.giftedFromAccountId, row.status, row.usesLeft]).toEqual([
      friend.id,
      'gifted',
      giver.id,
      'inactive',
      8,
    ]);
    const theirs = (await s.call('GET', '/api/customers/cards', { token: friend.token })).body.data;
    expect(theirs.map((c: { id: number }) => c.id)).toContain(card.id);
    const mine = (await s.call('GET', '/api/customers/cards', { token: giver.token })).body.data;
    expect(mine.map((c: { id: number }) => c.id)).not.toContain(card.id);
    const [told] = await s.deps.db.select().from(notifications).where(eq(notifications.accountId, friend.id));
    expect(told?.title).toBe('您收到一张会员卡');
    const items = (await s.call('GET', `/api/customers/cards/history?id=${card.id}`, { token: friend.token })).body.data.list;
    expect(items).toEqual([{ kind: 'gifted', at: s.clock.now().toISOString() }]);
    // the recipient books with it: it starts
    expect((await book(s, friend.token, (await soon()).id, card.id)).body.data).toMatchObject({
      state: 'booked',
      activated: true,
      usesLeft: 7,
    });
  });

  it('the giver afterwards is 30002 not owner: gift again, freeze, transfer, refund, adviser, detail; the card stays the recipient’s', async () => {
    const giver = await newMember(s);
    const friend = await newMember(s);
    const third = await newMember(s);
    const card = await giftCard(giver.id);
    await gift(giver.token, card.id, await phoneOf(s, friend.id));
    const calls = [
      gift(giver.token, card.id, await phoneOf(s, third.id)),
      s.call('POST', '/api/customers/cards/extend', { token: giver.token, body: { id: card.id, until: '2027-12-31' } }),
      applyFor(s, giver.token, card.id, await phoneOf(s, third.id)),
      quote(s, giver.token, card.id),
      askRefund(s, giver.token, card.id),
      s.call('POST', '/api/customers/cards/adviser', { token: giver.token, body: { id: card.id, clubId: 1, adviserId: 1 } }),
    ];
    for (const r of await Promise.all(calls)) expect([r.status, r.body.code]).toEqual([403, 30002]);
    expect((await detail(giver.token, card.id)).status).toBe(404);
    expect(refusal(await book(s, giver.token, (await soon()).id, card.id))).toEqual([404, 70004, 'cardId']);
    expect((await cardRow(s, card.id)).accountId).toBe(friend.id);
  });

  it('once: a gifted card is not given again (30056); the type decides (a count card 30056, no gift offer)', async () => {
    const giver = await newMember(s);
    const friend = await newMember(s);
    const third = await newMember(s);
    const card = await giftCard(giver.id);
    await gift(giver.token, card.id, await phoneOf(s, friend.id));
    expect(refusal(await gift(friend.token, card.id, await phoneOf(s, third.id)))).toEqual([409, 30056, undefined]);
    expect(offer((await detail(friend.token, card.id)).body.data, 'gift')).toMatchObject({ allowed: false, code: 30056 });
    const count = await newCard(s, giver.id);
    expect(refusal(await gift(giver.token, count.id, await phoneOf(s, third.id)))).toEqual([409, 30056, undefined]);
    expect(offer((await detail(giver.token, count.id)).body.data, 'gift')).toBeUndefined();
    expect((await cardRow(s, count.id)).accountId).toBe(giver.id);
  });

  it('a used card is 30058, an ended one its status, an unfinished application 30004; no such member 30036, myself 30057 (naming phone), an empty phone 70003', async () => {
    const giver = await newMember(s);
    const friend = await newMember(s);
    const phone = await phoneOf(s, friend.id);
    expect(refusal(await gift(giver.token, (await giftCard(giver.id, { status: 'in_use' })).id, phone))).toEqual([409, 30058, undefined]);
    expect(refusal(await gift(giver.token, (await giftCard(giver.id, { status: 'invalid' })).id, phone))).toEqual([409, 30011, undefined]);
    const card = await giftCard(giver.id);
    expect(refusal(await gift(giver.token, card.id, '13999999999'))).toEqual([404, 30036, 'phone']);
    expect(refusal(await gift(giver.token, card.id, await phoneOf(s, giver.id)))).toEqual([409, 30057, 'phone']);
    expect(refusal(await gift(giver.token, card.id, ' '))).toEqual([400, 70003, 'phone']);
    const en = await s.call('POST', '/api/customers/cards/gift', {
      token: giver.token,
      body: { id: card.id, phone: await phoneOf(s, giver.id) },
      headers: { 'accept-language': 'en' },
    });
    expect(en.body.message).toBe('You cannot give a card to yourself');
    expect((await applyFor(s, giver.token, card.id, phone)).body.code).toBe(200);
    expect(refusal(await gift(giver.token, card.id, phone))).toEqual([409, 30004, undefined]);
    expect((await cardRow(s, card.id)).accountId).toBe(giver.id);
  });

  it('a retry under the same Idempotency-Key gives once', async () => {
    const giver = await newMember(s);
    const friend = await newMember(s);
    const card = await giftCard(giver.id);
    const headers = { 'idempotency-key': `gift-card-${card.id}-once` };
    const first = await gift(giver.token, card.id, await phoneOf(s, friend.id), headers);
    const again = await gift(giver.token, card.id, await phoneOf(s, friend.id), headers);
    expect(again.body).toEqual(first.body);
    expect(first.body.code).toBe(200);
  });
});

describe('an experience card (for a friend)', () => {
  it('its buyer cannot use it (20031); given to a friend, the friend books with it', async () => {
    const buyer = await newMember(s);
    const friend = await newMember(s);
    const card = await giftCard(buyer.id, {
      cardType: 'gifted',
      experience: true,
      buyerAccountId: buyer.id,
      usesTotal: 2,
      usesLeft: 2,
      validityDays: 30,
    });
    const cls = await soon();
    expect(refusal(await book(s, buyer.token, cls.id, card.id))[1]).toBe(20031);
    expect((await gift(buyer.token, card.id, await phoneOf(s, friend.id))).body.code).toBe(200);
    expect((await book(s, friend.token, cls.id, card.id)).body.data).toMatchObject({ state: 'booked', usesLeft: 1 });
    expect((await cardRow(s, card.id)).buyerAccountId).toBe(buyer.id);
  });
});

describe('a shared family main card', () => {
  it('is not refunded while shared (30059); once nobody shares it, the quote is given', async () => {
    const { m, card } = await boughtCard(s, 'balance', { cardType: 'family-main' });
    const sub = await newMember(s);
    const added = await s.call('POST', '/api/customers/cards/family/add', {
      token: m.token,
      body: { id: card.id, phone: await phoneOf(s, sub.id) },
    });
    expect(refusal(await quote(s, m.token, card.id))).toEqual([409, 30059, undefined]);
    expect(refusal(await askRefund(s, m.token, card.id))).toEqual([409, 30059, undefined]);
    await s.call('POST', '/api/customers/cards/family/remove', {
      token: m.token,
      body: { id: card.id, subId: added.body.data.members[0].id },
    });
    expect((await quote(s, m.token, card.id)).body.code).toBe(200);
  });
});

describe('not yours, bad input', () => {
  it('a card the caller never held is absent (404 naming id) and stays with its holder; a malformed phone or id names its field', async () => {
    const holder = await newMember(s);
    const stranger = await newMember(s);
    const friend = await newMember(s);
    const card = await giftCard(holder.id);
    expect(refusal(await gift(stranger.token, card.id, await phoneOf(s, friend.id)))).toEqual([404, 70004, 'id']);
    const bad = [
      [await gift(holder.token, card.id, '12ab'), 'phone'],
      [
        await s.call('POST', '/api/customers/cards/gift', { token: holder.token, body: { id: 'x', phone: await phoneOf(s, friend.id) } }),
        'id',
      ],
    ] as const;
    for (const [r, field] of bad) {
      expect(r.status).toBe(400);
      expect(r.body.field).toBe(field);
    }
    expect((await cardRow(s, card.id)).accountId).toBe(holder.id);
  });
});
