import { describe, expect, it } from 'vitest';
import { level1, level2, tokenFor } from '../catalog/support';
import { startTestServer } from '../support/harness';
import { bookings } from '../../../src/server/db/schema/index';
import { book, bookingRow, newCard, newClass, newMember, sh } from './support';

/** Clock: Friday 2026-11-20 10:00 Shanghai. */
describe('schedule, class, cards, my bookings, calendar file', async () => {
  const s = await startTestServer({ seed: true });

  it("lists today's seeded classes at every club for a visitor, soonest first, with public states only", async () => {
    const r = await s.call('GET', '/api/customers/classes/schedule');
    expect(r.status).toBe(200);
    const list = r.body.data as any[];
    expect(new Set(list.map((c) => c.clubId)).size).toBe(4);
    expect(list.length).toBeGreaterThanOrEqual(20);
    const starts = list.map((c) => c.startsAt);
    expect([...starts].sort()).toEqual(starts);
    for (const c of list) expect(['bookable', 'queueable', 'full', 'expired']).toContain(c.state);
    // 07:00 and 09:00 have started by 10:00
    expect(list.filter((c) => c.startsAt < s.clock.now().toISOString()).every((c) => c.state === 'expired')).toBe(true);
  });

  it('has two weeks of classes, some nearly full and some full with a real queue', async () => {
    const days = ['2026-11-17', '2026-11-19', '2026-11-21', '2026-11-25', '2026-11-30'];
    const all: any[] = [];
    for (const d of days) {
      const r = await s.call('GET', `/api/customers/classes/schedule?date=${d}`);
      expect(r.body.data.length, d).toBeGreaterThanOrEqual(20);
      all.push(...r.body.data);
    }
    const upcoming = all.filter((c) => c.startsAt > s.clock.now().toISOString());
    expect(upcoming.some((c) => c.bookedCount === c.capacity && c.queueCount > 0)).toBe(true);
    expect(upcoming.some((c) => c.bookedCount === c.capacity - 1)).toBe(true);
    expect(upcoming.some((c) => c.state === 'queueable')).toBe(true);
    expect(new Set(all.map((c) => c.classType))).toEqual(new Set(['regular', 'small-group', 'private', 'open', 'workshop', 'training']));
    expect(new Set(all.map((c) => c.difficulty))).toEqual(new Set(['beginner', 'intermediate', 'advanced']));
    expect(new Set(all.map((c) => c.timeOfDay))).toEqual(new Set(['morning', 'afternoon', 'evening']));
  });

  it('filters by the spec §3 course filter (club, duration, level, time of day, style, effect, type, keywords)', async () => {
    const q = async (params: string) =>
      (await s.call('GET', `/api/customers/classes/schedule?date=2026-11-21&${params}`)).body.data as any[];
    const all = await q('');
    expect((await q('clubId=2')).every((c) => c.clubId === 2)).toBe(true);
    expect((await q('courseTimelong=45')).every((c) => c.durationMin === 45)).toBe(true);
    expect((await q('level=advanced')).every((c) => c.difficulty === 'advanced')).toBe(true);
    const evening = await q('courseAt=evening');
    expect(evening.length).toBeGreaterThan(0);
    expect(evening.every((c) => c.timeOfDay === 'evening')).toBe(true);
    expect((await q('courseAt=morning')).length + (await q('courseAt=afternoon')).length + evening.length).toBe(all.length);
    const hatha = await q('catgory=hatha');
    expect(hatha.length).toBeGreaterThan(0);
    expect(hatha.every((c) => c.style === 'hatha')).toBe(true);
    expect((await q('ability=relaxation')).every((c) => c.effect === 'relaxation')).toBe(true);
    expect((await q('type=small-group')).every((c) => c.classType === 'small-group')).toBe(true);
    const lin = await q(`keywords=${encodeURIComponent('林美')}`);
    expect(lin.length).toBeGreaterThan(0);
    expect(lin.every((c) => c.teacherName === '林美')).toBe(true);
    expect(await q(`keywords=${encodeURIComponent('%_')}`)).toEqual([]);
  });

  it.each([
    ['date=2026-13-01', 'date'],
    ['date=tomorrow', 'date'],
    ['clubId=0', 'clubId'],
    ['courseTimelong=abc', 'courseTimelong'],
    ['level=expert', 'level'],
    ['courseAt=night', 'courseAt'],
    ['ability=magic', 'ability'],
    ['catgory=Hatha%20Yoga', 'catgory'],
  ])('refuses ?%s with 400 naming %s', async (query, field) => {
    const r = await s.call('GET', `/api/customers/classes/schedule?${query}`);
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ code: 70003, field });
  });

  it("shows the caller's own state per class: booked, queued with position", async () => {
    const [a, b] = [await newMember(s), await newMember(s)];
    const cls = await newClass(s, { capacity: 1, startsAt: sh('2026-11-21 22:00') });
    await book(s, a.token, cls.id, (await newCard(s, a.id)).id);
    await book(s, b.token, cls.id, (await newCard(s, b.id)).id);
    const find = async (token?: string) =>
      ((await s.call('GET', '/api/customers/classes/schedule?date=2026-11-21', { token })).body.data as any[]).find((c) => c.id === cls.id);
    expect(await find(a.token)).toMatchObject({ state: 'booked', bookingId: expect.any(Number) });
    expect(await find(b.token)).toMatchObject({ state: 'queued', queuePosition: 1 });
    expect(await find()).toMatchObject({ state: 'queueable', bookingId: null });
    expect(await find('not-a-token')).toMatchObject({ state: 'queueable' });
  });

  it('shows checked in and not checked in for the seeded past classes of member 2', async () => {
    const t = await tokenFor(s, level2.phone);
    const past = await s.call('GET', '/api/customers/classes/mine?scope=past', { token: t });
    const states = (past.body.data.list as any[]).map((b) => b.state);
    expect(states).toEqual(expect.arrayContaining(['checked_in', 'not_checked_in']));
    const up = await s.call('GET', '/api/customers/classes/mine', { token: t });
    expect(up.body.data).toMatchObject({ pagenum: 0, pagesize: 10 });
    expect(up.body.data.list[0]).toMatchObject({ state: 'booked', canCancel: true, class: { clubId: 1 } });
    const count = await s.call('GET', '/api/customers/classes/schedule/booked/count', { token: t });
    expect(count.body.data).toBe(up.body.data.total);
  });

  it('pages my bookings', async () => {
    const m = await newMember(s);
    const card = await newCard(s, m.id, { usesLeft: 10 });
    for (let h = 0; h < 3; h++) await book(s, m.token, (await newClass(s, { startsAt: sh(`2026-11-22 1${h}:00`) })).id, card.id);
    const p0 = await s.call('GET', '/api/customers/classes/mine?scope=upcoming&pagenum=0&pagesize=2', { token: m.token });
    const p1 = await s.call('GET', '/api/customers/classes/mine?scope=upcoming&pagenum=1&pagesize=2', { token: m.token });
    expect(p0.body.data).toMatchObject({ total: 3, pagenum: 0, pagesize: 2 });
    expect(p0.body.data.list).toHaveLength(2);
    expect(p1.body.data.list).toHaveLength(1);
    expect(p0.body.data.list[0].class.startsAt < p0.body.data.list[1].class.startsAt).toBe(true);
    expect((await s.call('GET', '/api/customers/classes/mine?scope=soon', { token: m.token })).body.field).toBe('scope');
    expect((await s.call('GET', '/api/customers/classes/mine')).status).toBe(401);
  });

  it('narrows my bookings to one Shanghai month for the calendar, whatever came after it', async () => {
    const m = await newMember(s);
    const card = await newCard(s, m.id, { usesLeft: 100 });
    // 30 Sept 23:30 Shanghai is September there (15:30 UTC); 1 Oct 00:30 is October
    const sept = await newClass(s, { startsAt: sh('2026-09-30 23:30'), durationMin: 45 });
    const oct = await newClass(s, { startsAt: sh('2026-10-01 00:30'), durationMin: 45 });
    for (const c of [sept, oct]) {
      await s.deps.db.insert(bookings).values({
        classId: c.id,
        accountId: m.id,
        cardId: card.id,
        state: 'checked_in',
        usesSpent: 1,
        createdAt: c.startsAt,
        bookedAt: c.startsAt,
      });
    }
    const nov = await book(s, m.token, (await newClass(s, { startsAt: sh('2026-11-22 12:00') })).id, card.id);
    const ids = async (q: string) =>
      ((await s.call('GET', `/api/customers/classes/mine?${q}`, { token: m.token })).body.data.list as { class: { id: number } }[]).map(
        (b) => b.class.id,
      );
    expect(await ids('scope=past&month=2026-09')).toEqual([sept.id]);
    expect(await ids('scope=past&month=2026-10')).toEqual([oct.id]);
    expect(await ids('scope=upcoming&month=2026-10')).toEqual([]);
    expect(await ids('scope=upcoming&month=2026-11')).toEqual([(await bookingRow(s, nov.body.data.bookingId)).classId]);
    for (const bad of ['2026-13', '2026-1', 'oct']) {
      expect((await s.call('GET', `/api/customers/classes/mine?scope=past&month=${bad}`, { token: m.token })).body.field, bad).toBe(
        'month',
      );
    }
  });

  it('gives a class detail with the club address; unknown 404, malformed 400', async () => {
    const r = await s.call('GET', '/api/customers/classes/detail?id=1');
    expect(r.status).toBe(200);
    expect(r.body.data).toMatchObject({ id: 1, clubAddress: expect.stringContaining('上海市'), classStatus: 'open' });
    expect((await s.call('GET', '/api/customers/classes/detail?id=999999')).status).toBe(404);
    expect((await s.call('GET', '/api/customers/classes/detail?id=x')).body.field).toBe('id');
    const en = await s.call('GET', '/api/customers/classes/detail?id=1', { headers: { cookie: 'lang=en' } });
    expect(en.body.data.clubAddress).toMatch(/District/);
  });

  it("lists member 2's seeded cards: every status and restriction", async () => {
    const t = await tokenFor(s, level2.phone);
    const cards = (await s.call('GET', '/api/customers/cards', { token: t })).body.data as any[];
    const statuses = new Set(cards.map((c) => c.status));
    for (const st of ['in_use', 'inactive', 'expired', 'frozen']) expect(statuses.has(st), st).toBe(true);
    expect(cards.some((c) => c.weekendOnly)).toBe(true);
    expect(cards.some((c) => c.usesLeft !== null && c.usesLeft < 5)).toBe(true);
    expect(cards.some((c) => c.usesLeft === null)).toBe(true);
    expect((await s.call('GET', '/api/customers/cards')).status).toBe(401);
  });

  it('tells which of my cards can book a class, why not (code), and the reminders', async () => {
    const t = await tokenFor(s, level2.phone);
    const cls = await newClass(s, { startsAt: sh('2026-11-21 19:00') }); // a Saturday evening
    const r = await s.call('GET', `/api/customers/classes/cards?classId=${cls.id}`, { token: t });
    expect(r.status).toBe(200);
    const byName = (name: string) => (r.body.data as any[]).find((c) => c.name === name);
    expect(byName('年卡')).toMatchObject({ usable: true, code: null, reminders: [] });
    expect(byName('礼品卡')).toMatchObject({ usable: true, reminders: ['will-activate', 'first-use'] });
    // uses spent already: no "first use" beside "few left"
    expect(byName('10次卡（即将用完）')).toMatchObject({ usable: true, reminders: expect.arrayContaining(['few-uses-left']) });
    expect(byName('10次卡（即将用完）').reminders).not.toContain('first-use');
    // usable cards first, those in use before one a booking would activate, the one lost first on top
    const list = r.body.data as Array<{ usable: boolean; status: string; validUntil: string | null }>;
    const usable = list.filter((c) => c.usable);
    expect(list.slice(0, usable.length)).toEqual(usable);
    expect(usable.findIndex((c) => c.status === 'inactive')).toBeGreaterThan(usable.findLastIndex((c) => c.status !== 'inactive'));
    const ends = usable.filter((c) => c.status !== 'inactive').map((c) => c.validUntil ?? '9999');
    expect(ends).toEqual([...ends].sort());
    expect(byName('季卡')).toMatchObject({ usable: false, code: 20005, message: expect.any(String) });
    expect(byName('10次卡（已冻结）')).toMatchObject({ usable: false, code: 20003 });
    expect(byName('闲时卡')).toMatchObject({ usable: false, code: 20012 });
    expect(byName('私教10节卡')).toMatchObject({ usable: false, code: 20010 });
    expect(byName('权益卡')).toMatchObject({ usable: false, code: 20020 });
    expect(byName('体验赠卡（送朋友）')).toMatchObject({ usable: false, code: 20031 });
    expect(byName('周末卡')).toMatchObject({ usable: true });
    const t1 = await tokenFor(s, level1.phone);
    const m1 = (await s.call('GET', `/api/customers/classes/cards?classId=${cls.id}`, { token: t1 })).body.data as any[];
    expect(m1.find((c) => c.name === '10次卡')).toMatchObject({
      usable: true,
      reminders: expect.arrayContaining(['few-uses-left', 'short-validity']),
    });
    expect((await s.call('GET', '/api/customers/classes/cards?classId=999999', { token: t })).status).toBe(404);
    expect((await s.call('GET', `/api/customers/classes/cards?classId=${cls.id}`)).status).toBe(401);
  });

  it('gives a calendar file for my booking: title, club address, start and end in Asia/Shanghai', async () => {
    const m = await newMember(s);
    const cls = await newClass(s, { startsAt: sh('2026-11-21 19:30'), durationMin: 75, title: '流瑜伽, 晚间', titleEn: 'Evening flow' });
    const r = await book(s, m.token, cls.id, (await newCard(s, m.id)).id);
    const res = await s.app.request(`/api/customers/classes/ics?bookingId=${r.body.data.bookingId}`, {
      headers: { 'authorization-token': m.token },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/calendar/);
    const text = await res.text();
    expect(text).toContain('BEGIN:VCALENDAR\r\n');
    expect(text).toContain('TZID:Asia/Shanghai');
    expect(text).toContain('DTSTART;TZID=Asia/Shanghai:20261121T193000');
    expect(text).toContain('DTEND;TZID=Asia/Shanghai:20261121T204500');
    expect(text).toContain('SUMMARY:流瑜伽\\, 晚间 · 静安寺旗舰店');
    expect(text).toMatch(/LOCATION:静安寺旗舰店\\, 上海市静安区/);
    for (const line of text.split('\r\n')) expect(Buffer.byteLength(line)).toBeLessThanOrEqual(75);
    expect((await s.call('GET', '/api/customers/classes/ics?bookingId=abc', { token: m.token })).body.field).toBe('bookingId');
  });

  it('gives the calendar file to a plain link: the token cookie is accepted like the header', async () => {
    const m = await newMember(s);
    const other = await newMember(s);
    const cls = await newClass(s, { startsAt: sh('2026-11-21 18:00') });
    const id = (await book(s, m.token, cls.id, (await newCard(s, m.id)).id)).body.data.bookingId;
    const res = await s.app.request(`/api/customers/classes/ics?bookingId=${id}`, { headers: { cookie: `lang=zh; token=${m.token}` } });
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('BEGIN:VCALENDAR');
    // another member's cookie finds nothing; a dead cookie is a 401
    expect(
      (await s.app.request(`/api/customers/classes/ics?bookingId=${id}`, { headers: { cookie: `token=${other.token}` } })).status,
    ).toBe(404);
    expect((await s.app.request(`/api/customers/classes/ics?bookingId=${id}`, { headers: { cookie: 'token=not-a-token' } })).status).toBe(
      401,
    );
  });

  it("marks a class beyond the caller's booking window not open yet, with the day it opens (level 1: tomorrow; a 7-day card: a week)", async () => {
    // Friday 2026-11-20: a level-1 member may book up to Saturday the 21st
    const m = await newMember(s, '1');
    await newCard(s, m.id);
    const sunday = await newClass(s, { startsAt: sh('2026-11-22 19:00') });
    const saturday = await newClass(s, { startsAt: sh('2026-11-21 19:00') });
    const detail = async (id: number, token?: string) =>
      (await s.call('GET', `/api/customers/classes/detail?id=${id}`, { token })).body.data;
    expect(await detail(sunday.id, m.token)).toMatchObject({ state: 'not-open', opensOn: '2026-11-21' });
    expect(await detail(saturday.id, m.token)).toMatchObject({ state: 'bookable', opensOn: null });
    // a visitor is not judged: the member's window is known only after login
    expect((await detail(sunday.id)).state).toBe('bookable');
    const sched = (await s.call('GET', '/api/customers/classes/schedule?date=2026-11-22', { token: m.token })).body.data as {
      id: number;
    }[];
    expect(sched.find((c) => c.id === sunday.id)).toMatchObject({ state: 'not-open', opensOn: '2026-11-21' });
    expect((await s.call('GET', '/api/customers/classes/window', { token: m.token })).body.data).toEqual({
      today: '2026-11-20',
      days: 1,
      openUntil: '2026-11-21',
    });
    expect((await s.call('GET', '/api/customers/classes/window')).body).toMatchObject({ code: 200, data: null });

    // the card's own window replaces the level's (spec §9 "card-specific windows of two and seven days")
    const w = await newMember(s, '1');
    await newCard(s, w.id, { bookingWindowDays: 7 });
    const nextFriday = await newClass(s, { startsAt: sh('2026-11-27 19:00') });
    const tooFar = await newClass(s, { startsAt: sh('2026-11-28 19:00') });
    expect((await detail(nextFriday.id, w.token)).state).toBe('bookable');
    expect(await detail(tooFar.id, w.token)).toMatchObject({ state: 'not-open', opensOn: '2026-11-21' });
    expect((await s.call('GET', '/api/customers/classes/window', { token: w.token })).body.data).toEqual({
      today: '2026-11-20',
      days: 7,
      openUntil: '2026-11-27',
    });
    // what the screen says is what booking does
    expect((await book(s, w.token, nextFriday.id, (await newCard(s, w.id, { bookingWindowDays: 7 })).id)).body.data.state).toBe('booked');
  });

  it('offers cancelling a seat or a queue place only until the class starts', async () => {
    const m = await newMember(s);
    const cls = await newClass(s, { startsAt: sh('2026-11-20 10:30') });
    const r = await book(s, m.token, cls.id, (await newCard(s, m.id)).id);
    const detail = async () => (await s.call('GET', `/api/customers/classes/detail?id=${cls.id}`, { token: m.token })).body.data;
    expect(await detail()).toMatchObject({ state: 'booked', bookingId: r.body.data.bookingId, canCancel: true, canCancelQueue: false });
    const before = s.clock.now();
    s.clock.set(sh('2026-11-20 10:45'));
    try {
      expect(await detail()).toMatchObject({ state: 'booked', canCancel: false, canCancelQueue: false });
    } finally {
      s.clock.set(before);
    }
  });

  it('documents every booking call in /api/openapi.json', async () => {
    const doc = (await s.call('GET', '/api/openapi.json')).body;
    for (const p of [
      '/api/customers/classes/schedule',
      '/api/customers/classes/detail',
      '/api/customers/classes/cards',
      '/api/customers/classes/book',
      '/api/customers/classes/cancel',
      '/api/customers/classes/queue/cancel',
      '/api/customers/classes/mine',
      '/api/customers/cards',
      '/api/customers/classes/ics',
      '/api/customers/classes/schedule/booked/count',
    ]) {
      expect(doc.paths[p], p).toBeDefined();
    }
  });
});
