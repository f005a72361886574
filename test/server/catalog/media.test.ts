import { describe, expect, it } from 'vitest';
import { MEDIA_KINDS, mediaUrl, renderMedia } from '../../../src/server/services/catalog-media';
import { startTestServer } from '../support/harness';

describe('generated pictures (GET /api/media/:kind/:file)', async () => {
  const s = await startTestServer({ seed: true });

  it('serves every image the seed refers to as a small SVG cached for a year', async () => {
    const urls = new Set<string>();
    for (const path of ['/api/school/clubs', '/api/school/teachers', '/api/index/home/banner']) {
      for (const item of (await s.call('GET', path)).body.data) urls.add(item.coverImage ?? item.photo ?? item.image);
    }
    for (const g of (await s.call('GET', '/api/product/goods/goodList?pagesize=50')).body.data.list) urls.add(g.image);
    for (const a of (await s.call('GET', '/api/activity/goods?pagesize=50')).body.data.list) urls.add(a.image);
    expect(urls.size).toBeGreaterThan(20);
    for (const url of urls) {
      const res = await s.app.request(url);
      expect(res.status, url).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^image\/svg\+xml/);
      expect(res.headers.get('cache-control')).toContain('max-age=31536000');
      const body = await res.text();
      expect(body.startsWith('<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true);
      expect(body.length).toBeLessThan(2048);
    }
  });

  it('draws the same bytes for the same URL, initials on avatars', () => {
    expect(renderMedia('avatar', 'lin-mei')).toBe(renderMedia('avatar', 'lin-mei'));
    expect(renderMedia('avatar', 'lin-mei')).toContain('>LM</text>');
    expect(renderMedia('avatar', 'lin-mei')).not.toBe(renderMedia('avatar', 'chen-siyuan'));
    for (const k of MEDIA_KINDS) expect(renderMedia(k, 'x')).toMatch(/<\/svg>$/);
  });

  it('refuses a slug that is not lower-case words', () => {
    expect(() => mediaUrl('avatar', '../etc')).toThrow();
  });

  it.each([
    ['/api/media/poster/lin-mei.svg', 'kind'],
    ['/api/media/avatar/lin-mei.png', 'file'],
    ['/api/media/avatar/Lin%20Mei.svg', 'file'],
    ['/api/media/avatar/%3Cscript%3E.svg', 'file'],
  ])('refuses %s with 400 naming %s', async (path, field) => {
    const r = await s.call('GET', path);
    expect(r.status).toBe(400);
    expect(r.body.field).toBe(field);
  });
});
