import { and, asc, eq, inArray } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { accounts, cardFamilyMembers, notifications, personInfo } from '../../../src/server/db/schema/index';
import { book, cardRow, DAY, newCard, newClass, newMember } from '../booking/support';
import { startTestServer } from '../support/harness';
import { applyFor, phoneOf } from './transfer-support';

/**
 * Family sub cards (decision 040) through the API: the holder of a family main card (its
 * type's data: card_type_rules.family_slots) adds and removes sub-card holders by phone; a sub-card
 * holder books with the main card, spending its uses under the same lock; the main card is not
 * transferred (30034) nor refunded (30059) while shared; a sub-card holder acting on the main card is
 * "not owner" (30002); another member's card answers as absent.
 */
const s = await startTestServer({ seed: true });
const refusal = (r: { status: number; body: { code: number; field?: string } }) => [r.status, r.body.code, r.body.field];
const add = (token: string, id: number, phone: string, headers: Record<string, string> = {}) =>
  s.call('POST', '/api/customers/cards/family/add', { token, body: { id, phone }, headers });
const remove = (token: string, id: number, subId: number) =>
  s.call('POST', '/api/customers/cards/family/remove', { token, body: { id, subId } });
const family = (token: string, id: number) => s.call('GET', `/api/customers/cards/family?id=${id}`, { token });
const subsOf = (cardId: number) =>
  s.deps.db.select().from(cardFamilyMembers).where(eq(cardFamilyMembers.cardId, cardId)).orderBy(asc(cardFamilyMembers.id));
const mainCard = (accountId: number, over: Parameters<typeof newCard>[2] = {}) =>
  newCard(s, accountId, { cardType: 'family-main', name: '亲情年卡（主卡）', nameEn: 'Family annual card (main)', ...over });
const soon = () => newClass(s, { startsAt: new Date(s.clock.now().getTime() + DAY) });
const detail = async (token: string, id: number) => (await s.call('GET', `/api/customers/cards/detail?id=${id}`, { token })).body.data;
const offer = (d: { offers: Array<{ operation: string }> }, op: string) => d.offers.find((o) => o.operation === op);

