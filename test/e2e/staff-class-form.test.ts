import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoAccounts } from '../../src/server/db/seed/people';
import { api, expectBadge, passwordToken, shanghaiTomorrow } from './support/booking';
import { gotoHydrated, startOwnServer, useBrowser, waitHydrated } from './support/browser';
import type { RunningServer } from './support/server';

/**
 * The staff class form (decision 041) as two phones: the front desk creates a class on
 * /staff/classes/new, a member finds it in the schedule and books it with a count card, the front desk
 * moves it on /staff/classes/:id/edit and the member's booking shows the new time, then the front desk
 * cancels it and the member's booking shows cancelled with the class, the card's use given back.
 */
const staff = demoAccounts.find((a) => a.role === 'staff')!;
const member = demoAccounts.find((a) => a.phone === '13800000001')!;
const TITLE = '晚间新课流瑜伽';
/** a room no seeded class uses, so the room check has nothing to refuse */
const ROOM = '临时教室';

interface Card {
  id: number;
  cardType: string;
  name: string;
  usesLeft: number | null;
  usesTotal: number | null;
  status: string;
}

async function passwordLogIn(page: Page, phone: string, password: string): Promise<void> {
  const r = await page.context().request.post('/api/oauth/login', { data: { username: phone, password, loginType: 'password' } });
  expect(((await r.json()) as { code: number }).code).toBe(200);
}

describe('staff create, move and cancel a class; a member books it and follows it (decision 041)', () => {
  const browser = useBrowser();
  let server: RunningServer;
  beforeAll(async () => {
    // a fresh seed: this file adds, moves and cancels a class
    server = await startOwnServer();
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('created, booked, moved, cancelled: the member sees each step and gets the use back', async () => {
    const tomorrow = shanghaiTomorrow();
    const token = await passwordToken(server.url, member.phone, member.password);
    // the member's count card in use (the seeded 10次卡), whose uses show what a booking spends
    const card = (await api<Card[]>(server.url, '/customers/cards', { token })).data.find(
      (c) => c.cardType === 'count' && c.status === 'in_use',
    )!;
    const left = card.usesLeft!;
    const uses = (n: number) => `剩余${n}/${card.usesTotal}次`;

    // the front desk: the week of tomorrow, "new class", the form filled in
    const desk = await browser.newPage({ baseURL: server.url });
    await passwordLogIn(desk.page, staff.phone, staff.password);
    await gotoHydrated(desk.page, `/staff/classes?week=${tomorrow}`);
    await desk.page.locator('[data-action=new-class]').click();
    await desk.page.waitForURL((u) => u.pathname === '/staff/classes/new');
    await waitHydrated(desk.page);
    const clubName = (await desk.page.locator('select[name=clubId] option:checked').innerText()).trim();
    await desk.page.locator('input[name=title]').fill(TITLE);
    await desk.page.locator('input[name=room]').fill(ROOM);
    await desk.page.locator('input[name=capacity]').fill('12');
    await desk.page.locator('input[name=day]').fill(tomorrow);
    await desk.page.locator('input[name=start]').fill('21:00');
    await desk.page.locator('input[name=end]').fill('22:00');
    await desk.page.locator('[data-action=save]').click();
    // saved: back on the week, which lists the class
    await desk.page.waitForURL((u) => u.pathname === '/staff/classes');
    const row = desk.page.locator('[data-staff-class]', { hasText: TITLE });
    await expect.poll(() => row.innerText()).toContain('21:00');
    expect(await row.innerText()).toContain(`${clubName} · ${ROOM}`);
    const classId = await row.getAttribute('data-staff-class');

    // the member finds it in tomorrow's schedule and books it with the count card
    const phone = await browser.newPage({ baseURL: server.url });
    await passwordLogIn(phone.page, member.phone, member.password);
    await gotoHydrated(phone.page, `/takecourse/bookcourse?date=${tomorrow}`);
    const listed = phone.page.locator(`[data-class="${classId}"]`);
    await expect.poll(() => listed.innerText()).toContain(TITLE);
    expect(await listed.innerText()).toContain('21:00');
    expect(await listed.locator('[data-class-state]').getAttribute('data-class-state')).toBe('bookable');
    await listed.click();
    await phone.page.waitForURL((u) => u.pathname === '/takecourse/bookcourse/bookcoursedetail' && u.searchParams.get('id') === classId);
    await phone.page.locator('[data-action=book]').click();
    await phone.page.waitForURL((u) => u.pathname === '/takecourse/bookcourse/bookcourseconfirm');
    await phone.page.locator(`[data-card="${card.id}"][data-usable=true]`).click();
    await phone.page.locator('label:has([name=agreeNotice]), label:has-text("我已阅读并同意")').first().click();
    await phone.page.locator('[data-action=submit-booking]').click();
    await phone.page.getByRole('button', { name: '确定' }).last().click();
    await phone.page.locator('[data-booking-result=booked]').waitFor();
    await gotoHydrated(phone.page, `/mine/carddetail?id=${card.id}`);
    await expect.poll(() => phone.page.locator('[data-card-frequency]').innerText()).toBe(uses(left - 1));

    // the front desk moves it half an hour later
    await gotoHydrated(desk.page, `/staff/classes?week=${tomorrow}`);
    await row.locator('[data-action=edit-class]').click();
    await desk.page.waitForURL((u) => u.pathname === `/staff/classes/${classId}/edit`);
    await waitHydrated(desk.page);
    expect(await desk.page.locator('input[name=start]').inputValue()).toBe('21:00');
    await desk.page.locator('input[name=start]').fill('21:30');
    await desk.page.locator('input[name=end]').fill('22:30');
    await desk.page.locator('[data-action=save]').click();
    await desk.page.waitForURL((u) => u.pathname === '/staff/classes');
    await expect.poll(() => row.innerText()).toContain('21:30');

    // the member's booking shows the new time
    await gotoHydrated(phone.page, '/takecourse/takelistm?scope=upcoming');
    const booking = phone.page.locator('[data-booking]', { hasText: TITLE });
    await expect.poll(() => booking.innerText()).toContain(`${tomorrow} 21:30–22:30`);
    expect(await booking.getAttribute('data-booking-state')).toBe('booked');
    await expectBadge(phone.page, '1');

    // the front desk cancels it, after a confirm that says what a cancel does
    await gotoHydrated(desk.page, `/staff/classes/${classId}/edit?week=${tomorrow}`);
    await desk.page.locator('[data-action=cancel-ask]').click();
    await expect.poll(() => desk.page.locator('[data-cancel-confirm]').innerText()).toContain('会员卡次数退回');
    await desk.page.locator('[data-action=cancel-confirm]').click();
    await desk.page.waitForURL((u) => u.pathname === '/staff/classes');
    await waitHydrated(desk.page);
    expect(await desk.page.locator('[data-staff-class]', { hasText: TITLE }).count()).toBe(0);

    // the member: no upcoming booking left; among the past ones it is cancelled with the class; the use is back
    await gotoHydrated(phone.page, '/takecourse/takelistm?scope=past');
    const cancelled = phone.page.locator('[data-booking]', { hasText: TITLE });
    await expect.poll(() => cancelled.getAttribute('data-booking-state')).toBe('cancelled');
    expect(await cancelled.locator('[data-cancel-reason]').getAttribute('data-cancel-reason')).toBe('class-cancelled');
    await expectBadge(phone.page, '');
    await gotoHydrated(phone.page, `/mine/carddetail?id=${card.id}`);
    await expect.poll(() => phone.page.locator('[data-card-frequency]').innerText()).toBe(uses(left));
  });
});
