import { describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { bookings } from '../../../src/server/db/schema/index';
import { passBookingTime } from '../../../src/server/jobs/time-passing';
import { startTestServer } from '../support/harness';
import { MAX_UPCOMING_PER_MEMBER } from '../../../src/domain/booking-rules';
import { book, cardRow, HOUR, newCard, newClass, newMember, sh } from './support';

/**
 * Every booking code of spec §8 (and 20009, the member's own window) from the API, each with the
 * rule that produces it. Clock: Friday 2026-11-20 10:00 Shanghai.
 */
describe('booking codes (spec §8)', async () => {
  const s = await startTestServer({ seed: true });

  async function refusal(
    over: { cls?: Parameters<typeof newClass>[1]; card?: (id: number) => Parameters<typeof newCard>[2]; level?: string } = {},
  ) {
    const m = await newMember(s, over.level ?? '2');
    const cls = await newClass(s, over.cls);
    const card = await newCard(s, m.id, over.card?.(m.id));
    return book(s, m.token, cls.id, card.id);
  }

  const cases: [number, number, string, Parameters<typeof refusal>[0]][] = [
    [20001, 409, 'a class the club cancelled', { cls: { status: 'cancelled' } }],
    [20003, 400, 'a frozen card', { card: () => ({ status: 'frozen' }) }],
    [20003, 400, 'a transferred card', { card: () => ({ status: 'transferred' }) }],
    [20004, 400, 'a count card with no use left', { card: () => ({ usesLeft: 0 }) }],
    [20004, 400, 'a count card with one use for a two-use class', { card: () => ({ usesLeft: 1 }), cls: { usesCost: 2 } }],
    [20005, 400, 'an expired card', { card: () => ({ status: 'expired' }) }],
    [20005, 400, 'a card whose validity ends before the class', { card: () => ({ validUntil: sh('2026-11-21 12:00') }) }],
    [20007, 409, 'a class that has started', { cls: { startsAt: sh('2026-11-20 09:30') } }],
    [20009, 400, 'a class four days ahead for a level 2 member', { cls: { startsAt: sh('2026-11-24 08:00') } }],
    [20009, 400, 'a class the day after tomorrow for a level 1 member', { cls: { startsAt: sh('2026-11-22 08:00') }, level: '1' }],
    [20010, 400, 'a class type beyond the card (workshop)', { cls: { classType: 'workshop' } }],
    [20010, 400, "another club's card", { card: () => ({ clubId: 2 }) }],
    [20011, 400, 'a weekend card on a Friday evening', { cls: { startsAt: sh('2026-11-20 20:00') }, card: () => ({ weekendOnly: true }) }],
    [20012, 400, 'an off-peak card at 19:00', { card: () => ({ offPeakSlots: ['10:00-16:00'] }) }],
    [20013, 400, 'a beginner card for an advanced class', { cls: { difficulty: 'advanced' }, card: () => ({ maxDifficulty: 'beginner' }) }],
    [20020, 400, 'a benefits card (books no class)', { card: () => ({ cardType: 'equity' }) }],
    [
      20021,
      400,
      'a two-day card for a class three days ahead',
      { cls: { startsAt: sh('2026-11-23 08:00') }, card: () => ({ bookingWindowDays: 2 }) },
    ],
    [
      20022,
      400,
      'a seven-day card for a class eight days ahead',
      { cls: { startsAt: sh('2026-11-28 08:00') }, card: () => ({ bookingWindowDays: 7 }) },
    ],
    [20031, 400, 'an experience card used by its buyer', { card: (id) => ({ experience: true, buyerAccountId: id }) }],
  ];

  it.each(cases)('%i (HTTP %i) for %s', async (code, http, _why, over) => {
    const r = await refusal(over);
    expect(r.status).toBe(http);
    expect(r.body).toMatchObject({ code, status: false, data: null, message: expect.any(String) });
  });

  it('books what the cases above refuse when the rule is met (the rules are not over-eager)', async () => {
    const ok = [
      await refusal({ cls: { startsAt: sh('2026-11-21 10:00') }, card: () => ({ weekendOnly: true }) }),
      await refusal({ cls: { startsAt: sh('2026-11-21 11:00') }, card: () => ({ offPeakSlots: ['10:00-16:00'] }) }),
      await refusal({ cls: { startsAt: sh('2026-11-27 08:00') }, card: () => ({ bookingWindowDays: 7 }) }),
      await refusal({ card: (id) => ({ experience: true, buyerAccountId: id - 1 }) }),
    ];
    expect(ok.map((r) => r.body.data?.state)).toEqual(['booked', 'booked', 'booked', 'booked']);
  });

  it('20002 when the class and its queue are full', async () => {
    const cls = await newClass(s, { capacity: 1, queueCapacity: 1 });
    const [a, b, c] = [await newMember(s), await newMember(s), await newMember(s)];
    expect((await book(s, a.token, cls.id, (await newCard(s, a.id)).id)).body.data.state).toBe('booked');
    expect((await book(s, b.token, cls.id, (await newCard(s, b.id)).id)).body.data.state).toBe('queued');
    const r = await book(s, c.token, cls.id, (await newCard(s, c.id)).id);
    expect(r.status).toBe(409);
    expect(r.body.code).toBe(20002);
    const detail = await s.call('GET', `/api/customers/classes/detail?id=${cls.id}`, { token: c.token });
    expect(detail.body.data.state).toBe('full');
  });

  it(`20002 when the member already holds ${MAX_UPCOMING_PER_MEMBER} upcoming seats and queue places; a cancel makes room`, async () => {
    const m = await newMember(s);
    const card = await newCard(s, m.id, { usesLeft: 100, usesTotal: 100 });
    // one class per hour from Saturday 07:00, none overlapping; the last few full, so they queue
    const held: number[] = [];
    for (let i = 0; i < MAX_UPCOMING_PER_MEMBER; i++) {
      const full = i >= MAX_UPCOMING_PER_MEMBER - 3;
      const cls = await newClass(s, {
        startsAt: new Date(sh('2026-11-21 07:00').getTime() + i * HOUR),
        durationMin: 50,
        capacity: full ? 0 : 10,
      });
      const r = await book(s, m.token, cls.id, card.id);
      expect(r.body.data.state, `class ${i}`).toBe(full ? 'queued' : 'booked');
      held.push(r.body.data.bookingId);
    }
    const next = await newClass(s, { startsAt: sh('2026-11-22 07:00') });
    const refused = await book(s, m.token, next.id, card.id);
    expect([refused.status, refused.body.code]).toEqual([409, 20002]);
    expect((await cardRow(s, card.id)).usesLeft).toBe(100 - (MAX_UPCOMING_PER_MEMBER - 3));
    await s.call('POST', '/api/customers/classes/cancel', { token: m.token, body: { bookingId: held[0] } });
    expect((await book(s, m.token, next.id, card.id)).body.data.state).toBe('booked');
  });

  it('20006 when the member already has a seat or a queue place in the class', async () => {
    const m = await newMember(s);
    const cls = await newClass(s);
    const card = await newCard(s, m.id);
    await book(s, m.token, cls.id, card.id);
    const r = await book(s, m.token, cls.id, card.id);
    expect(r.status).toBe(409);
    expect(r.body.code).toBe(20006);
    // also when the first booking spent the card's last use
    const last = await newCard(s, m.id, { usesLeft: 1 });
    const other = await newClass(s, { startsAt: sh('2026-11-22 07:00') });
    expect((await book(s, m.token, other.id, last.id)).body.data.state).toBe('booked');
    expect((await book(s, m.token, other.id, last.id)).body.code).toBe(20006);
  });

  it('20030 when the class overlaps one the member booked', async () => {
    const m = await newMember(s);
    const card = await newCard(s, m.id);
    const first = await newClass(s, { startsAt: sh('2026-11-21 18:00'), durationMin: 90 });
    const second = await newClass(s, { startsAt: sh('2026-11-21 19:00'), clubId: 2 });
    const after = await newClass(s, { startsAt: sh('2026-11-21 19:30') });
    await book(s, m.token, first.id, card.id);
    // said before the tap: the schedule and the class name the booking it clashes with; a visitor sees no clash
    const day = (await s.call('GET', '/api/customers/classes/schedule?date=2026-11-21', { token: m.token })).body.data as Array<{
      id: number;
      clashesWith: { bookingId: number; title: string; startsAt: string } | null;
      bookingId: number | null;
    }>;
    const firstBooking = day.find((c) => c.id === first.id)!.bookingId;
    expect(day.find((c) => c.id === second.id)!.clashesWith).toMatchObject({
      bookingId: firstBooking,
      title: '测试课',
      startsAt: sh('2026-11-21 18:00').toISOString(),
    });
    expect(day.find((c) => c.id === after.id)!.clashesWith, 'back to back is no clash').toBeNull();
    expect(day.find((c) => c.id === first.id)!.clashesWith, 'my own booking').toBeNull();
    expect((await s.call('GET', `/api/customers/classes/detail?id=${second.id}`, { token: m.token })).body.data.clashesWith).toMatchObject({
      bookingId: firstBooking,
    });
    expect((await s.call('GET', `/api/customers/classes/detail?id=${second.id}`)).body.data.clashesWith).toBeNull();
    // and the refusal says the same, in the member's language
    const r = await book(s, m.token, second.id, card.id);
    expect(r.status).toBe(409);
    expect(r.body.code).toBe(20030);
    expect(r.body.message).toBe('与已预约的「测试课」（11-21 18:00）时间冲突');
    expect(r.body.data.clash).toMatchObject({ bookingId: firstBooking, classId: first.id });
    const en = await s.call('POST', '/api/customers/classes/book', {
      token: m.token,
      body: { classId: second.id, cardId: card.id, agreeNotice: true },
      headers: { cookie: 'lang=en' },
    });
    expect(en.body.message).toContain('Test class');
    expect((await book(s, m.token, after.id, card.id)).body.data.state).toBe('booked');
  });

  it('20008 when a booking or a queue place is cancelled after the class started', async () => {
    const cls = await newClass(s, { capacity: 1, startsAt: sh('2026-11-20 12:00') });
    const [a, b] = [await newMember(s), await newMember(s)];
    const ra = await book(s, a.token, cls.id, (await newCard(s, a.id)).id);
    const rb = await book(s, b.token, cls.id, (await newCard(s, b.id)).id);
    s.clock.advance(2 * HOUR);
    try {
      const c1 = await s.call('POST', '/api/customers/classes/cancel', { token: a.token, body: { bookingId: ra.body.data.bookingId } });
      expect(c1.status).toBe(409);
      expect(c1.body.code).toBe(20008);
      const c2 = await s.call('POST', '/api/customers/classes/queue/cancel', {
        token: b.token,
        body: { bookingId: rb.body.data.bookingId },
      });
      expect(c2.body.code).toBe(20008);
      // the queue place expired at the start: written by the time-passing job (decision 018)
      await passBookingTime(s.deps.db, s.clock.now(), eq(bookings.classId, cls.id));
      const mine = await s.call('GET', '/api/customers/classes/mine?scope=past', { token: b.token });
      expect(mine.body.data.list[0]).toMatchObject({ state: 'expired', canCancelQueue: false });
    } finally {
      s.clock.advance(-2 * HOUR);
    }
  });

  it("answers 404 for another member's card or booking, never their data", async () => {
    const [a, b] = [await newMember(s), await newMember(s)];
    const cls = await newClass(s);
    const aCard = await newCard(s, a.id);
    const r = await book(s, b.token, cls.id, aCard.id);
    expect(r.status).toBe(404);
    expect(r.body).toMatchObject({ code: 70004, data: null });
    const ra = await book(s, a.token, cls.id, aCard.id);
    const id = ra.body.data.bookingId;
    for (const [method, path, body] of [
      ['POST', '/api/customers/classes/cancel', { bookingId: id }],
      ['POST', '/api/customers/classes/queue/cancel', { bookingId: id }],
      ['GET', `/api/customers/classes/ics?bookingId=${id}`, undefined],
    ] as const) {
      const x = await s.call(method, path, { token: b.token, body });
      expect(x.status, path).toBe(404);
      expect(x.body.data, path).toBeNull();
    }
    expect((await s.call('GET', '/api/customers/classes/book?x=1', { token: b.token })).status).toBe(404);
  });

  it('answers 404 for an unknown class', async () => {
    const m = await newMember(s);
    const card = await newCard(s, m.id);
    const r = await book(s, m.token, 999_999, card.id);
    expect(r.status).toBe(404);
  });

  it.each([
    [{ cardId: 1, agreeNotice: true }, 'classId'],
    [{ classId: 1, agreeNotice: true }, 'cardId'],
    [{ classId: 1, cardId: 1 }, 'agreeNotice'],
    [{ classId: 1, cardId: 1, agreeNotice: false }, 'agreeNotice'],
    [{ classId: 'x', cardId: 1, agreeNotice: true }, 'classId'],
    [{ classId: 0, cardId: 1, agreeNotice: true }, 'classId'],
    [{ classId: 1, cardId: 3_000_000_000, agreeNotice: true }, 'cardId'],
  ])('refuses %j with 400 naming %s', async (body, field) => {
    const m = await newMember(s);
    const r = await s.call('POST', '/api/customers/classes/book', { token: m.token, body });
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ code: 70003, field });
  });

  it('refuses a cancel without a booking id (400) and a visitor (401)', async () => {
    const m = await newMember(s);
    const r = await s.call('POST', '/api/customers/classes/cancel', { token: m.token, body: {} });
    expect(r.body).toMatchObject({ code: 70003, field: 'bookingId' });
    const v = await s.call('POST', '/api/customers/classes/book', { body: { classId: 1, cardId: 1, agreeNotice: true } });
    expect(v.status).toBe(401);
  });
});