describe('adding sub-card holders', () => {
  it('adds a member by phone: the card shows them (masked), the sub holder lists the card as a family sub card and is told', async () => {
    const holder = await newMember(s);
    const sub = await newMember(s);
    const card = await mainCard(holder.id);
    expect(offer(await detail(holder.token, card.id), 'family')).toEqual({ operation: 'family', allowed: true, code: null, message: null });
    const empty = await family(holder.token, card.id);
    expect(empty.body.data).toEqual({ cardId: card.id, slots: 2, members: [], canAdd: true });
    const r = await add(holder.token, card.id, await phoneOf(s, sub.id));
    expect(r.body.code).toBe(200);
    const phone = await phoneOf(s, sub.id);
    expect(r.body.data.members).toEqual([
      {
        id: expect.any(Number),
        name: expect.any(String),
        phone: `${phone.slice(0, 3)}****${phone.slice(-4)}`,
        since: s.clock.now().toISOString(),
      },
    ]);
    const stored = await subsOf(card.id);
    expect(stored.map((m) => [m.accountId, m.addedBy, m.removedAt])).toEqual([[sub.id, holder.id, null]]);
    const theirs = (await s.call('GET', '/api/customers/cards', { token: sub.token })).body.data;
    expect(theirs.find((c: { id: number }) => c.id === card.id)).toMatchObject({ id: card.id, familySub: true, usesLeft: 10 });
    const mine = (await s.call('GET', '/api/customers/cards', { token: holder.token })).body.data;
    expect(mine.find((c: { id: number }) => c.id === card.id)).toMatchObject({ familySub: false });
    const [told] = await s.deps.db.select().from(notifications).where(eq(notifications.accountId, sub.id));
    expect(told?.title).toBe('您成为亲情卡副卡持有人');
  });

  it('a holder is shown by the masked real name of their personal information, else the account name, else nothing (the phone alone); the card timeline the same', async () => {
    const holder = await newMember(s);
    const card = await mainCard(holder.id);
    const now = s.clock.now();
    // signed up in the app: no account name, the real name in their personal information
    const [real, nameless] = [await newMember(s), await newMember(s)];
    await s.deps.db
      .update(accounts)
      .set({ name: null })
      .where(inArray(accounts.id, [real.id, nameless.id]));
    await s.deps.db
      .insert(personInfo)
      .values({ accountId: real.id, realName: '林小雨', idNumber: '11010519491231002X', createdAt: now, updatedAt: now });
    expect((await add(holder.token, card.id, await phoneOf(s, real.id))).body.code).toBe(200);
    const r = await add(holder.token, card.id, await phoneOf(s, nameless.id));
    expect(r.body.data.members.map((m: { name: string }) => m.name)).toEqual(['**雨', '']);
    const timeline = (await s.call('GET', `/api/customers/cards/history?id=${card.id}&pagenum=0&pagesize=50`, { token: holder.token })).body
      .data.list as Array<{ kind: string; name?: string }>;
    const phone = await phoneOf(s, nameless.id);
    expect(
      timeline
        .filter((i) => i.kind === 'familyAdded')
        .map((i) => i.name)
        .sort(),
    ).toEqual(['**雨', `${phone.slice(0, 3)}****${phone.slice(-4)}`].sort());
  });

  it('the type decides: a card that is not a family main card is 30050, also when its holder asks for its sharing', async () => {
    const holder = await newMember(s);
    const other = await newMember(s);
    const card = await newCard(s, holder.id);
    expect(refusal(await add(holder.token, card.id, await phoneOf(s, other.id)))).toEqual([409, 30050, undefined]);
    expect(refusal(await family(holder.token, card.id))).toEqual([409, 30050, undefined]);
    expect(offer(await detail(holder.token, card.id), 'family')).toBeUndefined();
    expect(await subsOf(card.id)).toEqual([]);
  });

  it('the places are the type data: a third holder is 30051; no such member 30036, myself 30052, twice 30053 (naming phone); an empty phone 70003', async () => {
    const holder = await newMember(s);
    const [a, b, c] = [await newMember(s), await newMember(s), await newMember(s)];
    const card = await mainCard(holder.id);
    expect(refusal(await add(holder.token, card.id, '13999999999'))).toEqual([404, 30036, 'phone']);
    expect(refusal(await add(holder.token, card.id, await phoneOf(s, holder.id)))).toEqual([409, 30052, 'phone']);
    expect(refusal(await add(holder.token, card.id, ''))).toEqual([400, 70003, 'phone']);
    expect((await add(holder.token, card.id, await phoneOf(s, a.id))).body.code).toBe(200);
    expect(refusal(await add(holder.token, card.id, await phoneOf(s, a.id)))).toEqual([409, 30053, 'phone']);
    expect((await add(holder.token, card.id, await phoneOf(s, b.id))).body.data.canAdd).toBe(false);
    const full = await add(holder.token, card.id, await phoneOf(s, c.id));
    expect(refusal(full)).toEqual([409, 30051, undefined]);
    const en = await s.call('POST', '/api/customers/cards/family/add', {
      token: holder.token,
      body: { id: card.id, phone: await phoneOf(s, c.id) },
      headers: { 'accept-language': 'en' },
    });
    expect(en.body.message).toBe('This main card has no sub-card place left');
    expect((await subsOf(card.id)).map((m) => m.accountId)).toEqual([a.id, b.id]);
  });

  it('an ended or expired card is refused with its status; an unfinished transfer application 30004', async () => {
    const holder = await newMember(s);
    const other = await newMember(s);
    for (const [status, code] of [
      ['transferred', 30013],
      ['invalid', 30011],
      ['expired', 30012],
    ] as const) {
      const card = await mainCard(holder.id, {
        status,
        ...(status === 'expired' ? { validUntil: new Date(s.clock.now().getTime() - DAY) } : {}),
      });
      expect([status, ...refusal(await add(holder.token, card.id, await phoneOf(s, other.id)))]).toEqual([status, 409, code, undefined]);
    }
    const card = await mainCard(holder.id);
    expect((await applyFor(s, holder.token, card.id, await phoneOf(s, other.id))).body.code).toBe(200);
    expect(refusal(await add(holder.token, card.id, await phoneOf(s, other.id)))).toEqual([409, 30004, undefined]);
  });

  it('a retry under the same Idempotency-Key adds once', async () => {
    const holder = await newMember(s);
    const sub = await newMember(s);
    const card = await mainCard(holder.id);
    const headers = { 'idempotency-key': `family-${card.id}` };
    const first = await add(holder.token, card.id, await phoneOf(s, sub.id), headers);
    const again = await add(holder.token, card.id, await phoneOf(s, sub.id), headers);
    expect(again.body).toEqual(first.body);
    expect((await subsOf(card.id)).length).toBe(1);
  });
});

