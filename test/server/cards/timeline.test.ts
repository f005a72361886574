import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { extendedValidUntil } from '../../../src/domain/card-rules';
import { lastValidDay, addDays, shanghaiDate } from '../../../src/domain/time';
import { memberCards } from '../../../src/server/db/schema/index';
import { book, cardRow, DAY, newCard, newClass, newMember } from '../booking/support';
import { newStaff } from '../orders/support';
import { startTestServer } from '../support/harness';
import { askRefund, boughtCard, cancelRefund } from './refund-support';
import { applyFor, phoneOf, staffCall } from './transfer-support';

/**
 * A card's whole life as one timeline (decision 034), through GET /customers/cards/history:
 * newest first, read from the stored records: bought (the order), activated (by the booking that did
 * it), a class booked with it and the use given back by its cancel, a planned freeze and its calling
 * off (the end moved and moved back), an extension (the end before and after), a change of adviser,
 * a refund asked for and its outcome, a transfer applied for and approved; the recipient's card
 * starts with the transfer in. Another member's card is not found.
 */
const s = await startTestServer({ seed: true });
const STEP = 60_000;
const history = async (token: string, id: number, headers: Record<string, string> = {}) =>
  (await s.call('GET', `/api/customers/cards/history?id=${id}&pagesize=50`, { token, headers })).body.data;
const ok = (r: { body: { code: number } }, what: string) => expect(r.body.code, what).toBe(200);

