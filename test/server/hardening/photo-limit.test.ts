import { describe, expect, it } from 'vitest';
import { PHOTO_BODY_MAX_BYTES, PHOTO_MAX_BASE64, PHOTO_MAX_BYTES } from '../../../src/domain/photo-review';
import { PHOTO_UPLOADS } from '../../../src/server/http/photo-body';
import { newMember } from '../booking/support';
import { startTestServer } from '../support/harness';

/**
 * A photo too large is "image too large" (70009) with the limit named, on every photo upload
 * (decision 053). Before, a photo whose body passed the general 1 MiB limit was answered with the
 * generic "content too large" (70005), and the OpenAPI document allowed 2,000,000 base64 characters.
 */
const s = await startTestServer({ config: { demo: true } });
const m = await newMember(s);
const JPEG_HEAD = Buffer.from([0xff, 0xd8, 0xff, 0xe0]);
const jpeg = (bytes: number) => Buffer.concat([JPEG_HEAD, Buffer.alloc(bytes - JPEG_HEAD.length, 1)]);
const post = (path: string, field: string, image: string, lang = 'zh') =>
  s.call('POST', path, {
    token: m.token,
    body: { ...(field === 'photo' ? { openid: 't' } : {}), [field]: image },
    headers: { 'accept-language': lang },
  });

describe('a photo too large on every photo upload', () => {
  const cases = Object.entries(PHOTO_UPLOADS);

  it('the photo uploads are the routes holding a photo (the list matches the document)', async () => {
    const doc = (await (await s.app.request('/api/openapi.json')).json()) as {
      paths: Record<string, { post?: { requestBody?: { description?: string } } }>;
    };
    for (const [path] of cases) expect(doc.paths[path]?.post?.requestBody?.description, path).toContain(String(PHOTO_BODY_MAX_BYTES));
    expect(cases.map(([p]) => p).sort()).toEqual([
      '/api/bind/new-teacher',
      '/api/customers/complaints/image',
      '/api/customers/photo',
      '/api/customers/transfers/image',
    ]);
  });

  for (const [path, field] of cases) {
    it(`${path}: a photo over the general body limit is 413 70009 naming ${field} and the limit, in zh and en`, async () => {
      const big = jpeg(Math.ceil(s.deps.config.bodyLimitBytes * 0.8)).toString('base64');
      expect(big.length).toBeGreaterThan(s.deps.config.bodyLimitBytes);
      const zh = await post(path, field, big);
      expect([zh.status, zh.body.code, zh.body.field, zh.body.message]).toEqual([413, 70009, field, '图片太大，不能超过 512 KB']);
      const en = await post(path, field, big, 'en');
      expect([en.status, en.body.code, en.body.message]).toEqual([413, 70009, 'The image is too large: at most 512 KB']);
    });

    it(`${path}: a photo's text just over its longest (within the photo's body limit) is 413 70009 with the limit`, async () => {
      const r = await post(path, field, 'A'.repeat(PHOTO_MAX_BASE64 + 4));
      expect([r.status, r.body.code, r.body.field, r.body.message]).toEqual([413, 70009, field, '图片太大，不能超过 512 KB']);
    });
  }

  it('a photo of exactly the limit, as a data URL, passes the body limit and the schema and is stored', async () => {
    const r = await post('/api/customers/complaints/image', 'image', `data:image/jpeg;base64,${jpeg(PHOTO_MAX_BYTES).toString('base64')}`);
    expect(r.body.code).toBe(200);
    const over = await post('/api/customers/complaints/image', 'image', jpeg(PHOTO_MAX_BYTES + 1).toString('base64'));
    expect([over.status, over.body.code, over.body.message]).toEqual([413, 70009, '图片太大，不能超过 512 KB']);
  });

  it('the document states the limits: the photo text at most PHOTO_MAX_BASE64 characters (PHOTO_MAX_BYTES in base64), the bodies in the description', async () => {
    const doc = (await (await s.app.request('/api/openapi.json')).json()) as {
      info: { description: string };
      components: { schemas: Record<string, { properties: Record<string, { maxLength?: number }> }> };
    };
    for (const name of ['PhotoUpload', 'TransferImageUpload', 'ComplaintImageUpload'])
      expect(doc.components.schemas[name]!.properties.image!.maxLength, name).toBe(PHOTO_MAX_BASE64);
    expect(doc.components.schemas.NewTeacherRequest!.properties.photo).toBeDefined();
    expect(PHOTO_MAX_BASE64).toBeGreaterThanOrEqual(Math.ceil(PHOTO_MAX_BYTES / 3) * 4);
    expect(PHOTO_BODY_MAX_BYTES).toBeGreaterThan(PHOTO_MAX_BASE64);
    expect(doc.info.description).toContain(`${s.deps.config.bodyLimitBytes} bytes`);
    expect(doc.info.description).toContain(String(PHOTO_BODY_MAX_BYTES));
  });

  it('any other route keeps the general limit: 413 70005', async () => {
    const r = await s.call('POST', '/api/customers/complaints', {
      token: m.token,
      body: { content: 'x'.repeat(s.deps.config.bodyLimitBytes) },
    });
    expect([r.status, r.body.code]).toEqual([413, 70005]);
  });
});
