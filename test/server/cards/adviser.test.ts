import { asc, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { advisers, cardAdviserChanges } from '../../../src/server/db/schema/index';
import { cardRow, DAY, newCard, newMember } from '../booking/support';
import { startTestServer } from '../support/harness';
import { applyFor, phoneOf } from './transfer-support';

/**
 * Changing a card's adviser (spec §4 "change adviser", §5 "adviser change needs club and adviser";
 * decision 034) through the API: a club, then one of its advisers, both required and each refusal
 * naming its field; the change is stored (who, from, to, when), shown on the card and offered like
 * the other card operations; a transferred or invalid card, or one with an unfinished transfer
 * application, refuses; another member's card is not found; a retry under the same key changes once.
 */
const s = await startTestServer({ seed: true });
const rows = await s.deps.db.select().from(advisers).orderBy(asc(advisers.clubId), asc(advisers.sort));
const [A1, A2] = rows.filter((a) => a.clubId === 1);
const [B1] = rows.filter((a) => a.clubId === 2);
const change = (token: string, body: Record<string, unknown>, headers: Record<string, string> = {}) =>
  s.call('POST', '/api/customers/cards/adviser', { token, body, headers });
const refusal = (r: { status: number; body: { code: number; field?: string } }) => [r.status, r.body.code, r.body.field];
const changesOf = (cardId: number) =>
  s.deps.db.select().from(cardAdviserChanges).where(eq(cardAdviserChanges.cardId, cardId)).orderBy(asc(cardAdviserChanges.id));
const detail = async (token: string, id: number) => (await s.call('GET', `/api/customers/cards/detail?id=${id}`, { token })).body.data;

describe("a club's advisers", () => {
  it('lists the active advisers of the club asked for, in its order, in the member language', async () => {
    const m = await newMember(s);
    const r = await s.call('GET', '/api/customers/cards/advisers?clubId=1', { token: m.token });
    expect(r.body.data).toEqual([
      { id: A1!.id, name: A1!.name, clubId: 1, clubName: '静安寺旗舰店' },
      { id: A2!.id, name: A2!.name, clubId: 1, clubName: '静安寺旗舰店' },
    ]);
    const en = await s.call('GET', '/api/customers/cards/advisers?clubId=1', { token: m.token, headers: { 'accept-language': 'en' } });
    expect(en.body.data[0].name).toBe(A1!.nameEn);
  });

  it('a club that does not exist is 30047 naming clubId; no club is a 400 naming it; a visitor logs in first', async () => {
    const m = await newMember(s);
    expect(refusal(await s.call('GET', '/api/customers/cards/advisers?clubId=999', { token: m.token }))).toEqual([404, 30047, 'clubId']);
    expect(refusal(await s.call('GET', '/api/customers/cards/advisers', { token: m.token }))).toEqual([400, 70003, 'clubId']);
    expect((await s.call('GET', '/api/customers/cards/advisers?clubId=1')).status).toBe(401);
  });
});

describe("changing a card's adviser", () => {
  it('stores the change (who, from, to, when); the card shows its adviser; a second change keeps the first as from', async () => {
    const m = await newMember(s);
    const card = await newCard(s, m.id);
    const before = await detail(m.token, card.id);
    expect(before.adviser).toBe(null);
    expect(before.offers.find((o: { operation: string }) => o.operation === 'changeAdviser')).toEqual({
      operation: 'changeAdviser',
      allowed: true,
      code: null,
      message: null,
    });
    expect(before.operations).toContain('changeAdviser');
    const r = await change(m.token, { id: card.id, clubId: 1, adviserId: A1!.id });
    expect(r.body.data.adviser).toEqual({ id: A1!.id, name: A1!.name, clubId: 1, clubName: '静安寺旗舰店' });
    expect(r.body.data.status).toBe('in_use');
    s.clock.advance(60_000);
    const again = await change(m.token, { id: card.id, clubId: 2, adviserId: B1!.id });
    expect(again.body.data.adviser.id).toBe(B1!.id);
    expect((await cardRow(s, card.id)).adviserId).toBe(B1!.id);
    const stored = await changesOf(card.id);
    expect(stored.map((c) => [c.changedBy, c.fromAdviserId, c.toAdviserId])).toEqual([
      [m.id, null, A1!.id],
      [m.id, A1!.id, B1!.id],
    ]);
    expect(stored[1]!.createdAt.getTime() - stored[0]!.createdAt.getTime()).toBe(60_000);
  });

  it('both are required, each refusal naming its field (30045 clubId, 30046 adviserId); nothing is written', async () => {
    const m = await newMember(s);
    const card = await newCard(s, m.id);
    expect(refusal(await change(m.token, { id: card.id }))).toEqual([400, 30045, 'clubId']);
    expect(refusal(await change(m.token, { id: card.id, clubId: null, adviserId: A1!.id }))).toEqual([400, 30045, 'clubId']);
    const r = await change(m.token, { id: card.id, clubId: 1 });
    expect(refusal(r)).toEqual([400, 30046, 'adviserId']);
    expect(r.body.message).toBe('请选择顾问');
    const en = await s.call('POST', '/api/customers/cards/adviser', {
      token: m.token,
      body: { id: card.id, clubId: 1, adviserId: null },
      headers: { 'accept-language': 'en' },
    });
    expect([en.body.code, en.body.message]).toEqual([30046, 'Please choose an adviser']);
    expect(await changesOf(card.id)).toEqual([]);
    expect((await cardRow(s, card.id)).adviserId).toBe(null);
  });

  it('a club that does not exist 30047, an adviser of another club 30048, an adviser who left 30048, the same adviser 30049', async () => {
    const m = await newMember(s);
    const card = await newCard(s, m.id);
    expect(refusal(await change(m.token, { id: card.id, clubId: 999, adviserId: A1!.id }))).toEqual([404, 30047, 'clubId']);
    expect(refusal(await change(m.token, { id: card.id, clubId: 1, adviserId: B1!.id }))).toEqual([404, 30048, 'adviserId']);
    expect(refusal(await change(m.token, { id: card.id, clubId: 1, adviserId: 99_999 }))).toEqual([404, 30048, 'adviserId']);
    const [gone] = await s.deps.db.insert(advisers).values({ clubId: 1, name: '已离职', active: false, sort: 9 }).returning();
    expect(refusal(await change(m.token, { id: card.id, clubId: 1, adviserId: gone!.id }))).toEqual([404, 30048, 'adviserId']);
    expect(
      (await s.call('GET', '/api/customers/cards/advisers?clubId=1', { token: m.token })).body.data.map((a: { id: number }) => a.id),
    ).not.toContain(gone!.id);
    expect((await change(m.token, { id: card.id, clubId: 1, adviserId: A1!.id })).body.code).toBe(200);
    expect(refusal(await change(m.token, { id: card.id, clubId: 1, adviserId: A1!.id }))).toEqual([409, 30049, 'adviserId']);
    expect((await changesOf(card.id)).length).toBe(1);
  });

  it('an inactive, frozen or expired card may change it; a transferred (30013) or invalid (30011) card refuses, and says so in its offers', async () => {
    const m = await newMember(s);
    for (const status of ['inactive', 'frozen', 'expired'] as const) {
      const card = await newCard(s, m.id, {
        status,
        ...(status === 'expired' ? { validUntil: new Date(s.clock.now().getTime() - DAY) } : {}),
      });
      const r = await change(m.token, { id: card.id, clubId: 1, adviserId: A1!.id });
      expect([status, r.body.code, r.body.data?.status]).toEqual([status, 200, status]);
    }
    for (const [status, code] of [
      ['transferred', 30013],
      ['invalid', 30011],
    ] as const) {
      const card = await newCard(s, m.id, { status });
      expect(refusal(await change(m.token, { id: card.id, clubId: 1, adviserId: A1!.id }))).toEqual([409, code, undefined]);
      const offer = (await detail(m.token, card.id)).offers.find((o: { operation: string }) => o.operation === 'changeAdviser');
      expect([offer.allowed, offer.code]).toEqual([false, code]);
      expect(await changesOf(card.id)).toEqual([]);
    }
  });

  it('an unfinished transfer application refuses 30004, in the offers too', async () => {
    const m = await newMember(s);
    const to = await newMember(s);
    const card = await newCard(s, m.id);
    expect((await applyFor(s, m.token, card.id, await phoneOf(s, to.id))).body.code).toBe(200);
    expect(refusal(await change(m.token, { id: card.id, clubId: 1, adviserId: A1!.id }))).toEqual([409, 30004, undefined]);
    expect((await detail(m.token, card.id)).offers.find((o: { operation: string }) => o.operation === 'changeAdviser').code).toBe(30004);
  });

  it("another member's card is not found (70004), as a card that does not exist; nothing is written", async () => {
    const owner = await newMember(s);
    const other = await newMember(s);
    const card = await newCard(s, owner.id);
    expect(refusal(await change(other.token, { id: card.id, clubId: 1, adviserId: A1!.id }))).toEqual([404, 70004, 'id']);
    expect(refusal(await change(other.token, { id: 999_999, clubId: 1, adviserId: A1!.id }))).toEqual([404, 70004, 'id']);
    expect(await changesOf(card.id)).toEqual([]);
  });

  it('a retry under the same Idempotency-Key is answered the same and changes once', async () => {
    const m = await newMember(s);
    const card = await newCard(s, m.id);
    const headers = { 'Idempotency-Key': 'adviser-key-0001' };
    const first = await change(m.token, { id: card.id, clubId: 1, adviserId: A1!.id }, headers);
    const again = await change(m.token, { id: card.id, clubId: 1, adviserId: A1!.id }, headers);
    expect([first.body.code, again.body.code]).toEqual([200, 200]);
    expect(again.body.data.adviser.id).toBe(A1!.id);
    expect((await changesOf(card.id)).length).toBe(1);
  });
});