describe('booking with a sub card', () => {
  it('the sub holder books with the main card: the shared uses go down once, the booking is theirs; cancelling gives the use back to the card', async () => {
    const holder = await newMember(s);
    const sub = await newMember(s);
    const card = await mainCard(holder.id, { usesTotal: 10, usesLeft: 3 });
    await add(holder.token, card.id, await phoneOf(s, sub.id));
    const cls = await soon();
    const options = (await s.call('GET', `/api/customers/classes/cards?classId=${cls.id}`, { token: sub.token })).body.data;
    expect(options.find((c: { id: number }) => c.id === card.id)).toMatchObject({ usable: true, familySub: true });
    const r = await book(s, sub.token, cls.id, card.id);
    expect(r.body.data).toMatchObject({ state: 'booked', usesLeft: 2 });
    expect((await cardRow(s, card.id)).usesLeft).toBe(2);
    // the holder sees the same uses left
    expect((await detail(holder.token, card.id)).usesLeft).toBe(2);
    // the holder may book the same class too: each member once
    expect((await book(s, holder.token, cls.id, card.id)).body.data.usesLeft).toBe(1);
    expect(refusal(await book(s, sub.token, cls.id, card.id))[1]).toBe(20006);
    expect(
      (await s.call('POST', '/api/customers/classes/cancel', { token: sub.token, body: { bookingId: r.body.data.bookingId } })).body.code,
    ).toBe(200);
    expect((await cardRow(s, card.id)).usesLeft).toBe(2);
  });

  it('a member who is not (or no longer) a sub holder cannot book with it: 404 as absent', async () => {
    const holder = await newMember(s);
    const sub = await newMember(s);
    const stranger = await newMember(s);
    const card = await mainCard(holder.id);
    const cls = await soon();
    expect(refusal(await book(s, stranger.token, cls.id, card.id))).toEqual([404, 70004, 'cardId']);
    const added = await add(holder.token, card.id, await phoneOf(s, sub.id));
    expect((await remove(holder.token, card.id, added.body.data.members[0].id)).body.data.members).toEqual([]);
    expect(refusal(await book(s, sub.token, cls.id, card.id))).toEqual([404, 70004, 'cardId']);
    expect((await cardRow(s, card.id)).usesLeft).toBe(10);
  });
});

