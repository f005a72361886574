import { and, eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { bookings, notifications } from '../../../src/server/db/schema/index';
import { level1, level2, tokenFor } from '../catalog/support';
import { rowsOf } from '../../../src/server/db/rows';
import { startTestServer } from '../support/harness';
import { book, bookingRow, cardRow, classRow, DAY, newCard, newClass, newMember, sh } from './support';

/** Clock: Friday 2026-11-20 10:00 Shanghai (TEST_EPOCH). */
describe('booking a class (POST /api/customers/classes/book)', async () => {
  const s = await startTestServer({ seed: true });

  it('books a seat, spends one use, and counts it for the footer badge', async () => {
    const m = await newMember(s);
    const cls = await newClass(s);
    const card = await newCard(s, m.id);
    const r = await book(s, m.token, cls.id, card.id);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      code: 200,
      status: true,
      data: { state: 'booked', bookingId: expect.any(Number), usesLeft: 9, activated: false, bookedNum: 1 },
    });
    expect((await cardRow(s, card.id)).usesLeft).toBe(9);
    expect((await classRow(s, cls.id)).bookedCount).toBe(1);
    const count = await s.call('GET', '/api/customers/classes/schedule/booked/count', { token: m.token });
    expect(count.body).toEqual({ code: 200, status: true, data: 1 });
  });

  it('decides the requests for one class that arrive together in batches (group commit): each its own answer, a refusal does not undo the others', async () => {
    const cls = await newClass(s, { capacity: 3, queueCapacity: 10 });
    const ms = [];
    for (let i = 0; i < 8; i++) {
      const m = await newMember(s);
      ms.push({ ...m, cardId: (await newCard(s, m.id, i === 5 ? { usesLeft: 0 } : {})).id });
    }
    // member 0 taps twice: the second tap waits for the next batch and hears "already booked"
    const answers = await Promise.all([...ms, ms[0]!].map((m) => book(s, m.token, cls.id, m.cardId)));
    expect(answers[5]!.body.code).toBe(20004);
    expect(answers[8]!.body.code).toBe(20006);
    const ok = answers.filter((r) => r.status === 200).map((r) => r.body.data);
    expect(ok).toHaveLength(7);
    const booked = ok.filter((d) => d.state === 'booked');
    const queued = ok.filter((d) => d.state === 'queued').sort((a, b) => a.bookingId - b.bookingId);
    expect(booked).toHaveLength(3);
    // each answer's footer count is its own member's (counted together, one statement for the turn)
    expect(ok.map((d) => d.bookedNum)).toEqual(ok.map((d) => (d.state === 'booked' ? 1 : 0)));
    // seats went to the first decided, and queue places follow in decision order: 1..4 by row id
    expect(Math.max(...booked.map((d) => d.bookingId))).toBeLessThan(queued[0].bookingId);
    expect(queued.map((d) => d.position)).toEqual([1, 2, 3, 4]);
    expect((await classRow(s, cls.id)).bookedCount).toBe(3);
    // grouped: the 7 rows were written by fewer transactions than requests (rows of one transaction share its xmin)
    const writers = rowsOf<{ n: number }>(
      await s.deps.db.execute(sql`select count(distinct xmin::text)::int as n from bookings where class_id = ${cls.id}`),
    );
    expect(writers[0]!.n).toBeLessThan(7);
    expect((await cardRow(s, ms[5]!.cardId)).usesLeft).toBe(0);
    // one use per seat, none for a queue place
    expect((await Promise.all(ms.map((m) => cardRow(s, m.cardId)))).reduce((n, c, i) => n + (i === 5 ? 0 : 10 - c.usesLeft!), 0)).toBe(3);
  });

  it('book_seats refuses a batch that holds a member or a card twice, whole, and writes nothing', async () => {
    const cls = await newClass(s, { capacity: 3 });
    const [a, b] = [await newMember(s), await newMember(s)];
    const [ca, cb] = [await newCard(s, a.id), await newCard(s, b.id)];
    const at = (c: typeof cls) => sql`${c.startsAt.toISOString()}::timestamptz, ${c.durationMin}::int, ${c.usesCost}::int`;
    const call = (reqs: object[]) =>
      s.deps.db.execute(
        sql`select * from book_seats(${cls.id}::int, ${s.clock.now().toISOString()}::timestamptz, ${at(cls)}, ${JSON.stringify(reqs)}::jsonb)`,
      );
    const req = (accountId: number, cardId: number) => ({
      account_id: accountId,
      card_id: cardId,
      spend: 1,
      activate_status: null,
      valid_until: null,
    });
    const refused = { cause: { message: expect.stringContaining('one request per member and one per card') } };
    await expect(call([req(a.id, ca.id), req(a.id, cb.id)])).rejects.toMatchObject(refused);
    await expect(call([req(a.id, ca.id), req(b.id, ca.id)])).rejects.toMatchObject(refused);
    expect(await s.deps.db.select().from(bookings).where(eq(bookings.classId, cls.id))).toEqual([]);
    expect((await classRow(s, cls.id)).bookedCount).toBe(0);
    expect((await cardRow(s, ca.id)).usesLeft).toBe(10);
    // the same two, one each: both seated, ids in arrival order
    const answers = rowsOf<{ ord: number; outcome: string }>(await call([req(b.id, cb.id), req(a.id, ca.id)]));
    expect(answers.map((r) => [r.ord, r.outcome])).toEqual([
      [0, 'booked'],
      [1, 'booked'],
    ]);
    expect(
      (await s.deps.db.select().from(bookings).where(eq(bookings.classId, cls.id)).orderBy(bookings.id)).map((r) => r.accountId),
    ).toEqual([b.id, a.id]);
    expect((await classRow(s, cls.id)).bookedCount).toBe(2);
  });

  it('gives the use back on cancel and frees the seat', async () => {
    const m = await newMember(s);
    const cls = await newClass(s);
    const card = await newCard(s, m.id);
    const r = await book(s, m.token, cls.id, card.id);
    const c = await s.call('POST', '/api/customers/classes/cancel', { token: m.token, body: { bookingId: r.body.data.bookingId } });
    expect(c.status).toBe(200);
    expect(c.body.data).toMatchObject({ state: 'cancelled', usesReturned: 1, bookedNum: 0 });
    expect((await cardRow(s, card.id)).usesLeft).toBe(10);
    expect((await classRow(s, cls.id)).bookedCount).toBe(0);
    // the chart refuses a second cancel (20001)
    const again = await s.call('POST', '/api/customers/classes/cancel', { token: m.token, body: { bookingId: r.body.data.bookingId } });
    expect(again.status).toBe(409);
    expect(again.body.code).toBe(20001);
  });

  it('does not spend uses of a time-based card', async () => {
    const m = await newMember(s);
    const cls = await newClass(s);
    const card = await newCard(s, m.id, { cardType: 'time-based', usesTotal: null, usesLeft: null });
    const r = await book(s, m.token, cls.id, card.id);
    expect(r.body.data).toMatchObject({ state: 'booked', usesLeft: null });
    expect((await bookingRow(s, r.body.data.bookingId)).usesSpent).toBe(0);
  });

  it('activates an inactive card on the first booking: validity starts now', async () => {
    const m = await newMember(s);
    const cls = await newClass(s);
    const card = await newCard(s, m.id, { status: 'inactive', validFrom: null, validUntil: null, validityDays: 30 });
    const r = await book(s, m.token, cls.id, card.id);
    expect(r.body.data).toMatchObject({ state: 'booked', activated: true });
    const after = await cardRow(s, card.id);
    expect(after.status).toBe('in_use');
    expect(after.validFrom!.toISOString()).toBe(s.clock.now().toISOString());
    expect(after.validUntil!.getTime()).toBe(s.clock.now().getTime() + 30 * DAY);
  });

  it('queues for a full class with the position, and spends nothing until promoted', async () => {
    const cls = await newClass(s, { capacity: 1 });
    const a = await newMember(s);
    const b = await newMember(s);
    const c = await newMember(s);
    await book(s, a.token, cls.id, (await newCard(s, a.id)).id);
    const bCard = await newCard(s, b.id);
    const rb = await book(s, b.token, cls.id, bCard.id);
    const rc = await book(s, c.token, cls.id, (await newCard(s, c.id)).id);
    expect(rb.body.data).toMatchObject({ state: 'queued', position: 1, bookedNum: 0 });
    expect(rc.body.data).toMatchObject({ state: 'queued', position: 2 });
    expect((await cardRow(s, bCard.id)).usesLeft).toBe(10);
    const sched = await s.call('GET', `/api/customers/classes/detail?id=${cls.id}`, { token: c.token });
    expect(sched.body.data).toMatchObject({ state: 'queued', queuePosition: 2, queueCount: 2, bookedCount: 1 });
  });

  it('replays an idempotent double tap: one booking, one use', async () => {
    const m = await newMember(s);
    const cls = await newClass(s);
    const card = await newCard(s, m.id);
    const headers = { 'idempotency-key': 'tap-0001-booking' };
    const [r1, r2] = [await book(s, m.token, cls.id, card.id, headers), await book(s, m.token, cls.id, card.id, headers)];
    expect(r1.status).toBe(200);
    expect(r2.status).toBe(200);
    expect(r2.headers.get('idempotent-replayed')).toBe('true');
    expect(r2.body.data.bookingId).toBe(r1.body.data.bookingId);
    const rows = await s.deps.db
      .select()
      .from(bookings)
      .where(and(eq(bookings.classId, cls.id), eq(bookings.accountId, m.id)));
    expect(rows).toHaveLength(1);
    expect((await cardRow(s, card.id)).usesLeft).toBe(9);
    // the same key with another body is refused
    const other = await newClass(s, { startsAt: sh('2026-11-22 08:00') });
    const r3 = await book(s, m.token, other.id, card.id, headers);
    expect(r3.status).toBe(409);
    expect(r3.body.code).toBe(70007);
  });

  it('books the demo members with their seeded cards (level 1 tomorrow, level 2 three days ahead)', async () => {
    const t1 = await tokenFor(s, level1.phone);
    const t2 = await tokenFor(s, level2.phone);
    const cards1 = (await s.call('GET', '/api/customers/cards', { token: t1 })).body.data;
    const annual1 = cards1.find((c: any) => c.cardType === 'time-based' && c.status === 'in_use');
    const tomorrow = await newClass(s, { startsAt: sh('2026-11-21 21:00') });
    const later = await newClass(s, { startsAt: sh('2026-11-22 21:00') });
    expect((await book(s, t1, tomorrow.id, annual1.id)).body.data.state).toBe('booked');
    const refused = await book(s, t1, later.id, annual1.id);
    expect(refused.status).toBe(400);
    expect(refused.body.code).toBe(20009);
    const cards2 = (await s.call('GET', '/api/customers/cards', { token: t2 })).body.data;
    const annual2 = cards2.find((c: any) => c.cardType === 'time-based' && c.status === 'in_use');
    const in3 = await newClass(s, { startsAt: sh('2026-11-23 21:00') });
    expect((await book(s, t2, in3.id, annual2.id)).body.data.state).toBe('booked');
  });
});

