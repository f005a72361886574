import { describe, expect, it } from 'vitest';
import { accounts, sessions } from '../../../src/server/db/schema/index';
import { hashSecret, newSecret } from '../../../src/server/services/auth-tokens';
import { startTestServer, type TestServer } from '../support/harness';
import { DAY, newMember } from './support';

/** The smallest real images of each accepted type (and their magic bytes). */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=', 'base64');
const JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(200, 1), Buffer.from([0xff, 0xd9])]);
const WEBP = Buffer.concat([Buffer.from('RIFF'), Buffer.from([0x1a, 0, 0, 0]), Buffer.from('WEBPVP8 '), Buffer.alloc(20, 2)]);

let n = 0;
async function newStaff(s: TestServer) {
  const now = s.clock.now();
  const [a] = await s.deps.db
    .insert(accounts)
    .values({ phone: `1350000${String(++n).padStart(4, '0')}`, level: '2', role: 'staff', createdAt: now })
    .returning({ id: accounts.id });
  const token = newSecret();
  await s.deps.db
    .insert(sessions)
    .values({ accountId: a!.id, tokenHash: hashSecret(token), createdAt: now, expiresAt: new Date(now.getTime() + 30 * DAY) });
  return { id: a!.id, token };
}

const upload = (s: TestServer, token: string | undefined, bytes: Buffer | string) =>
  s.call('POST', '/api/customers/photo', { token, body: { image: typeof bytes === 'string' ? bytes : bytes.toString('base64') } });
const status = async (s: TestServer, token: string) => (await s.call('GET', '/api/customers/photo', { token })).body.data;
const review = (s: TestServer, token: string, id: number, body: unknown) =>
  s.call('POST', `/api/staff/photos/${id}/review`, { token, body });

describe('photo review (spec §4: under review, rejected, passed; decision 007)', async () => {
  const s = await startTestServer();

  it('none → under review → rejected with a reason → uploaded again → passed; then no more uploads', async () => {
    const m = await newMember(s);
    const staff = await newStaff(s);
    expect(await status(s, m.token)).toMatchObject({ status: 'none', canUpload: true, photoId: null });

    const first = await upload(s, m.token, PNG);
    expect(first.status).toBe(200);
    expect(first.body.data).toMatchObject({ status: 'reviewing', canUpload: false });
    // under review: a second upload goes through the front desk
    const again = await upload(s, m.token, JPEG);
    expect(again.status).toBe(409);
    expect(again.body.code).toBe(70045);

    // staff see it waiting, with the member's phone, and look at it
    const queue = (await s.call('GET', '/api/staff/photos', { token: staff.token })).body.data as { id: number; accountId: number }[];
    const mine = queue.find((p) => p.accountId === m.id)!;
    expect(mine.id).toBe(first.body.data.photoId);
    const img = await s.app.request(`/api/staff/photos/${mine.id}/image`, { headers: { 'authorization-token': staff.token } });
    expect(img.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await img.arrayBuffer()).equals(PNG)).toBe(true);

    // a rejection needs a reason, and the member reads it
    expect((await review(s, staff.token, mine.id, { decision: 'reject' })).body.field).toBe('reason');
    expect((await review(s, staff.token, mine.id, { decision: 'reject', reason: '请上传正面免冠照片' })).body.data).toEqual({
      photoId: mine.id,
      state: 'rejected',
    });
    expect(await status(s, m.token)).toMatchObject({ status: 'rejected', reason: '请上传正面免冠照片', canUpload: true });
    // decided once
    expect((await review(s, staff.token, mine.id, { decision: 'pass' })).body.code).toBe(70046);

    // uploaded again (a JPEG with a data: URL prefix), then passed
    const second = await upload(s, m.token, `data:image/jpeg;base64,${JPEG.toString('base64')}`);
    expect(second.body.data).toMatchObject({ status: 'reviewing' });
    expect(second.body.data.photoId).not.toBe(mine.id);
    expect((await review(s, staff.token, second.body.data.photoId, { decision: 'pass' })).body.data.state).toBe('passed');
    expect(await status(s, m.token)).toMatchObject({ status: 'passed', reason: null, canUpload: false });
    expect((await upload(s, m.token, WEBP)).body.code).toBe(70045);

    // the member's own image, also by the token cookie (an <img> on the screen)
    const own = await s.app.request('/api/customers/photo/image', { headers: { cookie: `token=${m.token}` } });
    expect(own.headers.get('content-type')).toBe('image/jpeg');
  });

  it('refuses an image too large (413, 70009), a file that is not JPEG/PNG/WebP (415, 70047), and bad base64 (400 naming the field)', async () => {
    const m = await newMember(s);
    const big = Buffer.concat([JPEG, Buffer.alloc(512 * 1024)]);
    const r = await upload(s, m.token, big);
    expect(r.status).toBe(413);
    expect(r.body).toMatchObject({ code: 70009, field: 'image' });
    const gif = await upload(s, m.token, Buffer.from('GIF89a....'));
    expect(gif.status).toBe(415);
    expect(gif.body.code).toBe(70047);
    const bad = await upload(s, m.token, '!!!not base64!!!');
    expect(bad.status).toBe(400);
    expect(bad.body.field).toBe('image');
    expect(await status(s, m.token)).toMatchObject({ status: 'none' });
    // WebP is accepted
    expect((await upload(s, m.token, WEBP)).body.data.status).toBe('reviewing');
  });

  it('members and visitors cannot review or list; a visitor has no photo state', async () => {
    const m = await newMember(s);
    expect((await s.call('GET', '/api/staff/photos', { token: m.token })).status).toBe(403);
    expect((await review(s, m.token, 1, { decision: 'pass' })).status).toBe(403);
    expect((await s.call('GET', '/api/customers/photo')).status).toBe(401);
    expect((await upload(s, undefined, PNG)).status).toBe(401);
    const staff = await newStaff(s);
    expect((await review(s, staff.token, 999_999, { decision: 'pass' })).status).toBe(404);
  });

  it('documents the photo calls in /api/openapi.json', async () => {
    const doc = (await s.call('GET', '/api/openapi.json')).body;
    for (const p of [
      '/api/customers/photo',
      '/api/customers/photo/image',
      '/api/staff/photos',
      '/api/staff/photos/{id}/image',
      '/api/staff/photos/{id}/review',
    ])
      expect(Object.keys(doc.paths)).toContain(p);
  });
});
