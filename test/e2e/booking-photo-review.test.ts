import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoAccounts } from '../../src/server/db/seed/people';
import { api, loginInPage, passwordToken } from './support/booking';
import { reloadHydrated, startOwnServer, useBrowser } from './support/browser';
import { png } from './support/png';
import type { RunningServer } from './support/server';

const member1 = demoAccounts.find((a) => a.phone === '13800000001')!;
const staff = demoAccounts.find((a) => a.role === 'staff')!;

describe('photo review on /takecourse/takelistm_yoga (spec §4; decision 007)', () => {
  const browser = useBrowser();
  let server: RunningServer;
  beforeAll(async () => {
    server = await startOwnServer();
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('a member uploads a front photo, staff reject it with a reason, the member uploads again, staff pass it', async () => {
    const base = server.url;
    const { page } = await browser.newPage({ baseURL: base });
    await loginInPage(page, base, member1.phone, member1.password, '/takecourse/takelistm_yoga');
    const card = page.locator('[data-photo-status]');
    expect(await card.getAttribute('data-photo-status')).toBe('none');

    // a 2000x1500 picture is scaled down in the page before it is sent
    await page.locator('[data-photo-input]').setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: png(2000, 1500, [7, 5, 160]) });
    await expect.poll(() => card.getAttribute('data-photo-status'), { timeout: 15_000 }).toBe('reviewing');
    expect(await page.locator('[data-photo-input]').count()).toBe(0);

    const st = await passwordToken(base, staff.phone, staff.password);
    const waiting = await api<{ id: number; phone: string }[]>(base, '/staff/photos', { token: st });
    const mine = waiting.data.find((p) => p.phone === member1.phone)!;
    const img = await fetch(`${base}/api/staff/photos/${mine.id}/image`, { headers: { 'Authorization-token': st } });
    expect(img.headers.get('content-type')).toBe('image/jpeg');
    expect((await img.arrayBuffer()).byteLength).toBeLessThan(512 * 1024);
    await api(base, `/staff/photos/${mine.id}/review`, { token: st, body: { decision: 'reject', reason: '照片过暗，请在光线充足处重拍' } });

    await reloadHydrated(page);
    expect(await card.getAttribute('data-photo-status')).toBe('rejected');
    expect(await page.locator('[data-photo-reason]').innerText()).toContain('照片过暗');
    await page.locator('[data-photo-input]').setInputFiles({ name: 'me2.png', mimeType: 'image/png', buffer: png(600, 800, [7, 5, 160]) });
    await expect.poll(() => card.getAttribute('data-photo-status'), { timeout: 15_000 }).toBe('reviewing');

    const again = (await api<{ id: number; phone: string }[]>(base, '/staff/photos', { token: st })).data.find(
      (p) => p.phone === member1.phone,
    )!;
    await api(base, `/staff/photos/${again.id}/review`, { token: st, body: { decision: 'pass' } });
    await reloadHydrated(page);
    expect(await card.getAttribute('data-photo-status')).toBe('passed');
    // the thumbnail loads through the token cookie
    await expect
      .poll(() => page.locator('[data-photo-status] img').evaluate((el) => (el as HTMLImageElement).naturalWidth))
      .toBeGreaterThan(0);
  });
});
