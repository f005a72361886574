import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoAccounts } from '../../src/server/db/seed/people';
import { api, loginInPage, passwordToken } from './support/booking';
import { gotoHydrated, startOwnServer, useBrowser } from './support/browser';
import type { RunningServer } from './support/server';

const member = demoAccounts.find((a) => a.phone === '13800000001')!;
const staff = demoAccounts.find((a) => a.role === 'staff')!;

/** An 8x8 PNG, as a phone's picker might hand over (the page scales and re-encodes it as JPEG). */
const PNG_8x8 = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAgAAAAICAIAAABLbSncAAAAEUlEQVR4nGM4URGAFTEMLQkAMRFkARSGGiwAAAAASUVORK5CYII=',
  'base64',
);

describe('a complaint on phones (decision 033)', () => {
  const browser = useBrowser();
  let server: RunningServer;
  beforeAll(async () => {
    server = await startOwnServer();
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('a member files a complaint with a photo, staff reply from the console, the member reads the reply and rates it', async () => {
    const base = server.url;
    const { page } = await browser.newPage({ baseURL: base });
    await loginInPage(page, base, member.phone, member.password, '/complain/createcomplain');

    // empty content never leaves the phone
    await page.getByRole('button', { name: '提交投诉' }).click();
    await expect.poll(() => page.locator('[data-complaint-feedback]').innerText()).toBe('请填写投诉内容');

    await page.fill('textarea[name=content]', '更衣室的空调太冷了');
    await page.locator('select[name=club]').selectOption({ index: 1 });
    await page.locator('[data-complaint-photo-input]').setInputFiles({ name: 'cold.png', mimeType: 'image/png', buffer: PNG_8x8 });
    await expect.poll(() => page.locator('[data-complaint-photos]').getAttribute('data-complaint-photos')).toBe('1');
    // shown as it will be sent, and it can be taken out again
    expect(await page.getByRole('img', { name: '第1张照片' }).evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
    await page.getByRole('button', { name: '删除第1张照片' }).click();
    await expect.poll(() => page.getByRole('img', { name: '第1张照片' }).count()).toBe(0);
    await page.locator('[data-complaint-photo-input]').setInputFiles({ name: 'cold.png', mimeType: 'image/png', buffer: PNG_8x8 });
    await expect.poll(() => page.locator('[data-complaint-photos]').getAttribute('data-complaint-photos')).toBe('1');
    await page.getByRole('button', { name: '提交投诉' }).click();
    await expect.poll(() => page.locator('[data-replied]').innerText(), { timeout: 15_000 }).toBe('未回复');
    const id = Number(await page.locator('[data-complaint]').getAttribute('data-complaint'));
    // the photo went with it, and shows through the token cookie
    await expect
      .poll(() =>
        page
          .locator('[data-complaint] img')
          .first()
          .evaluate((el) => (el as HTMLImageElement).naturalWidth),
      )
      .toBeGreaterThan(0);

    // no reply yet
    await page.getByRole('button', { name: '查看是否有回复' }).click();
    await expect.poll(() => page.locator('[data-complaint-feedback]').innerText()).toBe('还没有回复，有回复时会通知您');

    // staff, on their own phone, answer it from the console
    const desk = await browser.newPage({ baseURL: base });
    await loginInPage(desk.page, base, staff.phone, staff.password, '/staff/complaints');
    const row = desk.page.locator(`[data-staff-complaint="${id}"]`);
    await expect.poll(() => row.innerText()).toContain('更衣室的空调太冷了');
    await row.locator('textarea[name=reply]').fill('已调高温度，感谢反馈');
    await row.getByRole('button', { name: '回复' }).click();
    await expect.poll(() => row.count(), { timeout: 15_000 }).toBe(0);

    // the member was notified
    const token = await passwordToken(base, member.phone, member.password);
    const notices = await api<Array<{ body: string }>>(base, '/sys/notification', { token });
    expect(notices.data.some((n) => n.body.includes('已调高温度，感谢反馈'))).toBe(true);

    // the member checks, reads the reply and says they are satisfied
    await page.getByRole('button', { name: '查看是否有回复' }).click();
    await expect.poll(() => page.locator('[data-complaint-reply]').innerText()).toContain('已调高温度，感谢反馈');
    await page.locator('[data-complaint-rate]').getByRole('button', { name: '满意', exact: true }).click();
    await expect.poll(() => page.locator('[data-satisfied]').getAttribute('data-satisfied'), { timeout: 15_000 }).toBe('true');
    expect(await page.locator('[data-complaint-rate]').count()).toBe(0);

    // my complaints: replied and satisfied
    await gotoHydrated(page, `${base}/complain`);
    const mine = page.locator(`[data-complaint-row="${id}"]`);
    expect(await mine.locator('[data-replied]').innerText()).toBe('已回复');
    expect(await mine.locator('[data-satisfied]').innerText()).toBe('满意');
  });
});
