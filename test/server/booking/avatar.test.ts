import { mkdtemp, readdir, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { PHOTO_MAX_BYTES } from '../../../src/domain/photo-review';
import { accounts, memberPhotos } from '../../../src/server/db/schema/index';
import { s3Store, signS3 } from '../../../src/server/gateways/storage';
import { newStaff } from '../orders/support';
import { startTestServer, type TestServer } from '../support/harness';
import { newMember } from './support';

/**
 * The avatar (decision 042): the same front photo staff review for face check-in (one
 * photo, one review). Size and type checked on the server, uploadable once unless staff allow
 * another from the console, another member's photo absent, staff-only endpoints, and the bytes
 * stored through the storage adapter (PostgreSQL by default, a directory or S3 by configuration).
 */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=', 'base64');
const JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(200, 1), Buffer.from([0xff, 0xd9])]);

const upload = (s: TestServer, token: string, bytes: Buffer) =>
  s.call('POST', '/api/customers/photo', { token, body: { image: bytes.toString('base64') } });
const status = async (s: TestServer, token: string) => (await s.call('GET', '/api/customers/photo', { token })).body.data;
const pass = (s: TestServer, token: string, id: number) =>
  s.call('POST', `/api/staff/photos/${id}/review`, { token, body: { decision: 'pass' } });
const allow = (s: TestServer, token: string, id: number) => s.call('POST', `/api/staff/photos/${id}/allow-another`, { token });
const phoneOf = async (s: TestServer, id: number) =>
  (await s.deps.db.select({ phone: accounts.phone }).from(accounts).where(eq(accounts.id, id)))[0]!.phone;
const ownImage = (s: TestServer, token: string) => s.app.request('/api/customers/photo/image', { headers: { cookie: `token=${token}` } });

describe('the avatar: one photo, one review (decision 042)', async () => {
  const s = await startTestServer();

  it('refuses an image too large with "image too large" and a file that is not a real JPEG/PNG/WebP by its bytes; nothing kept', async () => {
    const m = await newMember(s);
    const big = await upload(s, m.token, Buffer.concat([JPEG, Buffer.alloc(PHOTO_MAX_BYTES)]));
    expect(big.status).toBe(413);
    expect(big.body).toMatchObject({ code: 70009, field: 'image', message: '图片太大，不能超过 512 KB' });
    // a text file named .jpg, and a GIF: the bytes decide, not the name or the claimed type
    for (const bytes of [Buffer.from('just text, not a picture'), Buffer.from('GIF89a\x01\x00\x01\x00')]) {
      const r = await upload(s, m.token, bytes);
      expect(r.status).toBe(415);
      expect(r.body).toMatchObject({ code: 70047, field: 'image' });
    }
    expect(await status(s, m.token)).toMatchObject({ status: 'none', canUpload: true });
  });

  it('in English the refusal says "image too large" too', async () => {
    const m = await newMember(s);
    const r = await s.call('POST', '/api/customers/photo', {
      token: m.token,
      body: { image: Buffer.concat([JPEG, Buffer.alloc(PHOTO_MAX_BYTES)]).toString('base64') },
      headers: { 'accept-language': 'en' },
    });
    expect(r.body.code).toBe(70009);
    expect(String(r.body.message).toLowerCase()).toContain('too large');
  });

  it('uploads once: a second upload is refused ("contact staff") until staff allow another; then once more', async () => {
    const m = await newMember(s);
    const staff = await newStaff(s);
    const first = await upload(s, m.token, PNG);
    expect(first.body.data).toMatchObject({ status: 'reviewing', canUpload: false });
    expect((await upload(s, m.token, JPEG)).body).toMatchObject({ code: 70045, message: '照片已提交，如需更换请联系门店工作人员' });
    // under review, staff cannot "allow another" (they reject with a reason instead)
    expect((await allow(s, staff.token, first.body.data.photoId)).body.code).toBe(70170);
    expect((await pass(s, staff.token, first.body.data.photoId)).body.data.state).toBe('passed');
    expect((await upload(s, m.token, JPEG)).body.code).toBe(70045);

    // the member asks at the desk: staff find them by phone and allow another
    const found = (await s.call('GET', `/api/staff/photos/member?phone=${await phoneOf(s, m.id)}`, { token: staff.token })).body.data;
    expect(found).toMatchObject({ accountId: m.id, photo: { status: 'passed', photoId: first.body.data.photoId } });
    expect((await allow(s, staff.token, first.body.data.photoId)).body.data).toEqual({
      photoId: first.body.data.photoId,
      state: 'reopened',
    });
    // allowed once: a second "allow" is refused, the photo still counts meanwhile
    expect((await allow(s, staff.token, first.body.data.photoId)).body.code).toBe(70170);
    expect(await status(s, m.token)).toMatchObject({ status: 'reopened', canUpload: true });
    expect((await ownImage(s, m.token)).headers.get('content-type')).toBe('image/png');

    const second = await upload(s, m.token, JPEG);
    expect(second.body.data).toMatchObject({ status: 'reviewing', canUpload: false });
    expect((await upload(s, m.token, PNG)).body.code).toBe(70045);
    const rows = await s.deps.db
      .select({ state: memberPhotos.state, by: memberPhotos.reopenedBy })
      .from(memberPhotos)
      .where(eq(memberPhotos.accountId, m.id))
      .orderBy(memberPhotos.id);
    expect(rows).toEqual([
      { state: 'reopened', by: staff.id },
      { state: 'reviewing', by: null },
    ]);
  });

  it("another member's photo is absent: my image is mine or 404, never theirs; a member cannot reach the staff image", async () => {
    const a = await newMember(s);
    const b = await newMember(s);
    const theirs = (await upload(s, a.token, PNG)).body.data.photoId as number;
    expect((await ownImage(s, b.token)).status).toBe(404);
    expect(await status(s, b.token)).toMatchObject({ status: 'none', photoId: null });
    expect((await s.app.request(`/api/staff/photos/${theirs}/image`, { headers: { cookie: `token=${b.token}` } })).status).toBe(403);
  });

  it('staff endpoints are for staff only; unknown ids and phones are 404; a bad phone names the field', async () => {
    const m = await newMember(s);
    const staff = await newStaff(s);
    expect((await s.call('GET', `/api/staff/photos/member?phone=${await phoneOf(s, m.id)}`, { token: m.token })).status).toBe(403);
    expect((await allow(s, m.token, 1)).status).toBe(403);
    expect((await s.call('POST', '/api/staff/photos/1/allow-another')).status).toBe(401);
    expect((await allow(s, staff.token, 999_999)).status).toBe(404);
    expect(
      (await s.call('GET', `/api/staff/photos/member?phone=${encodeURIComponent('19999999999')}`, { token: staff.token })).status,
    ).toBe(404);
    const bad = await s.call('GET', `/api/staff/photos/member?phone=${encodeURIComponent('')}`, { token: staff.token });
    expect(bad.status).toBe(400);
    expect(bad.body.field).toBe('phone');
  });

  it('documents the avatar calls in /api/openapi.json', async () => {
    const doc = (await s.call('GET', '/api/openapi.json')).body;
    for (const p of ['/api/staff/photos/member', '/api/staff/photos/{id}/allow-another']) expect(Object.keys(doc.paths)).toContain(p);
  });
});

