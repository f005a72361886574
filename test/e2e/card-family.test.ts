import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoAccounts } from '../../src/server/db/seed/people';
import { DEMO_FAMILY_CARD } from '../../src/server/db/seed/bookings';
import { api, expectBadge, passwordToken, shanghaiTomorrow } from './support/booking';
import { gotoHydrated, startOwnServer, useBrowser } from './support/browser';
import type { RunningServer } from './support/server';
import { devSmsCode } from './support/sms';

/**
 * Family sub cards (decision 040) as two phones: the demo family card's holder (member 1,
 * seeded with member 2 as one sub-card holder) adds a second holder by phone on the card page; the
 * new holder sees the shared card among their cards and books a class with it; the holder's card
 * then has one use fewer.
 */
const holder = demoAccounts.find((a) => a.phone === '13800000001')!;
/** a phone that is not in the seed: its first code login makes it a member */
const SUB_PHONE = '13700001234';
const masked = (phone: string) => `${phone.slice(0, 3)}****${phone.slice(-4)}`;

interface Card {
  id: number;
  cardType: string;
  name: string;
}
interface ScheduleItem {
  id: number;
  classType: string;
  state: string;
  usesCost: number;
}

/** Logs the page's browser in by SMS code through the API (the server sets the session cookies). */
async function codeLogIn(page: Page, base: string, phone: string): Promise<void> {
  await page.context().request.get(`/api/oauth/valid-code?phone=${phone}`);
  const code = await devSmsCode(base, phone);
  const r = await page.context().request.post('/api/oauth/login', { data: { username: phone, password: code, loginType: 'code' } });
  expect(((await r.json()) as { code: number }).code).toBe(200);
}

async function passwordLogIn(page: Page, phone: string, password: string): Promise<void> {
  const r = await page.context().request.post('/api/oauth/login', { data: { username: phone, password, loginType: 'password' } });
  expect(((await r.json()) as { code: number }).code).toBe(200);
}

