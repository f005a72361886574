import { describe, expect, it } from 'vitest';
import { greatCircleMetres } from '../../../src/server/gateways/maps';
import { startTestServer } from '../support/harness';
import { EN } from './support';

describe('clubs and teachers (GET /api/school/*)', async () => {
  const s = await startTestServer({ seed: true });

  it('lists at least three Shanghai clubs with coordinates, first id 1', async () => {
    const r = await s.call('GET', '/api/school/clubs');
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ code: 200, status: true });
    const clubs = r.body.data as any[];
    expect(clubs.length).toBeGreaterThanOrEqual(3);
    expect(clubs[0]).toMatchObject({ id: 1, city: '上海' });
    for (const c of clubs) {
      expect(c.lat).toBeGreaterThan(30.5);
      expect(c.lat).toBeLessThan(31.9);
      expect(c.lng).toBeGreaterThan(120.8);
      expect(c.lng).toBeLessThan(122.2);
      expect(c.address).toMatch(/上海市/);
      expect(c.coverImage).toMatch(/^\/api\/media\/club\/[a-z0-9-]+\.svg$/);
    }
  });

  it('answers in the request language (lang cookie, then Accept-Language)', async () => {
    const byCookie = await s.call('GET', '/api/school/clubs', { headers: EN });
    expect(byCookie.body.data[0].city).toBe('Shanghai');
    expect(byCookie.body.data[0].address).not.toMatch(/\p{Script=Han}/u);
    const byHeader = await s.call('GET', '/api/school/clubs', { headers: { 'accept-language': 'en-US,en;q=0.9' } });
    expect(byHeader.body.data[0].name).toBe(byCookie.body.data[0].name);
    const zh = await s.call('GET', '/api/school/clubs');
    expect(zh.body.data[0].name).toMatch(/\p{Script=Han}/u);
  });

  it('gives a club with its intro and teachers', async () => {
    const r = await s.call('GET', '/api/school/clubs/detail?id=1');
    expect(r.status).toBe(200);
    expect(r.body.data).toMatchObject({ id: 1, intro: expect.any(String) });
    expect(r.body.data.teachers.length).toBeGreaterThan(0);
    for (const t of r.body.data.teachers) expect(t.clubId).toBe(1);
  });

  it('answers 404 in the envelope for an unknown club', async () => {
    const r = await s.call('GET', '/api/school/clubs/detail?id=9999');
    expect(r.status).toBe(404);
    expect(r.body).toMatchObject({ code: 70004, status: false, data: null });
  });

  it.each([
    ['/api/school/clubs/detail', 'id'],
    ['/api/school/clubs/detail?id=abc', 'id'],
    ['/api/school/clubs/detail?id=0', 'id'],
    ['/api/school/clubs/detail?id=1.5', 'id'],
    ['/api/school/clubs/detail?id=99999999999', 'id'],
    ['/api/school/clubs/detail?id=1&id=2', 'id'],
    ['/api/school/clubs/distance?lat=91&lng=121', 'lat'],
    ['/api/school/clubs/distance?lat=31.2&lng=east', 'lng'],
    ['/api/school/clubs/distance?lng=121.4', 'lat'],
    ['/api/school/teachers?clubId=x', 'clubId'],
    ['/api/school/teachers?style=%27%3B%20drop', 'style'],
    ['/api/school/teachers/detail?id=-1', 'id'],
  ])('refuses bad query %s with 400 naming %s', async (path, field) => {
    const r = await s.call('GET', path);
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ code: 70003, status: false, field });
    expect(typeof r.body.message).toBe('string');
  });

  it('gives metres from a point to every club in list order (local maps adapter)', async () => {
    const at = { lat: 31.2304, lng: 121.4737 }; // People's Square
    const [clubs, r] = await Promise.all([
      s.call('GET', '/api/school/clubs'),
      s.call('GET', `/api/school/clubs/distance?lat=${at.lat}&lng=${at.lng}`),
    ]);
    expect(r.status).toBe(200);
    expect(r.body.data.map((d: any) => d.id)).toEqual(clubs.body.data.map((c: any) => c.id));
    r.body.data.forEach((d: any, i: number) => {
      const c = clubs.body.data[i];
      expect(d.distance).toBe(greatCircleMetres(at, { lat: c.lat, lng: c.lng }));
      expect(Number.isInteger(d.distance)).toBe(true);
    });
    // Jing'an Temple is about 2.8 km west of People's Square
    expect(r.body.data[0].distance).toBeGreaterThan(2000);
    expect(r.body.data[0].distance).toBeLessThan(4000);
  });

  it('falls back to the straight line when the maps provider fails', async () => {
    const real = s.deps.gateways.maps;
    s.deps.gateways.maps = { distances: async () => Promise.reject(new Error('provider down')) };
    try {
      const r = await s.call('GET', '/api/school/clubs/distance?lat=31.2304&lng=121.4737');
      expect(r.status).toBe(200);
      expect(r.body.data[0].distance).toBeGreaterThan(0);
      expect(s.log.lines.some((l) => l.level === 'warn' && l.msg.includes('maps'))).toBe(true);
    } finally {
      s.deps.gateways.maps = real;
    }
  });

  it('lists eight or more teachers with photos, filterable by club and style', async () => {
    const all = await s.call('GET', '/api/school/teachers');
    expect(all.status).toBe(200);
    expect(all.body.data.length).toBeGreaterThanOrEqual(8);
    expect(all.body.data[0]).toMatchObject({ id: 1, clubId: 1, clubName: expect.any(String) });
    for (const t of all.body.data) expect(t.photo).toMatch(/^\/api\/media\/avatar\/[a-z0-9-]+\.svg$/);
    const club2 = await s.call('GET', '/api/school/teachers?clubId=2');
    expect(club2.body.data.length).toBeGreaterThan(0);
    expect(club2.body.data.every((t: any) => t.clubId === 2)).toBe(true);
    const yin = await s.call('GET', '/api/school/teachers?style=yin');
    expect(yin.body.data.length).toBeGreaterThan(0);
    expect(yin.body.data.every((t: any) => t.styles.includes('yin'))).toBe(true);
    const none = await s.call('GET', '/api/school/teachers?style=no-such-style');
    expect(none.body.data).toEqual([]);
  });

  it("gives a teacher's bio in both languages with the teacher's club", async () => {
    const zh = await s.call('GET', '/api/school/teachers/detail?id=1');
    expect(zh.status).toBe(200);
    expect(zh.body.data.bio).toMatch(/\p{Script=Han}/u);
    expect(zh.body.data.club).toMatchObject({ id: 1 });
    const en = await s.call('GET', '/api/school/teachers/detail?id=1', { headers: EN });
    expect(en.body.data.name).toBe('Lin Mei');
    expect(en.body.data.bio).not.toMatch(/\p{Script=Han}/u);
    expect(en.body.data.bio.length).toBeGreaterThan(20);
  });

  it('answers 404 for an unknown teacher', async () => {
    const r = await s.call('GET', '/api/school/teachers/detail?id=424242');
    expect(r.status).toBe(404);
    expect(r.body).toMatchObject({ code: 70004, status: false });
  });
});
