import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lastValidDay, addDays } from '../../src/domain/time';
import { gotoHydrated, startOwnServer, useBrowser } from './support/browser';
import type { RunningServer } from './support/server';

interface Card {
  id: number;
  name: string;
  cardType: string;
  status: string;
  validUntil: string | null;
  /** held as a family sub card (decision 040): only its owner manages it */
  familySub: boolean;
}

/** The demo member whose annual card has no class ahead (seed/bookings.ts). */
const MEMBER = { phone: '13800000002', password: 'yoga1234' };

let server: RunningServer;
beforeAll(async () => {
  // a fresh seed: this file freezes and extends a card
  server = await startOwnServer();
});
afterAll(async () => {
  await server?.stop();
});

async function logIn(page: Page): Promise<string> {
  const r = await page
    .context()
    .request.post('/api/oauth/login', { data: { username: MEMBER.phone, password: MEMBER.password, loginType: 'password' } });
  const body = (await r.json()) as { code: number; token: string };
  expect(body.code).toBe(200);
  return body.token;
}

const text = async (page: Page, selector: string) => (await page.locator(selector).innerText()).trim();

describe('card freeze, unfreeze and extension in the browser (decision 024)', () => {
  const { newPage } = useBrowser();

  it('a member freezes a card from today and sees it frozen with its new end, unfreezes it, then extends it', async () => {
    const { page } = await newPage({ baseURL: server.url });
    const token = await logIn(page);
    const res = await page.context().request.get('/api/customers/cards', { headers: { 'Authorization-token': token } });
    const cards = ((await res.json()) as { data: Card[] }).data;
    const card = cards.find((c) => c.cardType === 'time-based' && c.status === 'in_use')!;
    const end = lastValidDay(new Date(card.validUntil!));

    await gotoHydrated(page, `/mine/carddetail?id=${card.id}`);
    expect(await text(page, '[data-card-valid-until]')).toBe(end);
    // freeze: the form opens on today, one day
    await page.locator('[data-action=freeze]').click();
    const from = await page.locator('[data-freeze-form] input[name=from]').inputValue();
    await expect.poll(() => text(page, '[data-freeze-days]'), { timeout: 10_000 }).toBe('共冻结1天，到期日期将顺延1天。');
    await page.locator('[data-action=freeze-submit]').click();
    await expect
      .poll(() => page.locator('[data-card-header] [data-card-status]').getAttribute('data-card-status'), { timeout: 10_000 })
      .toBe('frozen');
    expect(await text(page, '[data-card-frozen-dates]')).toBe(`冻结中：${from} 至 ${from}`);
    expect(await text(page, '[data-card-valid-until]')).toBe(addDays(end, 1));
    expect(await page.locator('[data-offer-refused=extend]').innerText()).toContain('会员卡已冻结');

    // unfreeze the same day: the day comes off again
    await page.locator('[data-action=unfreeze]').click();
    await page.getByRole('button', { name: '确定解冻' }).click();
    await expect
      .poll(() => page.locator('[data-card-header] [data-card-status]').getAttribute('data-card-status'), { timeout: 10_000 })
      .toBe('in_use');
    expect(await text(page, '[data-card-valid-until]')).toBe(end);

    // extend by the most the type allows (time cards: 60 days), counted on the card
    await page.locator('[data-action=extend]').click();
    expect(await page.locator('[data-extend-form] input[name=until]').inputValue()).toBe(addDays(end, 60));
    await page.locator('[data-action=extend-submit]').click();
    await expect.poll(() => text(page, '[data-card-extensions]'), { timeout: 10_000 }).toBe('1');
    expect(await text(page, '[data-card-valid-until]')).toBe(addDays(end, 60));

    // the card's life, newest first, tells what was just done (decision 034)
    await gotoHydrated(page, `/mine/CardDetailPage?id=${card.id}`);
    const kinds = await page.locator('[data-card-history]').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-card-history')));
    expect(kinds[0]).toBe('extend');
    expect(kinds).toEqual(expect.arrayContaining(['freeze', 'unfreeze', 'extend']));
  });

  it("a member changes the card's adviser: a club, then one of its advisers; the card and its timeline say so (decision 034)", async () => {
    const { page } = await newPage({ baseURL: server.url });
    const token = await logIn(page);
    const res = await page.context().request.get('/api/customers/cards', { headers: { 'Authorization-token': token } });
    // one of the member's own cards (the seeded family card they share is its owner's to manage)
    const card = ((await res.json()) as { data: Card[] }).data.find((c) => c.status === 'in_use' && !c.familySub)!;
    await gotoHydrated(page, `/mine/carddetail?id=${card.id}`);
    await page.locator('[data-action=change-adviser]').click();
    const club = page.locator('[data-adviser-form] select[name=clubId]');
    await expect.poll(() => club.locator('option').count(), { timeout: 10_000 }).toBeGreaterThan(1);
    await club.selectOption({ index: 1 });
    const adviser = page.locator('[data-adviser-form] select[name=adviserId]');
    await expect.poll(() => adviser.locator('option').count(), { timeout: 10_000 }).toBeGreaterThan(1);
    const name = (await adviser.locator('option').nth(1).innerText()).trim();
    await adviser.selectOption({ index: 1 });
    await page.locator('[data-action=adviser-submit]').click();
    await expect.poll(() => text(page, '[data-card-adviser]'), { timeout: 10_000 }).toContain(name);
    await gotoHydrated(page, `/mine/CardDetailPage?id=${card.id}`);
    await expect.poll(() => page.locator('[data-card-history]').first().getAttribute('data-card-history')).toBe('adviser');
    expect(await page.locator('[data-card-history=adviser]').first().innerText()).toContain(name);
  });
});
