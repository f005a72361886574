import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatYuan } from '../../src/domain/money';
import { gotoHydrated, startOwnServer, useBrowser } from './support/browser';
import type { RunningServer } from './support/server';

interface Goods {
  id: number;
  kind: string;
  name: string;
  listPriceCents: number;
  memberPriceCents?: number;
  isUable: boolean;
  phases?: { id: number; isUable?: boolean; memberPriceCents?: number }[];
  teachers?: { id: number; name: string }[];
}

/** The five class-type catalogues (spec §2): list path, detail path, page titles, goods kind. */
const CATALOGUES = [
  {
    kind: 'workshop',
    list: '/greatworkshop',
    detail: '/greatworkshop/greatWorkShopDetails',
    title: '大师工作坊',
    detailTitle: '工作坊详情',
  },
  { kind: 'open', list: '/commonClass', detail: '/commonClass/commonClassDetails', title: '公开课', detailTitle: '公开课详情' },
  { kind: 'private', list: '/personalClass', detail: '/personalClass/personalClassDetails', title: '私教课', detailTitle: '私教课详情' },
  { kind: 'primary', list: '/primaryClass', detail: '/primaryClass/primaryClassDetails', title: '小班课', detailTitle: '小班课详情' },
  { kind: 'training', list: '/tt', detail: '/tt/ttDetails', title: '培训课程', detailTitle: '培训课程详情' },
] as const;

let server: RunningServer;

beforeAll(async () => {
  // a fresh seed: nothing bought or sold by other test files
  server = await startOwnServer();
});
afterAll(async () => {
  await server?.stop();
});

async function api<T>(path: string, token?: string): Promise<T> {
  const res = await fetch(`${server.url}/api${path}`, {
    headers: { cookie: 'lang=zh', ...(token ? { 'Authorization-token': token } : {}) },
  });
  const body = (await res.json()) as { code: number; data: T };
  if (body.code !== 200) throw new Error(`${path}: ${JSON.stringify(body)}`);
  return body.data;
}

const firstPage = (kind: string, token?: string) =>
  api<{ list: Goods[]; total: number }>(`/product/goods/goodList?kind=${kind}&pagenum=0&pagesize=10`, token);

/** The first goods of a catalogue that can be bought now. */
async function buyable(kind: string, token?: string): Promise<Goods> {
  const { list } = await firstPage(kind, token);
  const g = list.find((x) => x.isUable);
  if (!g) throw new Error(`the seed has no buyable ${kind}`);
  return g;
}

/** Makes whatever choice the goods need (a usable phase, a teacher) and returns it as agreement query. */
async function choose(page: Page, g: Goods): Promise<string> {
  const phase = g.phases?.find((p) => p.isUable !== false);
  if (phase) {
    await page.locator(`[data-phase="${phase.id}"]`).click();
    return `&phaseId=${phase.id}`;
  }
  const teacher = g.kind === 'private' ? g.teachers?.[0] : undefined;
  if (teacher) {
    await page.locator(`[data-teacher-option="${teacher.id}"]`).click();
    return `&teacherId=${teacher.id}`;
  }
  return '';
}

async function logIn(page: Page): Promise<string> {
  const r = await page
    .context()
    .request.post('/api/oauth/login', { data: { username: '13800000001', password: 'yoga1234', loginType: 'password' } });
  const body = (await r.json()) as { code: number; token: string };
  expect(body.code).toBe(200);
  return body.token;
}