describe('the storage adapter (decision 042)', () => {
  it('PHOTO_STORAGE=disk: the bytes go to the directory sealed (decision 055), the row keeps the key, the image reads back', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'photos-'));
    const s = await startTestServer({ config: { storage: { provider: 'disk', dir } } });
    const m = await newMember(s);
    const id = (await upload(s, m.token, PNG)).body.data.photoId as number;
    const [row] = await s.deps.db.select().from(memberPhotos).where(eq(memberPhotos.id, id));
    expect(row!.bytes).toBe(null);
    expect(row!.storageKey).toMatch(new RegExp(`^photos/${m.id}/[0-9a-f-]+\\.png\\.sealed$`));
    const stored = await readFile(join(dir, row!.storageKey!));
    expect(stored.includes(PNG)).toBe(false);
    expect(row!.keyId).toBe(s.deps.gateways.keys.currentKeyId);
    const img = await ownImage(s, m.token);
    expect(Buffer.from(await img.arrayBuffer()).equals(PNG)).toBe(true);
    // a refused upload stores nothing
    await upload(s, m.token, JPEG);
    expect(await readdir(join(dir, 'photos', String(m.id)))).toHaveLength(1);
  });

  it("signs S3 requests as AWS's published SigV4 example does (GET /test.txt, examplebucket)", () => {
    const h = signS3(
      {
        method: 'GET',
        host: 'examplebucket.s3.amazonaws.com',
        path: '/test.txt',
        headers: { range: 'bytes=0-9' },
        payloadHash: 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
        amzDate: '20130524T000000Z',
      },
      { region: 'us-east-1', accessKeyId: 'AKIAIOSFODNN7EXAMPLE', secretAccessKey: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY' },
    );
    expect(h.authorization).toBe(
      'AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request, SignedHeaders=host;range;x-amz-content-sha256;x-amz-date, Signature=f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41',
    );
  });

  it('the S3 store PUTs and GETs path-style, signed; a missing key is null; a failing store throws', async () => {
    const objects = new Map<string, Buffer>();
    const seen: Request[] = [];
    const fakeS3 = (async (url: URL, init: RequestInit) => {
      const req = new Request(url, init);
      seen.push(req);
      if (!req.headers.get('authorization')?.startsWith('AWS4-HMAC-SHA256 Credential=AK/')) return new Response(null, { status: 403 });
      if (req.method === 'PUT') objects.set(url.pathname, Buffer.from(await req.arrayBuffer()));
      if (req.method === 'GET')
        return objects.has(url.pathname) ? new Response(new Uint8Array(objects.get(url.pathname)!)) : new Response(null, { status: 404 });
      return new Response(null, { status: 200 });
    }) as unknown as typeof fetch;
    const store = s3Store(
      { endpoint: 'http://s3.local:9000', bucket: 'photos', region: 'us-east-1', accessKeyId: 'AK', secretAccessKey: 'SK' },
      { fetch: fakeS3 },
    );
    await store.put('photos/1/a.png', PNG, 'image/png');
    expect(seen[0]!.url).toBe('http://s3.local:9000/photos/photos/1/a.png');
    expect(seen[0]!.headers.get('content-type')).toBe('image/png');
    expect((await store.get('photos/1/a.png'))!.equals(PNG)).toBe(true);
    expect(await store.get('photos/1/none.png')).toBe(null);
    const refusing = s3Store(
      { endpoint: 'http://s3.local:9000', bucket: 'photos', region: 'us-east-1', accessKeyId: 'XX', secretAccessKey: 'SK' },
      { fetch: fakeS3 },
    );
    await expect(refusing.put('photos/1/b.png', PNG, 'image/png')).rejects.toThrow('403');
  });
});
