import { readFile } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gotoHydrated, startOwnServer, useBrowser } from './support/browser';
import type { RunningServer } from './support/server';

/** A demo member (seed), on a server of this file's own: the page stores their personal information. */
const MEMBER = { phone: '13800000002', password: 'yoga1234' };

let server: RunningServer;
beforeAll(async () => {
  server = await startOwnServer();
});
afterAll(async () => {
  await server?.stop();
});

async function logIn(page: Page) {
  const r = await page
    .context()
    .request.post('/api/oauth/login', { data: { username: MEMBER.phone, password: MEMBER.password, loginType: 'password' } });
  expect(((await r.json()) as { code: number }).code).toBe(200);
}

const alert = (page: Page) => page.locator('[data-person-form] [role=alert]').innerText();

describe('personal information in the browser, as a phone (decision 032)', () => {
  const { newPage } = useBrowser();

  it('a member fills the form, is told which part of a wrong ID number is wrong, saves, and sees it masked', async () => {
    const { page } = await newPage({ baseURL: server.url });
    await logIn(page);
    await gotoHydrated(page, '/mine');
    await page.getByText('个人信息', { exact: true }).click();
    await page.waitForURL('**/mine/improvePersonInfo');
    await page.locator('[data-person-form] input[name=realName]').fill('王小明');
    // well-formed but wrong: the check character
    await page.locator('[data-person-form] input[name=idNumber]').fill('110101199003071234');
    await page.getByRole('button', { name: '保存' }).click();
    await expect.poll(() => alert(page)).toBe('身份证号校验位不正确，请核对');
    // said at its field: marked invalid and focused
    const idField = page.locator('[data-person-form] input[name=idNumber]');
    expect(await idField.getAttribute('aria-invalid')).toBe('true');
    expect(await idField.evaluate((el) => el === document.activeElement)).toBe(true);
    // a birth date that is not real
    await page.locator('[data-person-form] input[name=idNumber]').fill('110101199002301233');
    await page.getByRole('button', { name: '保存' }).click();
    await expect.poll(() => alert(page)).toBe('身份证号中的出生日期不正确');
    await page.locator('[data-person-form] input[name=idNumber]').fill('110101199003071233');
    await page.locator('[data-person-form] select[name=yogaAge]').selectOption('3');
    await page.getByText('阴瑜伽').click();
    await page.getByText('哈他瑜伽').click();
    await page.locator('[data-person-form] select[name=practiceTime]').selectOption('evening');
    await page.locator('[data-person-form] input[name=salutation]').fill('小明');
    await page.getByRole('button', { name: '保存' }).click();
    const field = (f: string) => page.locator(`[data-person-view] [data-field=${f}]`).innerText();
    await expect.poll(() => field('realName'), { timeout: 10_000 }).toBe('**明');
    expect(await field('idNumber')).toBe('1101**********1233');
    expect(await field('yogaAge')).toBe('3年');
    expect(await field('styles')).toBe('哈他瑜伽、阴瑜伽');
    expect(await field('practiceTime')).toBe('晚上');
    expect(await field('salutation')).toBe('小明');
    // stored: a new visit shows it masked, never whole
    await gotoHydrated(page, '/mine/improvePersonInfo');
    expect(await field('idNumber')).toBe('1101**********1233');
    expect(await page.content()).not.toContain('110101199003071233');
  });

  it('a member downloads their data from Mine: one JSON file with their account and personal information', async () => {
    const { page } = await newPage({ acceptDownloads: true, baseURL: server.url });
    await logIn(page);
    await gotoHydrated(page, '/mine');
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByText('下载我的数据', { exact: true }).click()]);
    expect(download.suggestedFilename()).toMatch(/^yoga-club-my-data-\d+-\d{4}-\d{2}-\d{2}\.json$/);
    const { data } = JSON.parse(await readFile((await download.path())!, 'utf8')) as {
      data: { account: { phone: string }; personInfo: { idNumber: string }[]; cards: unknown[] };
    };
    expect(data.account.phone).toBe(MEMBER.phone);
    // their own ID number, whole (the first test of this file saved it; it is sealed at rest)
    expect(data.personInfo.map((p) => p.idNumber)).toEqual(['110101199003071233']);
    expect(data.cards.length).toBeGreaterThan(0);
  });
});
