import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoAccounts } from '../../src/server/db/seed/people';
import { loginInPage } from './support/booking';
import { startOwnServer, useBrowser } from './support/browser';
import { png } from './support/png';
import type { RunningServer } from './support/server';

const member = demoAccounts.find((a) => a.phone === '13800000002')!;
const staff = demoAccounts.find((a) => a.role === 'staff')!;

describe('the avatar on /mine/setavatar (decision 042)', () => {
  const browser = useBrowser();
  let server: RunningServer;
  beforeAll(async () => {
    server = await startOwnServer();
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('a member chooses a photo in the file chooser, staff pass it in the console, and it is the avatar on Mine', async () => {
    const base = server.url;
    const { page } = await browser.newPage({ baseURL: base });
    await loginInPage(page, base, member.phone, member.password, '/mine/setavatar');
    const status = page.locator('[data-avatar-status]');
    await expect.poll(() => status.getAttribute('data-avatar-status'), { timeout: 15_000 }).toBe('none');

    // the file chooser, as a phone opens it; a 2400x1800 picture is scaled down in the page
    const [chooser] = await Promise.all([page.waitForEvent('filechooser'), page.getByText('选择照片').click()]);
    await chooser.setFiles({ name: 'me.png', mimeType: 'image/png', buffer: png(2400, 1800) });
    // shown first, with what sending it means (decision 102); sent once confirmed
    const preview = page.locator('[data-avatar-preview]');
    await expect.poll(() => preview.innerText(), { timeout: 20_000 }).toContain('照片提交后需门店审核');
    await page.getByRole('button', { name: '提交审核' }).click();
    await expect.poll(() => status.getAttribute('data-avatar-status'), { timeout: 20_000 }).toBe('reviewing');

    // the front desk passes it in the staff console's photo queue
    const desk = await browser.newPage({ baseURL: base });
    await loginInPage(desk.page, base, staff.phone, staff.password, '/staff/photos');
    const item = desk.page.locator('[data-photo]').first();
    await item.getByRole('button', { name: '通过', exact: true }).click();
    await expect.poll(() => desk.page.locator('[data-photo]').count(), { timeout: 15_000 }).toBe(0);

    await page.getByRole('button', { name: '刷新审核结果' }).click();
    await expect.poll(() => status.getAttribute('data-avatar-status'), { timeout: 15_000 }).toBe('passed');

    await page.goto(`${base}/mine`);
    const avatar = page.locator('img[data-mine-avatar="photo"]');
    await expect.poll(() => avatar.evaluate((el) => (el as HTMLImageElement).naturalWidth), { timeout: 15_000 }).toBeGreaterThan(0);
  });
});