describe('a visitor in the class-type catalogues (spec §2, §5)', () => {
  const browser = useBrowser();

  it('the Homepage class-type entries lead to the catalogues', async () => {
    const { page } = await browser.newPage({ baseURL: server.url });
    await gotoHydrated(page, '/');
    const hrefs = await page.locator('[data-class-type]').evaluateAll((els) => els.map((e) => e.getAttribute('href')));
    for (const c of CATALOGUES) expect(hrefs).toContain(c.list);
    await page.locator('[data-class-type="workshop"]').click();
    await page.waitForURL('**/greatworkshop');
    await expect.poll(() => page.title()).toBe('大师工作坊');
    await page.locator('[data-catalogue="workshop"] [data-goods]').first().waitFor();
  });

  for (const c of CATALOGUES) {
    it(`${c.list}: list prices only; a detail's Buy sends the visitor to log in, then to the agreement`, async () => {
      const { list } = await firstPage(c.kind);
      expect(list.length, `the seed has ${c.kind} goods`).toBeGreaterThan(0);
      expect(
        list.every((g) => g.memberPriceCents === undefined),
        'no member price for a visitor',
      ).toBe(true);
      const { page } = await browser.newPage({ baseURL: server.url });
      await gotoHydrated(page, c.list);
      await expect.poll(() => page.title()).toBe(c.title);
      for (const g of list) {
        const row = page.locator(`[data-catalogue="${c.kind}"] [data-goods="${g.id}"]`);
        await expect.poll(() => row.locator('[data-price]').getAttribute('data-price')).toBe('list');
        expect(await row.locator('[data-price]').innerText()).toBe(formatYuan(g.listPriceCents));
      }
      expect(await page.locator('[data-price="member"]').count()).toBe(0);

      const g = await buyable(c.kind);
      const detail = await api<Goods>(`/product/goods/detail?id=${g.id}`);
      await page.locator(`[data-goods="${g.id}"]`).click();
      await page.waitForURL(`**${c.detail}?id=${g.id}`);
      await expect.poll(() => page.title()).toBe(c.detailTitle);
      await expect.poll(() => page.locator('h1').innerText()).toBe(g.name);
      const bar = page.locator('[data-buy-bar]');
      expect(await bar.locator('[data-price]').innerText()).toBe(formatYuan(g.listPriceCents));
      // member prices are one login away, back to this page
      expect(await page.locator('[data-login-for-price]').getAttribute('href')).toBe(
        `/login/${encodeURIComponent(`${c.detail}?id=${g.id}`)}`,
      );

      const query = await choose(page, detail);
      await expect.poll(() => bar.getAttribute('data-buy-bar')).toBe('login');
      await page.locator('[data-action="buy"]').click();
      const agreement = `/agreement/payagreement?id=${g.id}${query}`;
      await page.waitForURL((u) => u.pathname === `/login/${encodeURIComponent(agreement)}`);
    });
  }

  it('a visitor who chose a teacher, pressed Buy and logged in lands on the agreement with the teacher kept', async () => {
    const g = await buyable('private');
    const detail = await api<Goods>(`/product/goods/detail?id=${g.id}`);
    const teacher = detail.teachers![1] ?? detail.teachers![0]!;
    const { page } = await browser.newPage({ baseURL: server.url });
    await gotoHydrated(page, `/personalClass/personalClassDetails?id=${g.id}`);
    await page.locator(`[data-teacher-option="${teacher.id}"]`).click();
    await page.locator('[data-action="buy"]').click();
    await page.waitForURL((u) => u.pathname.startsWith('/login/'));
    await page.getByRole('button', { name: /密码登录|Password/ }).click();
    await page.fill('input[name=phone]', '13800000001');
    await page.fill('input[name=password]', 'yoga1234');
    await page.locator('label:has(input[name=agreement])').first().click();
    await page.locator('[data-testid=login-submit]').click();
    await page.waitForURL((u) => u.pathname === '/agreement/payagreement' && u.search === `?id=${g.id}&teacherId=${teacher.id}`);
  });

  it("each catalogue's and detail's goods are in the server-rendered HTML, with list prices", async () => {
    for (const c of CATALOGUES) {
      const g = await buyable(c.kind);
      for (const p of [c.list, `${c.detail}?id=${g.id}`]) {
        const res = await fetch(`${server.url}${p}`, { headers: { cookie: 'lang=zh' } });
        expect(res.status, p).toBe(200);
        const html = await res.text();
        expect(html, p).toContain(g.name);
        expect(html, p).toContain(formatYuan(g.listPriceCents));
        expect(html, `${p}: no member price for a visitor`).not.toContain('data-price="member"');
      }
    }
  });

  it('every catalogue and detail fits a 320 px wide phone', async () => {
    const { page } = await browser.newPage({ baseURL: server.url, viewport: { width: 320, height: 640 } });
    for (const c of CATALOGUES) {
      const g = await buyable(c.kind);
      for (const p of [c.list, `${c.detail}?id=${g.id}`]) {
        await gotoHydrated(page, p);
        expect(await page.evaluate(() => document.documentElement.scrollWidth), p).toBeLessThanOrEqual(320);
      }
    }
  });

  it('an unknown or missing id says so and leads back to its catalogue', async () => {
    const tracked = await browser.newPage({ baseURL: server.url });
    tracked.allowError(/status of 404/);
    const { page } = tracked;
    const workshop = await buyable('workshop');
    for (const p of ['/tt/ttDetails?id=999999', '/tt/ttDetails', `/tt/ttDetails?id=${workshop.id}`]) {
      const res = await gotoHydrated(page, p);
      expect(res?.status(), p).toBe(404);
      await page.locator('[data-not-found] a[href="/tt"]').waitFor();
    }
  });
});