describe('queue promotion when a booked member cancels', async () => {
  const s = await startTestServer({ seed: true });

  it('books the first queued member, spends the use and notifies them', async () => {
    const cls = await newClass(s, { capacity: 1, title: '晚间哈他', titleEn: 'Evening hatha' });
    const a = await newMember(s);
    const b = await newMember(s);
    const ra = await book(s, a.token, cls.id, (await newCard(s, a.id)).id);
    const bCard = await newCard(s, b.id, { status: 'inactive', validFrom: null, validUntil: null });
    const rb = await book(s, b.token, cls.id, bCard.id);
    expect(rb.body.data.state).toBe('queued');
    const c = await s.call('POST', '/api/customers/classes/cancel', { token: a.token, body: { bookingId: ra.body.data.bookingId } });
    expect(c.status).toBe(200);
    const promoted = await bookingRow(s, rb.body.data.bookingId);
    expect(promoted).toMatchObject({ state: 'booked', promoted: true, usesSpent: 1 });
    expect(await cardRow(s, bCard.id)).toMatchObject({ usesLeft: 9, status: 'in_use' });
    expect((await classRow(s, cls.id)).bookedCount).toBe(1);
    const notes = await s.call('GET', '/api/sys/notification', { token: b.token });
    expect(JSON.stringify(notes.body)).toContain('候补成功：晚间哈他');
    const mine = await s.deps.db.select().from(notifications).where(eq(notifications.accountId, b.id));
    expect(mine[0]).toMatchObject({ titleEn: 'You are booked: Evening hatha' });
    const count = await s.call('GET', '/api/customers/classes/schedule/booked/count', { token: b.token });
    expect(count.body.data).toBe(1);
  });

  it('promotes in the order of the positions members were shown, even when their clock readings disagree', async () => {
    // Under concurrency a request may read the clock before it waits for the class lock: the member
    // who got the lock first (position 1) can carry the later queuedAt. The position is what counts.
    const cls = await newClass(s, { capacity: 1 });
    const [a, b, c] = [await newMember(s), await newMember(s), await newMember(s)];
    const ra = await book(s, a.token, cls.id, (await newCard(s, a.id)).id);
    const rb = await book(s, b.token, cls.id, (await newCard(s, b.id)).id);
    const rc = await book(s, c.token, cls.id, (await newCard(s, c.id)).id);
    expect([rb.body.data.position, rc.body.data.position]).toEqual([1, 2]);
    await s.deps.db
      .update(bookings)
      .set({ queuedAt: new Date(s.clock.now().getTime() + 1000) })
      .where(eq(bookings.id, rb.body.data.bookingId));
    await s.call('POST', '/api/customers/classes/cancel', { token: a.token, body: { bookingId: ra.body.data.bookingId } });
    expect(await bookingRow(s, rb.body.data.bookingId)).toMatchObject({ state: 'booked', promoted: true });
    expect(await bookingRow(s, rc.body.data.bookingId)).toMatchObject({ state: 'queued' });
  });

  it('skips a queued member whose card no longer qualifies, tells them why, and books the next', async () => {
    const cls = await newClass(s, { capacity: 1 });
    const [a, b, c] = [await newMember(s), await newMember(s), await newMember(s)];
    const ra = await book(s, a.token, cls.id, (await newCard(s, a.id)).id);
    const bCard = await newCard(s, b.id);
    const rb = await book(s, b.token, cls.id, bCard.id);
    const rc = await book(s, c.token, cls.id, (await newCard(s, c.id)).id);
    // b's card is frozen while b waits
    await s.deps.db.execute(`update member_cards set status = 'frozen' where id = ${bCard.id}` as never);
    await s.call('POST', '/api/customers/classes/cancel', { token: a.token, body: { bookingId: ra.body.data.bookingId } });
    expect(await bookingRow(s, rb.body.data.bookingId)).toMatchObject({ state: 'queue_cancelled', cancelReason: 'not-qualified' });
    expect(await bookingRow(s, rc.body.data.bookingId)).toMatchObject({ state: 'booked', promoted: true });
    const [note] = await s.deps.db.select().from(notifications).where(eq(notifications.accountId, b.id));
    expect(note!.body).toContain('会员卡无效');
    // the English notice comes from the catalog, with the refusal in English
    expect(note!.bodyEn).toMatch(
      /^A place opened in the class on 2026-11-21 19:00, but your card cannot book it: .+\. You have left the queue\.$/,
    );
    expect(note!.bodyEn).not.toMatch(/[\u4e00-\u9fff]/);
    expect((await cardRow(s, bCard.id)).usesLeft).toBe(10);
  });

  it('takes a promoted member out of the queues of overlapping classes', async () => {
    const x = await newClass(s, { capacity: 1, startsAt: sh('2026-11-22 18:00') });
    const y = await newClass(s, { capacity: 1, startsAt: sh('2026-11-22 18:30'), clubId: 2 });
    const z = await newClass(s, { capacity: 1, startsAt: sh('2026-11-22 20:00') });
    const [a, b, c] = [await newMember(s), await newMember(s), await newMember(s)];
    const aCard = await newCard(s, a.id);
    const ra = await book(s, a.token, x.id, aCard.id);
    await book(s, c.token, y.id, (await newCard(s, c.id)).id);
    await book(s, c.token, z.id, (await newCard(s, c.id)).id);
    const bCard = await newCard(s, b.id);
    const qx = await book(s, b.token, x.id, bCard.id);
    const qy = await book(s, b.token, y.id, bCard.id);
    const qz = await book(s, b.token, z.id, bCard.id);
    expect([qx, qy, qz].map((r) => r.body.data.state)).toEqual(['queued', 'queued', 'queued']);
    await s.call('POST', '/api/customers/classes/cancel', { token: a.token, body: { bookingId: ra.body.data.bookingId } });
    expect((await bookingRow(s, qx.body.data.bookingId)).state).toBe('booked');
    expect(await bookingRow(s, qy.body.data.bookingId)).toMatchObject({ state: 'queue_cancelled', cancelReason: 'overlap' });
    expect((await bookingRow(s, qz.body.data.bookingId)).state).toBe('queued');
  });

  it('lets a member leave a queue (and refuses leaving a queue for a seat)', async () => {
    const cls = await newClass(s, { capacity: 1 });
    const [a, b] = [await newMember(s), await newMember(s)];
    const ra = await book(s, a.token, cls.id, (await newCard(s, a.id)).id);
    const rb = await book(s, b.token, cls.id, (await newCard(s, b.id)).id);
    const left = await s.call('POST', '/api/customers/classes/queue/cancel', {
      token: b.token,
      body: { bookingId: rb.body.data.bookingId },
    });
    expect(left.status).toBe(200);
    expect(left.body.data).toMatchObject({ state: 'queue_cancelled' });
    const wrong = await s.call('POST', '/api/customers/classes/queue/cancel', {
      token: a.token,
      body: { bookingId: ra.body.data.bookingId },
    });
    expect(wrong.status).toBe(409);
    expect(wrong.body.code).toBe(20001);
    const wrong2 = await s.call('POST', '/api/customers/classes/cancel', { token: b.token, body: { bookingId: rb.body.data.bookingId } });
    expect(wrong2.body.code).toBe(20001);
  });
});
