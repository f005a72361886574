import { describe, expect, it } from 'vitest';
import { CARD_TYPES, CLASS_TYPES, DICT_TYPES } from '../../../src/domain/catalog';
import { startTestServer } from '../support/harness';
import { EN, level1, level2, tokenFor } from './support';
import { newClass } from '../booking/support';

describe('home page calls', async () => {
  const s = await startTestServer({ seed: true });

  describe('GET /api/index/home/banner', () => {
    it('lists active banners in order with images and app links', async () => {
      const r = await s.call('GET', '/api/index/home/banner');
      expect(r.status).toBe(200);
      expect(r.body).toMatchObject({ code: 200, status: true });
      expect(r.body.data.length).toBe(3);
      expect(r.body.data[0]).toMatchObject({ id: 1, link: '/event11', image: expect.stringMatching(/^\/api\/media\/banner\//) });
      expect(r.body.data.map((b: any) => b.title)).not.toContain('夏季活动（已下线）');
    });
  });

  describe('GET /api/sys/notification', () => {
    it('gives a visitor the system notices only, newest first', async () => {
      const r = await s.call('GET', '/api/sys/notification');
      expect(r.status).toBe(200);
      const list = r.body.data as any[];
      expect(list.length).toBe(3);
      expect(list.every((n) => n.personal === false)).toBe(true);
      const times = list.map((n) => Date.parse(n.createdAt));
      expect([...times].sort((a, b) => b - a)).toEqual(times);
    });

    it("adds the member's own notices with a valid token, never another member's", async () => {
      const t1 = await tokenFor(s, level1.phone);
      const t2 = await tokenFor(s, level2.phone);
      const r1 = await s.call('GET', '/api/sys/notification', { token: t1 });
      const r2 = await s.call('GET', '/api/sys/notification', { token: t2 });
      const own1 = r1.body.data.filter((n: any) => n.personal);
      const own2 = r2.body.data.filter((n: any) => n.personal);
      expect(own1.length).toBe(2);
      expect(own2.length).toBe(1);
      expect(own1.map((n: any) => n.id)).not.toContain(own2[0].id);
      expect(own1.some((n: any) => n.read)).toBe(true);
    });

    it('treats a bad token as a visitor (public call, no 401)', async () => {
      const r = await s.call('GET', '/api/sys/notification', { token: 'not-a-token' });
      expect(r.status).toBe(200);
      expect(r.body.data.every((n: any) => !n.personal)).toBe(true);
    });

    it('answers in English', async () => {
      const r = await s.call('GET', '/api/sys/notification', { headers: EN });
      for (const n of r.body.data) expect(`${n.title} ${n.body}`).not.toMatch(/\p{Script=Han}/u);
    });
  });

  describe('GET /api/activity/goods', () => {
    it('gives page 0 of 3 by default (spec §9), live activities only', async () => {
      const r = await s.call('GET', '/api/activity/goods');
      expect(r.status).toBe(200);
      expect(r.body.data).toMatchObject({ pagenum: 0, pagesize: 3, total: 4 });
      expect(r.body.data.list.length).toBe(3);
      const now = s.clock.now().getTime();
      for (const a of r.body.data.list) expect(Date.parse(a.endsAt)).toBeGreaterThan(now);
    });

    it('pages on', async () => {
      const r = await s.call('GET', '/api/activity/goods?pagenum=1&pagesize=3');
      expect(r.body.data).toMatchObject({ pagenum: 1, pagesize: 3, total: 4 });
      expect(r.body.data.list.length).toBe(1);
      const far = await s.call('GET', '/api/activity/goods?pagenum=50');
      expect(far.body.data.list).toEqual([]);
    });

    it('hides an activity once it has ended (injected clock)', async () => {
      const start = s.clock.now();
      s.clock.advance(12 * 86_400_000); // the flash sale ends 11 days after the seed's "now"
      try {
        const r = await s.call('GET', '/api/activity/goods?pagesize=10');
        expect(r.body.data.total).toBe(3);
        expect(r.body.data.list.map((a: any) => a.id)).not.toContain(1);
      } finally {
        s.clock.set(start);
      }
    });

    it.each([
      ['pagesize=0', 'pagesize'],
      ['pagesize=51', 'pagesize'],
      ['pagesize=two', 'pagesize'],
      ['pagenum=-1', 'pagenum'],
      ['pagenum=0.5', 'pagenum'],
    ])('refuses %s with 400 naming %s', async (q, field) => {
      const r = await s.call('GET', `/api/activity/goods?${q}`);
      expect(r.status).toBe(400);
      expect(r.body).toMatchObject({ code: 70003, status: false, field });
    });

    it('gives one activity with its body, 404 for an unknown one', async () => {
      const r = await s.call('GET', '/api/activity/detail?id=1', { headers: EN });
      expect(r.status).toBe(200);
      expect(r.body.data).toMatchObject({ id: 1, title: 'Singles Day flash sale', goodsId: expect.any(Number) });
      expect(r.body.data.body.length).toBeGreaterThan(20);
      const missing = await s.call('GET', '/api/activity/detail?id=777');
      expect(missing.status).toBe(404);
    });
  });

  describe('GET /api/index/home/search', () => {
    it('finds clubs, teachers, goods and activities by Chinese keywords', async () => {
      const r = await s.call('GET', `/api/index/home/search?keywords=${encodeURIComponent('静安')}`);
      expect(r.status).toBe(200);
      expect(r.body.data.clubs.map((c: any) => c.id)).toEqual([1]);
      const t = await s.call('GET', `/api/index/home/search?keywords=${encodeURIComponent('林美')}`);
      expect(t.body.data.teachers).toHaveLength(1);
      const g = await s.call('GET', `/api/index/home/search?keywords=${encodeURIComponent('次卡')}`);
      expect(g.body.data.goods.length).toBeGreaterThan(0);
      const a = await s.call('GET', `/api/index/home/search?keywords=${encodeURIComponent('冥想')}`);
      expect(a.body.data.activities.length).toBeGreaterThan(0);
    });

    it('finds by English keywords too, case-insensitively, answering in the request language', async () => {
      const r = await s.call('GET', '/api/index/home/search?keywords=priya');
      expect(r.body.data.teachers).toHaveLength(1);
      expect(r.body.data.teachers[0].name).toBe('普丽娅');
      const en = await s.call('GET', '/api/index/home/search?keywords=ASHTANGA', { headers: EN });
      expect(en.body.data.goods.some((g: any) => g.name === 'Ashtanga weekend intensive')).toBe(true);
      expect(en.body.data.activities.length).toBeGreaterThan(0);
    });

    it("finds the week's classes by style, class type, title and teacher (瑜伽, 阴瑜伽, 流瑜伽, Yin): not started, the title's matches first, then by start", async () => {
      const search = async (k: string, headers: Record<string, string> = {}) =>
        (await s.call('GET', `/api/index/home/search?keywords=${encodeURIComponent(k)}`, { headers })).body.data.classes as Array<{
          id: number;
          title: string;
          style: string;
          teacherName: string | null;
          startsAt: string;
          state: string;
        }>;
      const now = s.clock.now().getTime();
      const week = now + 7 * 86_400_000;
      for (const k of ['瑜伽', '阴瑜伽', '流瑜伽']) {
        const found = await search(k);
        expect(found.length, k).toBeGreaterThan(0);
        for (const c of found)
          expect(Date.parse(c.startsAt) > now && Date.parse(c.startsAt) < week, `${k}: ${c.startsAt} within the week ahead`).toBe(true);
      }
      // a style's name finds its classes whatever their title says, after the titles that say it
      const quiet = await newClass(s, {
        style: 'yin',
        title: '晨间静心',
        titleEn: 'Morning quiet',
        teacherId: null,
        startsAt: new Date(now + 86_400_000),
      });
      const yin = await search('阴瑜伽');
      expect(yin.map((c) => c.id)).toContain(quiet.id);
      expect(yin.findIndex((c) => c.id === quiet.id)).toBeGreaterThanOrEqual(yin.filter((c) => c.title.includes('阴瑜伽')).length);
      // and a class type's name its classes
      const oneToOne = await newClass(s, {
        classType: 'private',
        style: 'hatha',
        title: '一对一',
        titleEn: 'One to one',
        teacherId: null,
        startsAt: new Date(now + 2 * 86_400_000),
      });
      const privates = (await search('私教课')) as unknown as Array<{ id: number; classType: string; title: string }>;
      expect(privates.map((c) => c.id)).toContain(oneToOne.id);
      expect(privates.every((c) => c.classType === 'private' || c.title.includes('私教课'))).toBe(true);
      expect(yin.every((c) => c.style === 'yin' || c.title.includes('阴瑜伽') || (c.teacherName ?? '').includes('阴瑜伽'))).toBe(true);
      expect(yin.some((c) => c.style === 'yin')).toBe(true);
      const yinEn = await search('yin', EN);
      expect(yinEn.map((c) => c.id)).toEqual(
        expect.arrayContaining(
          yin
            .filter((c) => c.style === 'yin')
            .map((c) => c.id)
            .slice(0, 1),
        ),
      );
      // a teacher's name finds the classes they teach, in start order
      const lin = await search('林美');
      expect(lin.length).toBeGreaterThan(0);
      expect(lin.every((c) => c.teacherName === '林美')).toBe(true);
      expect(lin.map((c) => c.startsAt)).toEqual([...lin.map((c) => c.startsAt)].sort());
      // the visitor sees each class's state as on the schedule
      expect(lin.every((c) => ['bookable', 'queueable', 'full', 'not-open'].includes(c.state))).toBe(true);
      // titles that hold the words come before classes found by their style or teacher
      const mixed = await search('流瑜伽');
      const firstOther = mixed.findIndex((c) => !c.title.includes('流瑜伽'));
      if (firstOther >= 0) expect(mixed.slice(firstOther).some((c) => c.title.includes('流瑜伽'))).toBe(false);
      expect(mixed.length).toBeLessThanOrEqual(20);
    });

    it('treats % and _ literally and leaves off-shelf goods out', async () => {
      const pct = await s.call('GET', '/api/index/home/search?keywords=%25');
      expect(pct.body.data).toEqual({ classes: [], clubs: [], teachers: [], goods: [], activities: [] });
      const retired = await s.call('GET', `/api/index/home/search?keywords=${encodeURIComponent('已下架')}`);
      expect(retired.body.data.goods).toEqual([]);
    });

    it('shows member prices in results only with a token', async () => {
      const q = `/api/index/home/search?keywords=${encodeURIComponent('年卡')}`;
      const visitor = await s.call('GET', q);
      expect(visitor.body.data.goods[0]).not.toHaveProperty('memberPriceCents');
      const member = await s.call('GET', q, { token: await tokenFor(s, level2.phone) });
      expect(member.body.data.goods[0].memberPriceCents).toEqual(expect.any(Number));
    });

    it.each([[''], ['%20%20'], ['x'.repeat(51)]])('refuses keywords "%s" with 400 naming keywords', async (k) => {
      const r = await s.call('GET', `/api/index/home/search?keywords=${k}`);
      expect(r.status).toBe(400);
      expect(r.body.field).toBe('keywords');
    });

    it('refuses a missing keywords with 400', async () => {
      const r = await s.call('GET', '/api/index/home/search');
      expect(r.status).toBe(400);
      expect(r.body.field).toBe('keywords');
    });
  });

  describe('GET /api/index/home/dict/select', () => {
    it('gives every card type of spec §3 with labels in the request language', async () => {
      const zh = await s.call('GET', '/api/index/home/dict/select?type=cardType');
      expect(zh.status).toBe(200);
      expect(zh.body.data.map((d: any) => d.value)).toEqual(CARD_TYPES.map((c) => c.value));
      expect(zh.body.data[0].label).toBe(CARD_TYPES[0]!.zh);
      const en = await s.call('GET', '/api/index/home/dict/select?type=cardType', { headers: EN });
      expect(en.body.data[0].label).toBe(CARD_TYPES[0]!.en);
    });

    it('gives class types and styles from the database, keyed like the domain', async () => {
      const ct = await s.call('GET', '/api/index/home/dict/select?type=classType');
      expect(ct.body.data.map((d: any) => d.value)).toEqual(CLASS_TYPES.map((c) => c.value));
      const st = await s.call('GET', '/api/index/home/dict/select?type=style', { headers: EN });
      expect(st.body.data).toContainEqual({ value: 'hatha', label: 'Hatha' });
    });

    it.each(DICT_TYPES.map((t) => [t]))('answers a non-empty %s dictionary', async (type) => {
      const r = await s.call('GET', `/api/index/home/dict/select?type=${type}`);
      expect(r.status).toBe(200);
      expect(r.body.data.length).toBeGreaterThan(0);
    });

    it('refuses an unknown type with 400 naming type', async () => {
      for (const q of ['?type=colour', '']) {
        const r = await s.call('GET', `/api/index/home/dict/select${q}`);
        expect(r.status).toBe(400);
        expect(r.body.field).toBe('type');
      }
    });
  });
});