describe('removing a sub-card holder', () => {
  it('removes them (the row kept, who and when), frees the place, tells them; an unknown sub card is 30055 naming subId', async () => {
    const holder = await newMember(s);
    const sub = await newMember(s);
    const card = await mainCard(holder.id);
    const added = await add(holder.token, card.id, await phoneOf(s, sub.id));
    const subId = added.body.data.members[0].id as number;
    expect(refusal(await remove(holder.token, card.id, 999_999))).toEqual([404, 30055, 'subId']);
    s.clock.advance(60_000);
    const r = await remove(holder.token, card.id, subId);
    expect(r.body.data).toEqual({ cardId: card.id, slots: 2, members: [], canAdd: true });
    const [row] = await subsOf(card.id);
    expect([row!.removedBy, row!.removedAt?.toISOString()]).toEqual([holder.id, s.clock.now().toISOString()]);
    expect(refusal(await remove(holder.token, card.id, subId))).toEqual([404, 30055, 'subId']);
    const theirs = (await s.call('GET', '/api/customers/cards', { token: sub.token })).body.data;
    expect(theirs.map((c: { id: number }) => c.id)).not.toContain(card.id);
    // added again: a new row
    expect((await add(holder.token, card.id, await phoneOf(s, sub.id))).body.data.members.length).toBe(1);
  });

  it('a sub holder with a booking ahead with the card is 30054 until they cancel it', async () => {
    const holder = await newMember(s);
    const sub = await newMember(s);
    const card = await mainCard(holder.id);
    const subId = (await add(holder.token, card.id, await phoneOf(s, sub.id))).body.data.members[0].id as number;
    const booked = await book(s, sub.token, (await soon()).id, card.id);
    expect(refusal(await remove(holder.token, card.id, subId))).toEqual([409, 30054, undefined]);
    await s.call('POST', '/api/customers/classes/cancel', { token: sub.token, body: { bookingId: booked.body.data.bookingId } });
    expect((await remove(holder.token, card.id, subId)).body.code).toBe(200);
  });
});

