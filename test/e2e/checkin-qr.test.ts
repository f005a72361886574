import jsQR from 'jsqr';
import type { Page } from 'playwright-core';
import { PNG } from 'pngjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CardForClass, ClassDetail, MyBooking } from '../../src/api/booking';
import type { CheckinLink } from '../../src/api/schedule';
import { demoAccounts } from '../../src/server/db/seed/people';
import { api, loginInPage, passwordToken } from './support/booking';
import { gotoHydrated, useBrowser, waitHydrated } from './support/browser';
import { startMovableClockServer, type MovableClockServer } from './support/movable-clock';

const teacher = demoAccounts.find((a) => a.role === 'teacher')!;
const member1 = demoAccounts.find((a) => a.phone === '13800000001')!;
const member2 = demoAccounts.find((a) => a.phone === '13800000002')!;
const MIN = 60_000;
/** How long one QR link works (CHECKIN_LINK_TTL_MS of services/schedule/checkin-link.ts, decision 029). */
const LINK_LIFE_MS = 2 * MIN;
/** Spec §8's "QR expired" refusal (Errors.checkinLinkExpired; that module needs Lingui's transform, which this config has not). */
const LINK_EXPIRED = '70048';

type LinkClass = NonNullable<CheckinLink['class']>;

/** Leaves any seat of the member that overlaps the class (20030), then books it with a usable card: true when booked. */
async function bookSeat(base: string, token: string, c: LinkClass, key: string): Promise<boolean> {
  const mine = await api<{ list: MyBooking[] }>(base, '/customers/classes/mine?scope=upcoming&pagesize=50', { token });
  for (const b of mine.data.list) {
    if (b.class.id === c.id && b.state === 'booked') return true;
    if (b.canCancel && b.class.startsAt < c.endsAt && c.startsAt < b.class.endsAt)
      await api(base, '/customers/classes/cancel', { token, body: { bookingId: b.bookingId }, key: `clash-${key}-${b.bookingId}` });
  }
  const card = (await api<CardForClass[]>(base, `/customers/classes/cards?classId=${c.id}`, { token })).data.find((x) => x.usable);
  if (!card) return false;
  const r = await api<{ state: string }>(base, '/customers/classes/book', {
    token,
    body: { classId: c.id, cardId: card.id, agreeNotice: true },
    key: `book-${key}-${c.id}`,
  });
  return r.code === 200 && r.data.state === 'booked';
}

/** The member's /signed page of the link: taps check in. */
async function tapCheckin(page: Page): Promise<void> {
  await page.locator('[data-action=checkin]').click();
}

/**
 * The check-in QR as phones (decision 029): the demo teacher's phone shows the QR of their
 * next class on /bindPage/teacherImg; the test decodes it from a screenshot (jsQR) and a member with a
 * seat in that class opens the link it carries and is checked in. The server's clock then passes the
 * link's two minutes, and the same link is refused with spec §8's "QR expired" error (70048) for
 * another member of that class, whose seat stays booked.
 */
