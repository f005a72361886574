import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MyBooking } from '../../src/api/booking';
import { demoAccounts } from '../../src/server/db/seed/people';
import { api, loginInPage, passwordToken } from './support/booking';
import { gotoHydrated, startOwnServer, useBrowser } from './support/browser';
import type { RunningServer } from './support/server';

const member2 = demoAccounts.find((a) => a.phone === '13800000002')!;
const staff = demoAccounts.find((a) => a.role === 'staff')!;

describe('check-in by the class QR code on /signed (decision 007)', () => {
  const browser = useBrowser();
  let server: RunningServer;
  beforeAll(async () => {
    server = await startOwnServer();
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('a member opens the scanned link, taps check in, and is told why not yet; a wrong code is refused', async () => {
    const base = server.url;
    const t2 = await passwordToken(base, member2.phone, member2.password);
    // member 2's seeded seat (tomorrow): its QR code as the teacher would show it
    const seat = (await api<{ list: MyBooking[] }>(base, '/customers/classes/mine?scope=upcoming', { token: t2 })).data.list.find(
      (b) => b.state === 'booked',
    )!;
    const st = await passwordToken(base, staff.phone, staff.password);
    const { code } = (await api<{ code: string }>(base, `/staff/classes/checkin-code?classId=${seat.class.id}`, { token: st })).data;

    const tracked = await browser.newPage({ baseURL: base });
    tracked.allowError(/status of (409|400)/);
    const { page } = tracked;
    await loginInPage(page, base, member2.phone, member2.password, `/signed?classId=${seat.class.id}&code=${code}`);
    await page.locator('[data-action=checkin]').click();
    // tomorrow's class: check-in opens an hour before the start
    await expect.poll(() => page.locator('[data-checkin-feedback]').getAttribute('data-checkin-feedback')).toBe('70043');
    expect(await page.locator('[data-checkin]').getAttribute('data-checkin')).toBe('refused');

    await gotoHydrated(page, `${base}/signed?classId=${seat.class.id}&code=wrong123`);
    await page.locator('[data-action=checkin]').click();
    await expect.poll(() => page.locator('[data-checkin-feedback]').getAttribute('data-checkin-feedback')).toBe('70044');
    // the seat is still booked
    const after = (await api<{ list: MyBooking[] }>(base, '/customers/classes/mine?scope=upcoming', { token: t2 })).data.list.find(
      (b) => b.bookingId === seat.bookingId,
    )!;
    expect(after.state).toBe('booked');
  });
});
