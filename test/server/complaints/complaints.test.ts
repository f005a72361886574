import { desc, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { clubs, complaintImages, notifications } from '../../../src/server/db/schema/index';
import { runDueJobs } from '../../../src/server/jobs/runner';
import { newMember, newStaff } from '../orders/support';
import { startTestServer } from '../support/harness';
import {
  assignClubs,
  complaintDetail,
  complaintRow,
  fileComplaint,
  JPEG,
  myComplaints,
  rate,
  reply,
  staffQueue,
  uploadImage,
} from './support';

/**
 * Complaints (decision 033): every rule and refusal of filing, replying and rating, the
 * staff queue by club with the 48-hour flag, and another member's complaint answering as not found.
 */
const s = await startTestServer({ seed: true });
const HOUR = 3_600_000;
const [clubA, clubB] = (await s.deps.db.select({ id: clubs.id }).from(clubs).orderBy(clubs.id)).map((c) => c.id);

/** Every job due now (claimed ten at a time). */
const runJobs = async () => {
  while ((await runDueJobs(s.deps)) > 0);
};

const filed = async (token: string, body: Record<string, unknown> = {}) => {
  const r = await fileComplaint(s, token, { content: '更衣室太冷了', ...body });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.data as { id: number; state: string };
};

describe('filing a complaint', () => {
  it('keeps the content trimmed, the club and my photos; it shows as not replied and not rated', async () => {
    const m = await newMember(s);
    const img = (await uploadImage(s, m.token)).body.data.imageId as number;
    const r = await fileComplaint(s, m.token, { content: '  前台态度不好  ', clubId: clubA, imageIds: [img] });
    expect(r.status).toBe(200);
    expect(r.body.data).toMatchObject({
      state: 'filed',
      content: '前台态度不好',
      clubId: clubA,
      imageIds: [img],
      replied: false,
      reply: null,
      satisfied: null,
      canRate: false,
    });
    expect(r.body.data.clubName).toBeTruthy();
    const list = (await myComplaints(s, m.token)).body.data;
    expect(list.map((c: { id: number }) => c.id)).toEqual([r.body.data.id]);
    const photo = await s.app.request(`/api/customers/complaints/image/${img}`, { headers: { 'authorization-token': m.token } });
    expect(photo.status).toBe(200);
    expect(Buffer.from(await photo.arrayBuffer())).toEqual(JPEG);
  });

  it('needs no club and no photo', async () => {
    const m = await newMember(s);
    expect(await filed(m.token)).toMatchObject({ state: 'filed', clubId: null, clubName: null, imageIds: [] });
  });

  it.each([[''], ['   '], ['\n\t']])('refuses empty content %j (70140)', async (content) => {
    const m = await newMember(s);
    const r = await fileComplaint(s, m.token, { content });
    expect([r.status, r.body.code]).toEqual([400, 70140]);
    expect((await myComplaints(s, m.token)).body.data).toEqual([]);
  });

  it('refuses content over 500 characters (70003)', async () => {
    const m = await newMember(s);
    const r = await fileComplaint(s, m.token, { content: '长'.repeat(501) });
    expect([r.status, r.body.code]).toEqual([400, 70003]);
    expect((await fileComplaint(s, m.token, { content: '长'.repeat(500) })).status).toBe(200);
  });

  it('refuses a club that does not exist (70003 naming clubId)', async () => {
    const m = await newMember(s);
    const r = await fileComplaint(s, m.token, { content: '太吵', clubId: 99_999 });
    expect([r.status, r.body.code]).toEqual([400, 70003]);
    expect(JSON.stringify(r.body)).toContain('clubId');
  });

  it('takes at most 3 photos (70142)', async () => {
    const m = await newMember(s);
    const ids: number[] = [];
    for (let i = 0; i < 4; i++) ids.push((await uploadImage(s, m.token)).body.data.imageId);
    const r = await fileComplaint(s, m.token, { content: '太吵', imageIds: ids });
    expect([r.status, r.body.code]).toEqual([400, 70142]);
    expect((await fileComplaint(s, m.token, { content: '太吵', imageIds: ids.slice(0, 3) })).status).toBe(200);
  });

  it("refuses another member's photo and a photo already filed with a complaint (70143), leaving nothing half filed", async () => {
    const m = await newMember(s);
    const other = await newMember(s);
    const theirs = (await uploadImage(s, other.token)).body.data.imageId as number;
    const mine = (await uploadImage(s, m.token)).body.data.imageId as number;
    const r = await fileComplaint(s, m.token, { content: '太吵', imageIds: [mine, theirs] });
    expect([r.status, r.body.code]).toEqual([400, 70143]);
    const [img] = await s.deps.db.select().from(complaintImages).where(eq(complaintImages.id, mine));
    expect(img!.complaintId).toBeNull();
    await filed(m.token, { imageIds: [mine] });
    const again = await fileComplaint(s, m.token, { content: '还是太吵', imageIds: [mine] });
    expect([again.status, again.body.code]).toEqual([400, 70143]);
    const theirImage = await s.app.request(`/api/customers/complaints/image/${theirs}`, { headers: { 'authorization-token': m.token } });
    expect(theirImage.status).toBe(404);
  });

  it('refuses an image too large (70009) and one that is not an image (70047)', async () => {
    const m = await newMember(s);
    const big = await uploadImage(s, m.token, Buffer.concat([JPEG, Buffer.alloc(600 * 1024)]));
    expect([big.status, big.body.code]).toEqual([413, 70009]);
    const text = await uploadImage(s, m.token, Buffer.from('not an image at all'));
    expect([text.status, text.body.code]).toEqual([415, 70047]);
  });

  it('needs a login (401)', async () => {
    expect((await s.call('POST', '/api/customers/complaints', { body: { content: 'x' } })).status).toBe(401);
    expect((await s.call('GET', '/api/customers/complaints')).status).toBe(401);
  });
});

describe("another member's complaint", () => {
  it('answers as not found when read or rated', async () => {
    const m = await newMember(s);
    const other = await newMember(s);
    const c = await filed(m.token);
    const staff = await newStaff(s);
    expect((await reply(s, staff.token, c.id, '已处理')).status).toBe(200);
    expect((await complaintDetail(s, other.token, c.id)).status).toBe(404);
    const r = await rate(s, other.token, c.id, false);
    expect([r.status, r.body.code]).toEqual([404, 70004]);
    expect((await complaintRow(s, c.id)).state).toBe('replied');
    expect((await myComplaints(s, other.token)).body.data).toEqual([]);
  });
});

describe('replying and rating', () => {
  it('staff reply once; the member is notified, reads it and rates it once', async () => {
    const m = await newMember(s);
    const c = await filed(m.token);
    const staff = await newStaff(s);
    expect((await rate(s, m.token, c.id, true)).body.code).toBe(70141);
    const r = await reply(s, staff.token, c.id, '  已经调高了温度  ');
    expect(r.status).toBe(200);
    expect(r.body.data).toMatchObject({ state: 'replied', reply: '已经调高了温度', repliedBy: staff.id });
    const [notice] = await s.deps.db.select().from(notifications).where(eq(notifications.accountId, m.id)).orderBy(desc(notifications.id));
    expect(notice!.body).toContain('已经调高了温度');
    expect(notice!.bodyEn).toContain('已经调高了温度');
    expect(notice!.titleEn).not.toBe(notice!.title);
    expect((await complaintDetail(s, m.token, c.id)).body.data).toMatchObject({
      replied: true,
      reply: '已经调高了温度',
      canRate: true,
      satisfied: null,
    });
    const again = await reply(s, staff.token, c.id, '再说一次');
    expect([again.status, again.body.code]).toEqual([409, 70141]);
    const rated = await rate(s, m.token, c.id, false);
    expect(rated.body.data).toMatchObject({ state: 'unsatisfied', satisfied: false, canRate: false });
    const twice = await rate(s, m.token, c.id, true);
    expect([twice.status, twice.body.code]).toEqual([409, 70141]);
    expect((await complaintRow(s, c.id)).state).toBe('unsatisfied');
  });

  it('a satisfied member is kept as satisfied', async () => {
    const m = await newMember(s);
    const c = await filed(m.token);
    await reply(s, (await newStaff(s)).token, c.id, '抱歉');
    expect((await rate(s, m.token, c.id, true)).body.data).toMatchObject({ state: 'satisfied', satisfied: true });
  });

  it('refuses an empty reply (70144) and a member replying (403)', async () => {
    const m = await newMember(s);
    const c = await filed(m.token);
    const r = await reply(s, (await newStaff(s)).token, c.id, '   ');
    expect([r.status, r.body.code]).toEqual([400, 70144]);
    expect((await reply(s, m.token, c.id, '我自己回复')).status).toBe(403);
    expect((await staffQueue(s, m.token)).status).toBe(403);
    expect((await complaintRow(s, c.id)).state).toBe('filed');
  });

  it('an unknown complaint is not found (404)', async () => {
    expect((await reply(s, (await newStaff(s)).token, 99_999, '好的')).status).toBe(404);
  });
});

describe('the staff queue', () => {
  it("shows a staff member their clubs' complaints and those naming no club; another club's is not found to them", async () => {
    const m = await newMember(s);
    const ofA = await filed(m.token, { clubId: clubA });
    const ofB = await filed(m.token, { clubId: clubB });
    const ofNone = await filed(m.token);
    const staffA = await newStaff(s);
    await assignClubs(s, staffA.id, [clubA!]);
    const ids = (await staffQueue(s, staffA.token)).body.data.map((c: { id: number }) => c.id);
    expect(ids).toContain(ofA.id);
    expect(ids).toContain(ofNone.id);
    expect(ids).not.toContain(ofB.id);
    expect((await reply(s, staffA.token, ofB.id, '不归我管')).status).toBe(404);
    expect((await complaintRow(s, ofB.id)).state).toBe('filed');
    const chain = await newStaff(s);
    expect((await staffQueue(s, chain.token)).body.data.map((c: { id: number }) => c.id)).toContain(ofB.id);
    expect((await reply(s, staffA.token, ofA.id, '已处理')).status).toBe(200);
    expect((await staffQueue(s, staffA.token)).body.data.map((c: { id: number }) => c.id)).not.toContain(ofA.id);
  });

  it('flags a complaint unanswered for 48 hours and lists it first; one answered in time is never flagged', async () => {
    const m = await newMember(s);
    const staff = await newStaff(s);
    await assignClubs(s, staff.id, [clubB!]);
    const old = await filed(m.token, { clubId: clubB });
    const answered = await filed(m.token, { clubId: clubB });
    s.clock.advance(HOUR);
    const newer = await filed(m.token, { clubId: clubB });
    await reply(s, staff.token, answered.id, '马上处理');
    s.clock.advance(47 * HOUR - 1);
    await runJobs();
    expect((await complaintRow(s, old.id)).state).toBe('filed');
    s.clock.advance(1);
    await runJobs();
    expect(await complaintRow(s, old.id)).toMatchObject({ state: 'overdue', overdueAt: s.clock.now() });
    expect((await complaintRow(s, newer.id)).state).toBe('filed');
    expect((await complaintRow(s, answered.id)).state).toBe('replied');
    // earlier tests' complaints are in this queue too (flagged, older): all flagged ones come first, and this test's in that order
    const queue = (await staffQueue(s, staff.token)).body.data as Array<{ id: number; overdue: boolean; clubId: number | null }>;
    expect(queue.findIndex((c) => !c.overdue)).toBe(queue.findLastIndex((c) => c.overdue) + 1);
    expect(queue.filter((c) => [old.id, answered.id, newer.id].includes(c.id)).map((c) => [c.id, c.overdue])).toEqual([
      [old.id, true],
      [newer.id, false],
    ]);
    // the member still sees it as not replied; a reply still goes through
    expect((await complaintDetail(s, m.token, old.id)).body.data).toMatchObject({ state: 'overdue', replied: false, canRate: false });
    expect((await reply(s, staff.token, old.id, '抱歉回复晚了')).body.data).toMatchObject({ state: 'replied', overdue: true });
    s.clock.advance(HOUR);
    await runJobs();
    expect((await complaintRow(s, newer.id)).state).toBe('overdue');
  });
});
