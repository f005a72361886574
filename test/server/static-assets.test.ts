import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { createApp } from '../../src/server/app';
import { startTestServer } from './support/harness';

describe('built assets: precompressed, cached forever (DESIGN.md §1)', async () => {
  const s = await startTestServer();
  const root = mkdtempSync(path.join(tmpdir(), 'assets-'));
  mkdirSync(path.join(root, 'assets'));
  const js = 'export const hello = "world";'.repeat(50);
  writeFileSync(path.join(root, 'assets/app-abc123.js'), js);
  writeFileSync(path.join(root, 'assets/app-abc123.js.br'), brotliCompressSync(js));
  writeFileSync(path.join(root, 'assets/app-abc123.js.gz'), gzipSync(js));
  const app = createApp(s.deps, { staticRoot: root });

  it('sends brotli to a browser that takes it, with an immutable year-long cache', async () => {
    const r = await app.request('/assets/app-abc123.js', { headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(r.status).toBe(200);
    expect(r.headers.get('content-encoding')).toBe('br');
    expect(r.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(r.headers.get('vary')).toContain('Accept-Encoding');
    expect(Number(r.headers.get('content-length'))).toBeLessThan(js.length);
  });

  it('falls back to gzip, then to the plain file', async () => {
    const gz = await app.request('/assets/app-abc123.js', { headers: { 'accept-encoding': 'gzip' } });
    expect(gz.headers.get('content-encoding')).toBe('gzip');
    const plain = await app.request('/assets/app-abc123.js');
    expect(plain.headers.get('content-encoding')).toBeNull();
    expect(await plain.text()).toBe(js);
  });

  it('answers a missing asset 404 without caching it forever', async () => {
    const r = await app.request('/assets/nope-000.js');
    expect(r.status).toBe(404);
    expect(r.headers.get('cache-control') ?? '').not.toContain('immutable');
  });
});