describe("a card's timeline", () => {
  it('tells every step of its life, newest first, each with when and what it changed', async () => {
    const { m, card, orderNo, order } = await boughtCard(s);
    s.clock.advance(STEP);
    const cls = await newClass(s, { startsAt: new Date(s.clock.now().getTime() + DAY), title: '晨间流瑜伽', titleEn: 'Morning flow' });
    const booked = await book(s, m.token, cls.id, card.id);
    ok(booked, 'book');
    const activatedAt = s.clock.now().toISOString();
    s.clock.advance(STEP);
    ok(
      await s.call('POST', '/api/customers/classes/cancel', {
        token: m.token,
        body: { bookingId: booked.body.data.bookingId ?? booked.body.data.id },
      }),
      'cancel the booking',
    );
    s.clock.advance(STEP);
    const endBefore = (await cardRow(s, card.id)).validUntil!;
    const from = addDays(shanghaiDate(s.clock.now()), 3);
    const until = addDays(from, 1);
    ok(await s.call('POST', '/api/customers/cards/freeze', { token: m.token, body: { id: card.id, from, until } }), 'plan a freeze');
    const endFrozen = (await cardRow(s, card.id)).validUntil!;
    expect(endFrozen.getTime() - endBefore.getTime()).toBe(2 * DAY);
    s.clock.advance(STEP);
    ok(await s.call('POST', '/api/customers/cards/unfreeze', { token: m.token, body: { id: card.id } }), 'call it off');
    s.clock.advance(STEP);
    const extendTo = addDays(lastValidDay(endBefore), 10);
    ok(await s.call('POST', '/api/customers/cards/extend', { token: m.token, body: { id: card.id, until: extendTo } }), 'extend');
    s.clock.advance(STEP);
    ok(
      await s.call('POST', '/api/customers/cards/adviser', { token: m.token, body: { id: card.id, clubId: 1, adviserId: 1 } }),
      'choose an adviser',
    );
    s.clock.advance(STEP);
    const refund = await askRefund(s, m.token, card.id);
    ok(refund, 'ask for a refund');
    s.clock.advance(STEP);
    ok(await cancelRefund(s, m.token, refund.body.data.id), 'cancel the refund');
    s.clock.advance(STEP);
    const to = await newMember(s);
    const applied = await applyFor(s, m.token, card.id, await phoneOf(s, to.id));
    ok(applied, 'apply to transfer');
    s.clock.advance(STEP);
    const staff = await newStaff(s);
    ok(await staffCall(s, staff.token, 'take', applied.body.data.id), 'take');
    ok(await staffCall(s, staff.token, 'approve', applied.body.data.id), 'approve');

    const t = await history(m.token, card.id);
    expect(t.list.map((h: { kind: string }) => h.kind)).toEqual([
      'transferOutcome',
      'transferOut',
      'refundOutcome',
      'refundRequested',
      'adviser',
      'extend',
      'unfreeze',
      'freeze',
      'returned',
      'class',
      'activated',
      'bought',
    ]);
    expect(t.total).toBe(12);
    const at = t.list.map((h: { at: string }) => h.at);
    expect([...at].sort().reverse(), 'newest first').toEqual(at);
    const by = (kind: string) => t.list.find((h: { kind: string }) => h.kind === kind);
    expect(by('bought')).toEqual({
      kind: 'bought',
      at: order.paidAt!.toISOString(),
      orderNo,
      money: expect.objectContaining({ scope: 'order', paidCents: order.priceCents - order.couponDeductionCents, toPayCents: 0 }),
    });
    expect(by('activated')).toEqual({ kind: 'activated', at: activatedAt, classTitle: '晨间流瑜伽' });
    expect(by('class')).toMatchObject({ state: 'cancelled', usesSpent: 0, classTitle: '晨间流瑜伽' });
    expect(by('returned')).toMatchObject({ usesReturned: 1, classTitle: '晨间流瑜伽' });
    expect(by('freeze')).toMatchObject({
      from,
      until,
      validUntilBefore: endBefore.toISOString(),
      validUntilAfter: endFrozen.toISOString(),
    });
    // a planned freeze called off gives back all its days (decision 024)
    expect(by('unfreeze')).toMatchObject({ from, until, validUntilAfter: endBefore.toISOString() });
    expect(by('extend')).toMatchObject({
      validUntilBefore: endBefore.toISOString(),
      validUntilAfter: extendedValidUntil(extendTo).toISOString(),
    });
    expect(by('adviser')).toMatchObject({ from: null, to: '王静', clubName: '静安寺旗舰店' });
    expect(by('refundRequested')).toMatchObject({ refundId: refund.body.data.id, quotedCents: refund.body.data.quotedCents });
    expect(by('refundOutcome')).toMatchObject({ refundId: refund.body.data.id, state: 'cancelled', amountCents: null });
    expect(by('transferOut')).toMatchObject({ transferId: applied.body.data.id });
    expect(by('transferOutcome')).toMatchObject({ transferId: applied.body.data.id, state: 'approved', reason: null });

    // in English: the class and the adviser by their English names
    const en = await history(m.token, card.id, { 'accept-language': 'en' });
    expect(en.list.find((h: { kind: string }) => h.kind === 'adviser')).toMatchObject({ to: 'Wang Jing' });
    expect(en.list.find((h: { kind: string }) => h.kind === 'activated').classTitle).toBe('Morning flow');

    // the recipient's card starts with the transfer in, with the uses it was given; nothing of the giver's life
    const [got] = await s.deps.db.select().from(memberCards).where(eq(memberCards.transferredFromCardId, card.id));
    const theirs = await history(to.token, got!.id);
    expect(theirs.list).toEqual([{ kind: 'transferIn', at: s.clock.now().toISOString(), usesLeft: got!.usesLeft }]);
  });

  it('pages the timeline (total is the whole life)', async () => {
    const m = await newMember(s);
    const card = await newCard(s, m.id);
    for (const adviserId of [1, 2, 1]) {
      s.clock.advance(STEP);
      ok(await s.call('POST', '/api/customers/cards/adviser', { token: m.token, body: { id: card.id, clubId: 1, adviserId } }), 'change');
    }
    const page = (await s.call('GET', `/api/customers/cards/history?id=${card.id}&pagenum=1&pagesize=2`, { token: m.token })).body.data;
    // activated (the card was made in use) and three changes: the second page is the oldest change and the activation
    expect([page.total, page.list.map((h: { kind: string; from?: string | null }) => [h.kind, h.from ?? null])]).toEqual([
      4,
      [
        ['adviser', null],
        ['activated', null],
      ],
    ]);
  });

  it("another member's card is not found (70004), as a card that does not exist", async () => {
    const owner = await newMember(s);
    const other = await newMember(s);
    const card = await newCard(s, owner.id);
    for (const id of [card.id, 999_999]) {
      const r = await s.call('GET', `/api/customers/cards/history?id=${id}`, { token: other.token });
      expect([r.status, r.body.code]).toEqual([404, 70004]);
    }
    expect((await s.call('GET', `/api/customers/cards/history?id=${card.id}`)).status).toBe(401);
  });
});
