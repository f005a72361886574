import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gotoHydrated, startOwnServer, useBrowser } from './support/browser';
import { apiCall } from './support/checkout';
import type { RunningServer } from './support/server';

/** Two demo members (seed), on a server of this file's own: the first holds the seeded coupons. */
const GIVER = { phone: '13800000001', password: 'yoga1234' };
const FRIEND = { phone: '13800000002', password: 'yoga1234' };

let server: RunningServer;
beforeAll(async () => {
  server = await startOwnServer();
});
afterAll(async () => {
  await server?.stop();
});

async function logIn(page: Page, who: { phone: string; password: string }) {
  const r = await page
    .context()
    .request.post('/api/oauth/login', { data: { username: who.phone, password: who.password, loginType: 'password' } });
  expect(((await r.json()) as { code: number }).code).toBe(200);
}

const alert = (page: Page) => page.locator('[data-coupon-gift] [role=alert]').innerText();
const COUPON = '新会员满200减30';

describe('gifting a coupon in the browser, as two phones (decisions 032 and 035)', () => {
  const { newPage } = useBrowser();

  it('a member gifts a coupon to a friend by phone after agreeing to the terms; the friend, logged in on their own phone, sees it arrive', async () => {
    const { page, allowError } = await newPage({ baseURL: server.url });
    // gifting to myself is refused with 400 (70112): the browser logs the response
    allowError(/status of 400/);
    // a phone nobody has is looked up and answered 30036 (404)
    allowError(/status of 404/);
    await logIn(page, GIVER);
    await gotoHydrated(page, '/mine');
    await page.getByText('我的优惠券', { exact: true }).click();
    await page.waitForURL('**/mine/coupons/all');
    const card = page.locator('[data-coupon-state=unused]', { hasText: COUPON });
    await card.getByRole('link', { name: '赠送好友' }).click();
    await page.waitForURL('**/mine/coupons/all/Donation?id=*');
    // the terms are on the page; gifting before agreeing, or to myself, is said at its field
    expect(await page.locator('[data-gift-terms]').innerText()).toContain('不能赠送给自己');
    await page.locator('input[name=phone]').fill(FRIEND.phone);
    await page.getByRole('button', { name: '赠送', exact: true }).click();
    await expect.poll(() => alert(page)).toBe('请先阅读并同意《优惠券赠送协议》');
    await page.locator('input[name=agreed]').check();
    // a phone nobody has: said at the phone before anything is asked (decision 102)
    await page.locator('input[name=phone]').fill('13899999999');
    await page.getByRole('button', { name: '赠送', exact: true }).click();
    await expect.poll(() => alert(page)).toBe('好友手机号还没有注册会员，请核对');
    expect(await page.getByRole('dialog').count()).toBe(0);
    await page.locator('input[name=phone]').fill(GIVER.phone);
    await page.getByRole('button', { name: '赠送', exact: true }).click();
    await page.getByRole('dialog').getByRole('button', { name: '确定赠送' }).click();
    await expect.poll(() => alert(page)).toBe('好友手机号不能是您自己的手机号');
    await page.locator('input[name=phone]').fill(FRIEND.phone);
    await page.getByRole('button', { name: '赠送', exact: true }).click();
    // named as the phone lookup names them (the real name on record, else the account name; masked)
    const login = (await apiCall<unknown>(server.url, 'POST', '/oauth/login', {
      body: { username: GIVER.phone, password: GIVER.password, loginType: 'password' },
    })) as unknown as { token: string };
    const shown = (
      await apiCall<{ name: string }>(server.url, 'GET', `/customers/members/phone?phone=${FRIEND.phone}`, { token: login.token })
    ).data.name;
    // asked once, naming the friend and the coupon, before anything is gifted
    const asked = page.getByRole('dialog');
    await expect.poll(() => asked.innerText()).toContain(`赠送给 ${shown}（138****0002）？赠送后不能撤回`);
    expect(await asked.innerText()).toContain(COUPON);
    await asked.getByRole('button', { name: '确定赠送' }).click();
    await expect
      .poll(() => page.locator('[data-gift-done] [role=status]').innerText(), { timeout: 10_000 })
      .toBe(`已赠送给 ${shown}（138****0002）`);
    // it left me: in my transferred tab, no longer in my unused one
    await page.getByRole('link', { name: '查看已转赠的优惠券' }).click();
    await page.waitForURL('**/mine/coupons/refunder');
    await expect.poll(() => page.locator('[data-coupon-state=transferred]', { hasText: COUPON }).count()).toBe(1);

    // the friend, on their own phone
    const { page: friend } = await newPage({ baseURL: server.url });
    await logIn(friend, FRIEND);
    await gotoHydrated(friend, '/mine/coupons');
    await friend.waitForURL('**/mine/coupons/all');
    const arrived = friend.locator('[data-coupon-state=unused]', { hasText: COUPON });
    expect(await arrived.count()).toBe(1);
    expect(await arrived.locator('[data-coupon-note]').innerText()).toBe('来自 138****0001 的赠送');
  });
});