describe('the shared main card', () => {
  it('is not transferred while shared (30034), in the offers too; once nobody shares it, it may be', async () => {
    const holder = await newMember(s);
    const sub = await newMember(s);
    const to = await newMember(s);
    const card = await mainCard(holder.id);
    const subId = (await add(holder.token, card.id, await phoneOf(s, sub.id))).body.data.members[0].id as number;
    expect(refusal(await applyFor(s, holder.token, card.id, await phoneOf(s, to.id)))).toEqual([409, 30034, undefined]);
    expect(offer(await detail(holder.token, card.id), 'transfer')).toMatchObject({ allowed: false, code: 30034 });
    await remove(holder.token, card.id, subId);
    expect(offer(await detail(holder.token, card.id), 'transfer')).toMatchObject({ allowed: true });
  });

  it('a family sub card type is never transferred (30034)', async () => {
    const m = await newMember(s);
    const to = await newMember(s);
    const card = await newCard(s, m.id, { cardType: 'family-sub' });
    expect(refusal(await applyFor(s, m.token, card.id, await phoneOf(s, to.id)))).toEqual([409, 30034, undefined]);
  });

  it('a sub holder sees the main card and its timeline, but acting on it is 30002 not owner: freeze, extend, transfer, refund, adviser, family', async () => {
    const holder = await newMember(s);
    const sub = await newMember(s);
    const to = await newMember(s);
    const card = await mainCard(holder.id);
    await add(holder.token, card.id, await phoneOf(s, sub.id));
    const d = await detail(sub.token, card.id);
    expect(d.operations).toEqual([]);
    expect(d.offers.every((o: { allowed: boolean; code: number }) => !o.allowed && o.code === 30002)).toBe(true);
    expect((await s.call('GET', `/api/customers/cards/history?id=${card.id}`, { token: sub.token })).body.code).toBe(200);
    const today = new Date(s.clock.now().getTime() + 8 * 3_600_000).toISOString().slice(0, 10);
    const calls = [
      s.call('POST', '/api/customers/cards/freeze', { token: sub.token, body: { id: card.id, from: today, until: today } }),
      s.call('POST', '/api/customers/cards/extend', { token: sub.token, body: { id: card.id, until: '2027-12-31' } }),
      applyFor(s, sub.token, card.id, await phoneOf(s, to.id)),
      s.call('GET', `/api/customers/cards/refund/quote?cardId=${card.id}`, { token: sub.token }),
      s.call('POST', '/api/customers/cards/refund', { token: sub.token, body: { cardId: card.id, agreed: true } }),
      s.call('POST', '/api/customers/cards/adviser', { token: sub.token, body: { id: card.id, clubId: 1, adviserId: 1 } }),
      add(sub.token, card.id, await phoneOf(s, to.id)),
      family(sub.token, card.id),
    ];
    for (const r of await Promise.all(calls)) expect([r.status, r.body.code]).toEqual([403, 30002]);
    const en = await s.call('POST', '/api/customers/cards/extend', {
      token: sub.token,
      body: { id: card.id, until: '2027-12-31' },
      headers: { 'accept-language': 'en' },
    });
    expect(en.body.message).toBe('You are not the holder of this card');
    expect(await subsOf(card.id)).toHaveLength(1);
    expect((await cardRow(s, card.id)).status).toBe('in_use');
  });

  it('another member (never a sub holder) gets 404 for the card everywhere, and removes nobody', async () => {
    const holder = await newMember(s);
    const stranger = await newMember(s);
    const card = await mainCard(holder.id);
    expect(refusal(await family(stranger.token, card.id))).toEqual([404, 70004, 'id']);
    expect(refusal(await add(stranger.token, card.id, await phoneOf(s, holder.id)))).toEqual([404, 70004, 'id']);
    const sub = await newMember(s);
    const subId = (await add(holder.token, card.id, await phoneOf(s, sub.id))).body.data.members[0].id as number;
    expect(refusal(await remove(stranger.token, card.id, subId))).toEqual([404, 70004, 'id']);
    expect((await subsOf(card.id)).map((r) => r.removedAt)).toEqual([null]);
    expect((await s.call('GET', `/api/customers/cards/detail?id=${card.id}`, { token: stranger.token })).status).toBe(404);
  });

  it('the timeline tells each sub holder added and removed, masked, newest first', async () => {
    const holder = await newMember(s);
    const sub = await newMember(s);
    const card = await mainCard(holder.id);
    const subId = (await add(holder.token, card.id, await phoneOf(s, sub.id))).body.data.members[0].id as number;
    const addedAt = s.clock.now().toISOString();
    s.clock.advance(60_000);
    await remove(holder.token, card.id, subId);
    const items = (await s.call('GET', `/api/customers/cards/history?id=${card.id}`, { token: holder.token })).body.data.list;
    expect(items.filter((i: { kind: string }) => i.kind.startsWith('family'))).toEqual([
      { kind: 'familyRemoved', at: s.clock.now().toISOString(), name: expect.any(String) },
      { kind: 'familyAdded', at: addedAt, name: expect.any(String) },
    ]);
    const live = await s.deps.db
      .select()
      .from(cardFamilyMembers)
      .where(and(eq(cardFamilyMembers.cardId, card.id)));
    expect(live).toHaveLength(1);
  });
});

describe('bad input', () => {
  it('names the field and writes nothing: a card id that is not a number, a malformed phone, a missing sub id', async () => {
    const holder = await newMember(s);
    const card = await mainCard(holder.id);
    const calls = [
      [await s.call('POST', '/api/customers/cards/family/add', { token: holder.token, body: { id: 'x', phone: '13800000000' } }), 'id'],
      [await add(holder.token, card.id, '12ab'), 'phone'],
      [await s.call('POST', '/api/customers/cards/family/remove', { token: holder.token, body: { id: card.id } }), 'subId'],
    ] as const;
    for (const [r, field] of calls) {
      expect(r.status).toBe(400);
      expect(r.body.field).toBe(field);
    }
    expect(await subsOf(card.id)).toEqual([]);
  });
});
