import { describe, expect, it } from 'vitest';
import { book, newCard, newClass } from '../booking/support';
import { newMember, newStaff } from '../orders/support';
import { startTestServer } from '../support/harness';
import { askRefund, boughtCard, staffRefund } from './refund-support';
import { applyFor, phoneOf } from './transfer-support';

/**
 * A card whose transfer or refund waits on staff books nothing and is not activated meanwhile: a
 * class booked would change (or refuse) what the application was asked on. The card page's answer
 * says which application waits and offers no activation; booking's card list shows the card refused
 * with the same code the booking gets; once staff decide (here: reject) the card books again.
 */
const s = await startTestServer({ seed: true });
const DAY = 86_400_000;
const detail = async (token: string, id: number) => (await s.call('GET', `/api/customers/cards/detail?id=${id}`, { token })).body.data;
const choiceOf = async (token: string, classId: number, cardId: number) =>
  (await s.call('GET', `/api/customers/classes/cards?classId=${classId}`, { token })).body.data.find(
    (c: { id: number }) => c.id === cardId,
  );
const aClass = () => newClass(s, { startsAt: new Date(s.clock.now().getTime() + 2 * DAY) });

describe('a card with a refund waiting on staff', () => {
  it('says so, offers no activation, refuses booking and activation with 30004; after a rejection it books', async () => {
    const { m, card } = await boughtCard(s);
    const cls = await aClass();
    expect((await detail(m.token, card.id)).operations).toContain('activate');
    const asked = await askRefund(s, m.token, card.id);
    expect(asked.body.code).toBe(200);

    const d = await detail(m.token, card.id);
    expect(d.application).toBe('refund');
    expect(d.operations).not.toContain('activate');
    expect(await choiceOf(m.token, cls.id, card.id)).toMatchObject({ usable: false, code: 30004 });
    expect((await book(s, m.token, cls.id, card.id)).body.code).toBe(30004);
    const activated = await s.call('POST', '/api/customers/cards/activate', { token: m.token, body: { id: card.id } });
    expect(activated.body.code).toBe(30004);

    const staff = await newStaff(s);
    expect((await staffRefund(s, staff.token, 'reject', asked.body.data.id, '请到店办理')).body.code).toBe(200);
    expect((await detail(m.token, card.id)).application).toBeNull();
    expect(await choiceOf(m.token, cls.id, card.id)).toMatchObject({ usable: true });
    expect((await book(s, m.token, cls.id, card.id)).body.code).toBe(200);
  });
});

describe('a card with a transfer waiting on staff', () => {
  it('says which application waits and refuses booking with 30004', async () => {
    const m = await newMember(s);
    const to = await newMember(s);
    const card = await newCard(s, m.id);
    const cls = await aClass();
    expect((await applyFor(s, m.token, card.id, await phoneOf(s, to.id))).body.code).toBe(200);
    expect((await detail(m.token, card.id)).application).toBe('transfer');
    expect(await choiceOf(m.token, cls.id, card.id)).toMatchObject({ usable: false, code: 30004 });
    expect((await book(s, m.token, cls.id, card.id)).body.code).toBe(30004);
  });

  it('a card with nothing waiting: no application, books', async () => {
    const m = await newMember(s);
    const card = await newCard(s, m.id);
    const cls = await aClass();
    expect((await detail(m.token, card.id)).application).toBeNull();
    expect((await book(s, m.token, cls.id, card.id)).body.code).toBe(200);
  });
});
