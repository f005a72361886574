import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { activitySignups } from '../../../src/server/db/schema/index';
import { newMember } from '../orders/support';
import { startTestServer } from '../support/harness';
import { detail, newActivity, signUp } from './support';

/**
 * Activities (decision 033): the chain's activities paged, one's detail with its places,
 * and sign-up where an activity takes it, places counted like class seats (never over), every refusal.
 */
const s = await startTestServer({ seed: true });
const DAY = 86_400_000;
const taken = async (id: number) => (await s.deps.db.select().from(activitySignups).where(eq(activitySignups.activityId, id))).length;

describe('the activities list', () => {
  it('pages the live activities in order, each saying whether it takes sign-ups', async () => {
    const first = await s.call('GET', '/api/activity/goods?pagenum=0&pagesize=2');
    const second = await s.call('GET', '/api/activity/goods?pagenum=1&pagesize=2');
    const all = await s.call('GET', '/api/activity/goods?pagenum=0&pagesize=50');
    expect(first.body.data.list).toHaveLength(2);
    expect([...first.body.data.list, ...second.body.data.list].map((a: { id: number }) => a.id)).toEqual(
      all.body.data.list.slice(0, 4).map((a: { id: number }) => a.id),
    );
    expect(all.body.data.total).toBe(all.body.data.list.length);
    // the seeded meditation week takes 12 sign-ups; the flash sale none
    const places = Object.fromEntries(all.body.data.list.map((a: { title: string; places: number | null }) => [a.title, a.places]));
    expect(places['冬日冥想周']).toBe(12);
    expect(places['双十一限量次卡抢购']).toBeNull();
  });
});

describe('signing up', () => {
  it('takes a place, counted on the detail; the detail then says I have one and may not sign up again', async () => {
    const a = await newActivity(s, 3);
    const m = await newMember(s);
    expect((await detail(s, m.token, a.id)).body.data).toMatchObject({
      places: 3,
      placesLeft: 3,
      signedUp: false,
      signup: { allowed: true, code: null },
    });
    const r = await signUp(s, m.token, a.id);
    expect(r.status).toBe(200);
    expect(r.body.data).toMatchObject({ placesLeft: 2, signedUp: true, signup: { allowed: false, code: 70152 } });
    const again = await signUp(s, m.token, a.id);
    expect([again.status, again.body.code]).toEqual([409, 70152]);
    expect(await taken(a.id)).toBe(1);
  });

  it('never goes over the places (70151), and says so on the detail', async () => {
    const a = await newActivity(s, 2);
    for (let i = 0; i < 2; i++) expect((await signUp(s, (await newMember(s)).token, a.id)).status).toBe(200);
    const late = await newMember(s);
    const r = await signUp(s, late.token, a.id);
    expect([r.status, r.body.code]).toEqual([409, 70151]);
    expect(await taken(a.id)).toBe(2);
    expect((await detail(s, late.token, a.id)).body.data).toMatchObject({
      placesLeft: 0,
      signedUp: false,
      signup: { allowed: false, code: 70151 },
    });
  });

  it('refuses an activity that takes no sign-up (70150)', async () => {
    const a = await newActivity(s, null);
    const m = await newMember(s);
    const r = await signUp(s, m.token, a.id);
    expect([r.status, r.body.code]).toEqual([409, 70150]);
    expect((await detail(s, m.token, a.id)).body.data).toMatchObject({ places: null, placesLeft: null, signup: null });
    expect(await taken(a.id)).toBe(0);
  });

  it('refuses an activity that is over (70153), from its end on', async () => {
    const a = await newActivity(s, 5, 1);
    const m = await newMember(s);
    s.clock.advance(DAY - 1);
    expect((await detail(s, m.token, a.id)).body.data.signup).toEqual({ allowed: true, code: null });
    s.clock.advance(1);
    const r = await signUp(s, m.token, a.id);
    expect([r.status, r.body.code]).toEqual([409, 70153]);
    expect(await taken(a.id)).toBe(0);
    s.clock.advance(-DAY);
  });

  it('asks a visitor to log in (401; the detail says 70001), and an unknown activity is not found', async () => {
    const a = await newActivity(s, 5);
    expect((await signUp(s, undefined, a.id)).status).toBe(401);
    expect((await detail(s, undefined, a.id)).body.data.signup).toEqual({ allowed: false, code: 70001 });
    const m = await newMember(s);
    expect((await signUp(s, m.token, 99_999)).status).toBe(404);
    expect((await detail(s, m.token, 99_999)).status).toBe(404);
  });
});
