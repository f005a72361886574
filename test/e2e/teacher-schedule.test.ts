import jsQR from 'jsqr';
import { PNG } from 'pngjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TeacherWeek } from '../../src/api/schedule';
import { addDays, shanghaiDate } from '../../src/domain/time';
import { DEMO_TEACHER_WAITS_FROM_DAY } from '../../src/server/db/seed/classes';
import { demoAccounts } from '../../src/server/db/seed/people';
import { api, loginInPage, passwordToken } from './support/booking';
import { gotoHydrated, startOwnServer, useBrowser } from './support/browser';
import type { RunningServer } from './support/server';

const teacher = demoAccounts.find((a) => a.role === 'teacher')!;
const member2 = demoAccounts.find((a) => a.phone === '13800000002')!;

/**
 * The demo teacher (林美) on a phone (decision 029): confirms a week of classes on
 * /bindPage/teacherConfirm, then shows the check-in QR on /bindPage/teacherImg; the QR is decoded from a
 * screenshot and a member's phone opens the link it carries, which reaches the check-in service.
 */
describe('a teacher confirms the week and shows the check-in QR', () => {
  const browser = useBrowser();
  let server: RunningServer;
  beforeAll(async () => {
    server = await startOwnServer();
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('confirm all, then the QR decodes to a /signed link a member can open', async () => {
    const base = server.url;
    const token = await passwordToken(base, teacher.phone, teacher.password);
    const day = addDays(shanghaiDate(new Date()), DEMO_TEACHER_WAITS_FROM_DAY + 1);
    const before = (await api<TeacherWeek>(base, `/teacher/schedule?week=${day}`, { token })).data;
    expect(before.classes.some((c) => c.canConfirm)).toBe(true);

    const t = await browser.newPage({ baseURL: base });
    await loginInPage(t.page, base, teacher.phone, teacher.password, `/bindPage/teacherConfirm?week=${day}`);
    await expect.poll(() => t.page.locator('[data-schedule-state=waiting]').count()).toBeGreaterThan(0);
    await t.page.locator('[data-action=confirm-all]').click();
    await t.page.locator('[data-confirmed-all]').waitFor();
    await expect.poll(() => t.page.locator('[data-schedule-state=waiting]').count()).toBe(0);
    const after = (await api<TeacherWeek>(base, `/teacher/schedule?week=${day}`, { token })).data;
    expect(after.classes.filter((c) => c.state === 'waiting')).toEqual([]);

    await gotoHydrated(t.page, `${base}/bindPage/teacherImg`);
    const box = t.page.locator('[data-qr-url]');
    const shown = (await box.getAttribute('data-qr-url'))!;
    const png = PNG.sync.read(await box.screenshot());
    const decoded = jsQR(new Uint8ClampedArray(png.data), png.width, png.height);
    expect(decoded?.data).toBe(shown);
    const link = new URL(decoded!.data);
    expect(link.pathname).toBe('/signed');
    expect(link.searchParams.get('code')).toMatch(/^\d{13}\.[0-9a-f]{16}$/);

    // a member's phone opens the scanned link: the check-in page of that class. Member 2 may hold no
    // seat in 林美's next class: then the page offers booking it, with no check-in to confirm
    const m = await browser.newPage({ baseURL: base });
    m.allowError(/status of 409/);
    await loginInPage(m.page, base, member2.phone, member2.password, `${link.pathname}${link.search}`);
    await m.page.locator('[data-action=checkin], [data-checkin-not-booked]').first().waitFor();
    if ((await m.page.locator('[data-action=checkin]').count()) > 0) {
      await m.page.locator('[data-action=checkin]').click();
      await expect.poll(() => m.page.locator('[data-checkin]').getAttribute('data-checkin')).toMatch(/^(refused|checkedIn)$/);
    }
    // the check-in service takes the scanned code as the class's: no seat (70040), too early (70043),
    // or checked in; never "not a code" (70044) or "expired" (70048)
    const member2Token = await passwordToken(base, member2.phone, member2.password);
    const answer = await api(base, '/customers/classes/checkin', {
      token: member2Token,
      body: { classId: Number(link.searchParams.get('classId')), code: link.searchParams.get('code') },
    });
    expect([200, 70040, 70041, 70043]).toContain(answer.code);
  });
});