describe('a family main card shared by phone, then booked with by its new sub-card holder (decision 040)', () => {
  const browser = useBrowser();
  let server: RunningServer;
  beforeAll(async () => {
    // a fresh seed: this file changes the seeded family card
    server = await startOwnServer();
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('the holder adds a sub holder on the card page; the sub holder sees the card, books with it, and the holder sees one use fewer', async () => {
    const token = await passwordToken(server.url, holder.phone, holder.password);
    const family = (await api<Card[]>(server.url, '/customers/cards', { token })).data.find((c) => c.cardType === 'family-main');
    expect(family, 'the seeded family main card').toBeDefined();
    const cardPage = `/mine/carddetail?id=${family!.id}`;

    // the sub holder's phone is a member (first code login); no card of theirs yet
    const sub = await browser.newPage({ baseURL: server.url });
    await codeLogIn(sub.page, server.url, SUB_PHONE);
    await gotoHydrated(sub.page, '/vipcard?tab=mine');
    await sub.page.locator('[data-vipcard=mine]').waitFor();
    expect(await sub.page.locator(`[data-my-card="${family!.id}"]`).count()).toBe(0);

    // the holder's card page: the uses, and the seeded sub holder (member 2) in one of two places
    const main = await browser.newPage({ baseURL: server.url });
    await passwordLogIn(main.page, holder.phone, holder.password);
    await gotoHydrated(main.page, cardPage);
    const uses = main.page.locator('[data-card-facts] [data-card-frequency]');
    await expect.poll(() => uses.innerText()).toBe(`剩余${DEMO_FAMILY_CARD.usesLeft}/${DEMO_FAMILY_CARD.usesTotal}次`);
    await main.page.locator('[data-action=family-open]').click();
    const places = main.page.locator('[data-family-places]');
    await expect.poll(() => places.innerText()).toContain('副卡 1/2');
    expect(await main.page.locator('[data-family-members]').innerText()).toContain(masked('13800000002'));

    // adds the new holder by phone: two places taken, no phone field left, the timeline says so
    await main.page.locator('[data-family-form] input[name=phone]').fill(SUB_PHONE);
    await main.page.locator('[data-action=family-submit]').click();
    await expect.poll(() => places.innerText()).toContain('副卡 2/2');
    expect(await main.page.locator('[data-family-member]').count()).toBe(2);
    expect(await main.page.locator('[data-family-members]').innerText()).toContain(masked(SUB_PHONE));
    expect(await main.page.locator('[data-family-form] input[name=phone]').count()).toBe(0);
    await expect.poll(() => main.page.locator('[data-card-history=familyAdded]').count()).toBe(2);

    // the sub holder now has the card among theirs, with the shared uses
    await gotoHydrated(sub.page, '/vipcard?tab=mine');
    const shared = sub.page.locator(`[data-my-card="${family!.id}"]`);
    await expect.poll(() => shared.innerText()).toContain(DEMO_FAMILY_CARD.name);
    expect(await shared.innerText()).toContain(`剩余${DEMO_FAMILY_CARD.usesLeft}/${DEMO_FAMILY_CARD.usesTotal}次`);
    expect(await shared.locator('[data-family-sub]').innerText()).toBe('亲情卡副卡');
    // its page says the uses are shared and whose it is to manage; the holder's own page does not
    await shared.click();
    await sub.page.waitForURL((u) => u.pathname === '/mine/carddetail' && u.searchParams.get('id') === String(family!.id));
    await expect
      .poll(() => sub.page.locator('[data-card-header] [data-family-sub]').innerText())
      .toBe('亲情卡副卡：与主卡持有人共用次数和有效期，由主卡持有人管理');
    expect(await main.page.locator('[data-family-sub]').count()).toBe(0);

    // a group class tomorrow with a seat, costing one use
    const tomorrow = shanghaiTomorrow();
    const day = (await api<ScheduleItem[]>(server.url, `/customers/classes/schedule?date=${tomorrow}`)).data;
    const cls = day.find((c) => c.state === 'bookable' && c.usesCost === 1 && ['regular', 'small-group', 'open'].includes(c.classType));
    expect(cls, 'a group class tomorrow with a seat').toBeDefined();

    // the sub holder books it with the shared card, chosen on the confirm page
    await gotoHydrated(sub.page, `/takecourse/bookcourse/bookcoursedetail?id=${cls!.id}`);
    await sub.page.locator('[data-action=book]').click();
    await sub.page.waitForURL((u) => u.pathname === '/takecourse/bookcourse/bookcourseconfirm');
    const choice = sub.page.locator(`[data-card="${family!.id}"]`);
    await expect.poll(() => choice.getAttribute('data-usable')).toBe('true');
    expect(await choice.innerText()).toContain(`剩余${DEMO_FAMILY_CARD.usesLeft}次`);
    await choice.click();
    await sub.page.locator('label:has([name=agreeNotice]), label:has-text("我已阅读并同意")').first().click();
    await sub.page.locator('[data-action=submit-booking]').click();
    await sub.page.getByRole('button', { name: '确定' }).last().click();
    await sub.page.locator('[data-booking-result=booked]').waitFor();
    await gotoHydrated(sub.page, '/takecourse/takelistm');
    await expect.poll(() => sub.page.locator('[data-booking-state=booked]').count()).toBe(1);
    await expectBadge(sub.page, '1');

    // the holder's card: one use fewer, and the class on its timeline
    await gotoHydrated(main.page, cardPage);
    await expect.poll(() => uses.innerText()).toBe(`剩余${DEMO_FAMILY_CARD.usesLeft - 1}/${DEMO_FAMILY_CARD.usesTotal}次`);
    await main.page.locator('[data-card-history=class]').first().waitFor();
    // and the sub holder's list shows the same
    await gotoHydrated(sub.page, '/vipcard?tab=mine');
    await expect.poll(() => shared.innerText()).toContain(`剩余${DEMO_FAMILY_CARD.usesLeft - 1}/${DEMO_FAMILY_CARD.usesTotal}次`);
  });
});