describe('the teacher shows the check-in QR; a member scans it and is checked in; the link expires', () => {
  const browser = useBrowser();
  let server: MovableClockServer;
  beforeAll(async () => {
    server = await startMovableClockServer();
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('decoded from the screen, the link checks a member in; two minutes later it is refused', async () => {
    const base = server.url;
    const tt = await passwordToken(base, teacher.phone, teacher.password);
    const t1 = await passwordToken(base, member1.phone, member1.password);
    const t2 = await passwordToken(base, member2.phone, member2.password);

    // the teacher's next class both members can book; the clock is moved to half an hour before it
    // (check-in opens an hour before the start), then both members take a seat
    let cls: LinkClass | null = null;
    for (let tries = 0; tries < 8 && !cls; tries++) {
      const now = await server.advance(0);
      const next = (await api<CheckinLink>(base, '/teacher/checkin-link', { token: tt })).data.class;
      expect(next, 'the demo teacher has a class coming').not.toBeNull();
      const startsAt = Date.parse(next!.startsAt);
      if (startsAt - now.getTime() < 31 * MIN) {
        await server.advance(Date.parse(next!.endsAt) - now.getTime() + MIN);
        continue;
      }
      await server.advance(startsAt - 30 * MIN - now.getTime());
      if ((await bookSeat(base, t2, next!, 'm2')) && (await bookSeat(base, t1, next!, 'm1'))) cls = next;
      else await server.advance(Date.parse(next!.endsAt) - startsAt + 31 * MIN);
    }
    expect(cls, 'a class of the teacher both members could book').not.toBeNull();

    // the teacher's phone shows the QR; the test reads it from a screenshot
    const t = await browser.newPage({ baseURL: base });
    await loginInPage(t.page, base, teacher.phone, teacher.password, '/bindPage/teacherImg');
    await waitHydrated(t.page);
    expect(await t.page.locator('[data-teacher-qr]').getAttribute('data-teacher-qr')).toBe(String(cls!.id));
    const box = t.page.locator('[data-qr-url]');
    const decoded = jsQRDecode(PNG.sync.read(await box.screenshot()));
    expect(decoded).toBe(await box.getAttribute('data-qr-url'));
    const link = new URL(decoded);
    expect(link.origin).toBe(base);
    expect(link.pathname).toBe('/signed');
    expect(link.searchParams.get('classId')).toBe(String(cls!.id));
    expect(link.searchParams.get('code')).toMatch(/^\d{13}\.[0-9a-f]{16}$/);
    const scanned = `${link.pathname}${link.search}`;

    // member 2's phone opens the scanned link and checks in
    const m2 = await browser.newPage({ baseURL: base });
    await loginInPage(m2.page, base, member2.phone, member2.password, scanned);
    await tapCheckin(m2.page);
    await m2.page.locator('[data-checked-in]').waitFor();
    expect(await m2.page.locator('[data-checkin]').getAttribute('data-checkin')).toBe('checkedIn');
    expect((await api<ClassDetail>(base, `/customers/classes/detail?id=${cls!.id}`, { token: t2 })).data.state).toBe('checked-in');

    // the link's life passes: the same link, opened by member 1 (a seat in that class), is refused
    await server.advance(LINK_LIFE_MS + MIN);
    const m1 = await browser.newPage({ baseURL: base });
    m1.allowError(/status of 409/);
    await loginInPage(m1.page, base, member1.phone, member1.password, scanned);
    await tapCheckin(m1.page);
    const feedback = m1.page.locator('[data-checkin-feedback]');
    await expect.poll(() => feedback.getAttribute('data-checkin-feedback')).toBe(LINK_EXPIRED);
    expect(await m1.page.locator('[data-checkin]').getAttribute('data-checkin')).toBe('refused');
    expect(await feedback.innerText()).toContain('签到二维码已过期');
    expect((await api<ClassDetail>(base, `/customers/classes/detail?id=${cls!.id}`, { token: t1 })).data.state).toBe('booked');

    // the teacher's screen renews its QR: the new link works again (member 1 is checked in)
    await gotoHydrated(t.page, `${base}/bindPage/teacherImg`);
    const again = new URL(jsQRDecode(PNG.sync.read(await box.screenshot())));
    expect(again.searchParams.get('code')).not.toBe(link.searchParams.get('code'));
    await gotoHydrated(m1.page, `${again.pathname}${again.search}`);
    await tapCheckin(m1.page);
    await m1.page.locator('[data-checked-in]').waitFor();
  });
});

/** The text of the QR code in a decoded PNG. */
function jsQRDecode(png: PNG): string {
  const decoded = jsQR(new Uint8ClampedArray(png.data), png.width, png.height);
  if (!decoded) throw new Error('no QR code in the screenshot');
  return decoded.data;
}