describe('a member in the class-type catalogues', () => {
  const browser = useBrowser();

  it('sees member prices in every catalogue and on a detail', async () => {
    const { page } = await browser.newPage({ baseURL: server.url });
    const token = await logIn(page);
    for (const c of CATALOGUES) {
      const { list } = await firstPage(c.kind, token);
      await gotoHydrated(page, c.list);
      for (const g of list) {
        expect(g.memberPriceCents, `${c.kind} ${g.id} has a member price`).toBeDefined();
        const price = page.locator(`[data-goods="${g.id}"] [data-price="member"]`);
        await expect.poll(() => price.locator('.text-red-600').innerText()).toBe(formatYuan(g.memberPriceCents!));
      }
    }
    const g = await buyable('workshop', token);
    await gotoHydrated(page, `/greatworkshop/greatWorkShopDetails?id=${g.id}`);
    await expect
      .poll(() => page.locator('[data-buy-bar] [data-price="member"] .text-red-600').innerText())
      .toBe(formatYuan(g.memberPriceCents!));
    expect(await page.locator('[data-login-for-price]').count(), 'no login prompt for a member').toBe(0);
    await page.locator('[data-action="buy"]').click();
    await page.waitForURL((u) => u.pathname === '/agreement/payagreement' && u.search === `?id=${g.id}`);
  });

  it('must choose a teacher on a private class before Buy is enabled; Buy opens the agreement with the teacher', async () => {
    const { page } = await browser.newPage({ baseURL: server.url });
    const token = await logIn(page);
    const g = await buyable('private', token);
    const detail = await api<Goods>(`/product/goods/detail?id=${g.id}`, token);
    expect(detail.teachers?.length, 'a private class offers teachers to choose from').toBeGreaterThan(0);
    await gotoHydrated(page, '/personalClass');
    await page.locator(`[data-goods="${g.id}"]`).click();
    await page.waitForURL(`**/personalClass/personalClassDetails?id=${g.id}`);
    const buy = page.locator('[data-action="buy"]');
    await expect.poll(() => page.locator('[data-buy-bar]').getAttribute('data-buy-bar')).toBe('choose');
    expect(await buy.isDisabled(), 'Buy disabled before a teacher is chosen').toBe(true);
    expect(await page.locator('[data-buy-note]').innerText()).toBe('请选择老师');
    await buy.click({ force: true });
    expect(new URL(page.url()).pathname, 'a disabled Buy goes nowhere').toBe('/personalClass/personalClassDetails');

    const teacher = detail.teachers![detail.teachers!.length - 1]!;
    await page.locator(`[data-teacher-option="${teacher.id}"]`).click();
    await expect.poll(() => buy.isDisabled()).toBe(false);
    await buy.click();
    await page.waitForURL((u) => u.pathname === '/agreement/payagreement' && u.search === `?id=${g.id}&teacherId=${teacher.id}`);
  });

  it('must choose a phase on a training course with phases; Buy carries the phase', async () => {
    const { page } = await browser.newPage({ baseURL: server.url });
    const token = await logIn(page);
    const g = await buyable('training', token);
    const detail = await api<Goods>(`/product/goods/detail?id=${g.id}`, token);
    const phase = detail.phases?.find((p) => p.isUable !== false);
    expect(phase, 'the seeded training has a phase to choose').toBeDefined();
    await gotoHydrated(page, `/tt/ttDetails?id=${g.id}`);
    const buy = page.locator('[data-action="buy"]');
    await expect.poll(() => page.locator('[data-buy-note]').innerText()).toBe('请选择课程阶段');
    expect(await buy.isDisabled()).toBe(true);
    // a phase with its own price shows that price in the bar; one without shows the course's
    const barPrice = page.locator('[data-buy-bar] [data-price="member"] .text-red-600');
    const priced = detail.phases?.find((p) => p.isUable !== false && p.memberPriceCents !== undefined);
    if (priced) {
      await page.locator(`[data-phase="${priced.id}"]`).click();
      await expect.poll(() => barPrice.innerText()).toBe(formatYuan(priced.memberPriceCents!));
    }
    await page.locator(`[data-phase="${phase!.id}"]`).click();
    await expect.poll(() => barPrice.innerText()).toBe(formatYuan(phase!.memberPriceCents ?? g.memberPriceCents!));
    await expect.poll(() => buy.isDisabled()).toBe(false);
    await buy.click();
    await page.waitForURL((u) => u.pathname === '/agreement/payagreement' && u.search === `?id=${g.id}&phaseId=${phase!.id}`);
  });
});
