import { deflateSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoAccounts } from '../../src/server/db/seed/people';
import { loginInPage } from './support/booking';
import { startOwnServer, useBrowser } from './support/browser';
import type { RunningServer } from './support/server';

const member = demoAccounts.find((a) => a.phone === '13800000002')!;
const staff = demoAccounts.find((a) => a.role === 'staff')!;

/** A plain RGB PNG of w x h (a camera roll's picture, only smaller). */
function png(w: number, h: number): Buffer {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (b: Buffer) => {
    let c = 0xffffffff;
    for (const x of b) c = crcTable[(c ^ x) & 0xff]! ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type: string, data: Buffer) => {
    const t = Buffer.concat([Buffer.from(type), data]);
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const sum = Buffer.alloc(4);
    sum.writeUInt32BE(crc(t));
    return Buffer.concat([len, t, sum]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(w, 0);
  ihdr.writeUInt32BE(h, 4);
  ihdr[8] = 8;
  ihdr[9] = 2;
  const rows = Buffer.alloc((w * 3 + 1) * h);
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) rows.set([(x * 3) & 255, (y * 9) & 255, 90], y * (w * 3 + 1) + 1 + x * 3);
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', ihdr), chunk('IDAT', deflateSync(rows)), chunk('IEND', Buffer.alloc(0))]);
}

describe('the avatar on /mine/setavatar (issue 15, decision 042)', () => {
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
