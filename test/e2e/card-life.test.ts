import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatYuan } from '../../src/domain/money';
import { addDays, lastValidDay } from '../../src/domain/time';
import { shanghaiTomorrow } from './support/booking';
import { gotoHydrated, startOwnServer, useBrowser } from './support/browser';
import { apiCall, buyable, logInPage, memberToken, myCards, reviewAndAgree } from './support/checkout';
import type { RunningServer } from './support/server';

/**
 * One card's life in the browser, in Chinese and again in English (decisions 098, 100, 101): the demo
 * member buys a 10-class card with the balance, activates it, and every screen that shows it (the card
 * list, the card page, booking's card choice) gives one end date; the card page offers what the
 * server's `operations` allow; the extension form moves that date on every screen; a refund asked
 * (with its confirm step) holds the card while staff review it; approved, the card is apart as ended,
 * not counted, not offered for booking, and the order's money breakdown carries the refund.
 *
 * The 10-class card (count) is the seeded type that may be both extended (twice, 30 days at most) and
 * refunded; it starts on its first booking, so the walk activates it from its page first.
 */

/** The demo front-desk staff (seed/people.ts). */
const STAFF = { phone: '13800000005', password: 'staff1234' };

type Locale = 'zh' | 'en';

/** What the screens say, from the catalogs (locales/en/messages.po for English). */
const WORDS = {
  zh: {
    startsOnFirstBooking: /首次预约后生效/,
    activateNow: '立即激活',
    bookToActivate: '去约课（首次预约自动激活）',
    activateConfirm: '确定激活',
    inUse: '使用中',
    invalid: '已失效',
    expiry: '到期日期',
    validity: '有效期',
    noLongerInUse: '已停止使用',
    longTerm: '长期有效',
    validUntil: (d: string) => `有效期至${d}`,
    chooseCard: '选择会员卡',
    extend: '延期',
    extendTo: '延期至',
    extendSubmit: '确认延期',
    extended: '会员卡已延期',
    extensions: '延期次数',
    refund: '退款',
    agreeRefund: '我已阅读并同意会员卡退款规则',
    askRefund: '申请退款',
    askRefundConfirm: '确定申请退款',
    refundAsk: (amount: string) => new RegExp(`可退${amount.replace(/[.$]/g, '\\$&')}`),
    waitingReview: '待门店审核',
    refundPending: '这张卡的退款申请正在审核：审核完成前不能预约、激活或办理其他业务。',
    viewRefund: '查看退款申请',
    pendingApplication: '这张会员卡有未完成的申请',
    approve: '通过并退款',
    approveConfirm: '确定退款',
    myCards: '我的会员卡',
    endedCards: '已停止使用的卡',
    breakdown: '金额明细',
    balanceLine: '余额支付',
    paidLine: '实付金额',
    refundedLine: '已退款',
    refused: (label: string, reason: string) => `${label}：${reason}`,
    /** the card page's button (or refusal label) per operation offered */
    offers: {
      freeze: { button: '冻结会员卡', label: '冻结' },
      unfreeze: { button: '解冻', label: '解冻' },
      extend: { button: '延期', label: '延期' },
      transfer: { button: '转让', label: '转让' },
      refund: { button: '退款', label: '退款' },
      changeAdviser: { button: '更换顾问', label: '更换顾问' },
      family: { button: '亲情卡副卡', label: '亲情卡副卡' },
      gift: { button: '赠送给好友', label: '赠送给好友' },
    } as Record<string, { button: string; label: string }>,
  },
  en: {
    startsOnFirstBooking: /Starts on first booking/,
    activateNow: 'Activate now',
    bookToActivate: 'Book a class (activates on first booking)',
    activateConfirm: 'Activate',
    inUse: 'In use',
    invalid: 'Invalid',
    expiry: 'Expiry date',
    validity: 'Validity',
    noLongerInUse: 'No longer in use',
    longTerm: 'No expiry',
    validUntil: (d: string) => `Valid until ${d}`,
    chooseCard: 'Choose a membership card',
    extend: 'Extend',
    extendTo: 'Extend to',
    extendSubmit: 'Extend',
    extended: 'Card extended',
    extensions: 'Extensions',
    refund: 'Refund',
    agreeRefund: 'I have read and agree to the card refund policy',
    askRefund: 'Ask for a refund',
    askRefundConfirm: 'Ask for the refund',
    refundAsk: (amount: string) => new RegExp(`${amount.replace(/[.$]/g, '\\$&')} can be refunded`),
    waitingReview: "Waiting for the club's review",
    refundPending: 'A refund of this card is under review. Until it is decided, the card cannot book, be activated or be changed.',
    viewRefund: 'View refund request',
    pendingApplication: 'This card has an unfinished application',
    approve: 'Approve and refund',
    approveConfirm: 'Refund',
    myCards: 'My cards',
    endedCards: 'Ended cards',
    breakdown: 'Money breakdown',
    balanceLine: 'Balance',
    paidLine: 'Amount paid',
    refundedLine: 'Refunded',
    refused: (label: string, reason: string) => `${label}: ${reason}`,
    offers: {
      freeze: { button: 'Freeze card', label: 'Freeze' },
      unfreeze: { button: 'Unfreeze', label: 'Unfreeze' },
      extend: { button: 'Extend', label: 'Extend' },
      transfer: { button: 'Transfer', label: 'Transfer' },
      refund: { button: 'Refund', label: 'Refund' },
      changeAdviser: { button: 'Change adviser', label: 'Change adviser' },
      family: { button: 'Family sub cards', label: 'Family sub cards' },
      gift: { button: 'Give to a friend', label: 'Give to a friend' },
    } as Record<string, { button: string; label: string }>,
  },
} satisfies Record<Locale, unknown>;

type Words = (typeof WORDS)['zh'];

interface Offer {
  operation: string;
  allowed: boolean;
  code: number | null;
  message: string | null;
}
interface CardDetail {
  id: number;
  number: string;
  status: string;
  validUntil: string | null;
  operations: string[];
  offers: Offer[];
  application: 'transfer' | 'refund' | null;
  extensionCount: number;
  extension: { maxExtensions: number; maxExtensionDays: number } | null;
}

let server: RunningServer;
let token: string;

beforeAll(async () => {
  // a fresh seed: this file spends the demo member's balance on two cards and refunds them
  server = await startOwnServer();
  token = await memberToken(server.url);
});
afterAll(async () => {
  await server?.stop();
});

/** The card as the server answers it in a language (offers carry the refusals' words). */
async function cardDetail(id: number, locale: Locale): Promise<CardDetail> {
  const res = await fetch(`${server.url}/api/customers/cards/detail?id=${id}`, {
    headers: { cookie: `lang=${locale}`, 'Authorization-token': token },
  });
  const body = (await res.json()) as { code: number; data: CardDetail };
  expect(body.code).toBe(200);
  return body.data;
}

/** A class the card may book (tomorrow, else later today): booking's confirm page lists it as a choice. */
async function classFor(cardId: number): Promise<number> {
  for (const date of [shanghaiTomorrow(), undefined]) {
    const q = date ? `?date=${date}` : '';
    const classes = (await apiCall<{ id: number; state: string }[]>(server.url, 'GET', `/customers/classes/schedule${q}`, { token })).data;
    for (const c of classes.filter((x) => x.state === 'bookable')) {
      const cards = (
        await apiCall<{ id: number; usable: boolean }[]>(server.url, 'GET', `/customers/classes/cards?classId=${c.id}`, { token })
      ).data;
      if (cards.some((x) => x.id === cardId && x.usable)) return c.id;
    }
  }
  throw new Error(`no class the card ${cardId} may book`);
}

const DATE = /\d{4}-\d{2}-\d{2}/;

/** A line of the card page's facts (name, status, validity, ...), by its title; the history below is not searched. */
const fact = (page: Page, title: string) => page.locator('[data-card-facts]').getByRole('listitem').filter({ hasText: title });

/** The card page's end date, read from its 到期日期 line. */
async function cardPageEnd(page: Page, w: Words): Promise<string> {
  const line = fact(page, w.expiry);
  await line.waitFor();
  return DATE.exec(await line.innerText())?.[0] ?? '';
}

/** The card's row on /vipcard (a link named by its number) and the date it ends on there. */
async function listEnd(page: Page, number: string): Promise<string> {
  await gotoHydrated(page, '/vipcard?tab=mine');
  const row = page.getByRole('link', { name: new RegExp(number) });
  await row.waitFor();
  // "from ~ until": the last date on the row
  const dates = (await row.innerText()).match(/\d{4}-\d{2}-\d{2}/g) ?? [];
  return dates.at(-1) ?? '';
}

/**
 * Booking's cards on a class's confirm page: the choice (a radio per card, named by its text, number
 * included) or, when none of the member's cards can book it, the list of them with why not.
 */
async function bookingCards(page: Page, classId: number, w: Words) {
  await gotoHydrated(page, `/takecourse/bookcourse/bookcourseconfirm?id=${classId}`);
  await page
    .getByRole('group', { name: w.chooseCard })
    .or(page.getByRole('list', { name: w.myCards }))
    .first()
    .waitFor();
}
async function bookingChoice(page: Page, classId: number, number: string, w: Words) {
  await bookingCards(page, classId, w);
  return page.getByRole('radio', { name: new RegExp(number) });
}
/** The card's row among booking's cards (a choice or a card that cannot book), with what it says. */
const bookingRow = (page: Page, number: string, w: Words) =>
  page
    .locator('label', { has: page.getByRole('radio', { name: new RegExp(number) }) })
    .or(page.getByRole('list', { name: w.myCards }).getByRole('listitem').filter({ hasText: number }));

/** The card page offers exactly what the server's answer allows: its operations, and each offer or its refusal. */
async function expectOffers(page: Page, card: CardDetail, w: Words) {
  const button = (name: string) => page.getByRole('button', { name, exact: true });
  await fact(page, w.expiry).or(fact(page, w.validity)).first().waitFor();
  // activation comes from the operations (decision 098: the page follows the server's answer)
  expect(await button(w.activateNow).count()).toBe(card.operations.includes('activate') ? 1 : 0);
  expect(await button(w.bookToActivate).count()).toBe(card.operations.includes('activate') ? 1 : 0);
  for (const offer of card.offers) {
    const words = w.offers[offer.operation];
    expect(words, `words for the offer ${offer.operation}`).toBeTruthy();
    if (offer.operation in { freeze: 1, extend: 1, transfer: 1, refund: 1, changeAdviser: 1 })
      expect(offer.allowed, `offer ${offer.operation} and operations agree`).toBe(card.operations.includes(offer.operation));
    if (offer.allowed) {
      expect(await button(words!.button).count(), `${offer.operation} offered`).toBe(1);
    } else {
      expect(await button(words!.button).count(), `${offer.operation} not offered`).toBe(0);
      expect(
        await page.getByText(w.refused(words!.label, offer.message ?? ''), { exact: true }).count(),
        `${offer.operation} refused`,
      ).toBe(1);
    }
  }
}

describe('a card from purchase through extension to refund: one end date, one set of offers', { timeout: 120_000 }, () => {
  const browser = useBrowser();

  for (const locale of ['zh', 'en'] as const) {
    it(`buys, activates, extends and refunds a 10-class card, every screen agreeing (${locale})`, async () => {
      const w: Words = WORDS[locale];
      const { page } = await browser.newPage({ baseURL: server.url });
      await page.context().addCookies([{ name: 'lang', value: locale, url: server.url }]);
      await logInPage(page);

      // ---- buy: the 10-class card, all of it from the balance
      const goods = await buyable(server.url, token, 'card', (g) => g.cardType === 'count');
      const before = await myCards(server.url, token);
      const countedBefore = before.filter((c) => c.status !== 'invalid' && c.status !== 'transferred').length;
      await gotoHydrated(page, `/agreement/payagreement?id=${goods.id}`);
      await page.locator('form[data-checkout-reviewing]').waitFor();
      await page.getByRole('switch').click();
      await expect.poll(() => page.locator('[data-amount-to-pay]').innerText()).toBe(formatYuan(0));
      await reviewAndAgree(page);
      await page.locator('[data-action="pay"]').click();
      await page.waitForURL((u) => u.pathname === '/payf');
      await page.locator('[data-payment-result="paid"]').waitFor();
      const orderNo = new URL(page.url()).searchParams.get('orderNo')!;
      const bought = (await myCards(server.url, token)).find((c) => !before.some((b) => b.id === c.id));
      expect(bought, 'the order issued a card').toBeTruthy();
      const id = bought!.id;

      // ---- the card page: it starts on first booking; activated from here, it has its dates
      await gotoHydrated(page, `/mine/carddetail?id=${id}`);
      await expect.poll(() => fact(page, w.validity).innerText()).toMatch(w.startsOnFirstBooking);
      await expectOffers(page, await cardDetail(id, locale), w);
      await page.getByRole('button', { name: w.activateNow, exact: true }).click();
      await page.getByRole('button', { name: w.activateConfirm, exact: true }).click();
      await expect.poll(() => cardPageEnd(page, w), { timeout: 10_000 }).toMatch(DATE);
      let card = await cardDetail(id, locale);
      expect(card.status).toBe('in_use');
      const end = lastValidDay(new Date(card.validUntil!));
      expect(await cardPageEnd(page, w)).toBe(end);
      await expectOffers(page, card, w);
      expect(card.operations).toContain('extend');
      expect(card.operations).toContain('refund');

      // the same end on the card list and in booking's card choice
      expect(await listEnd(page, card.number)).toBe(end);
      const classId = await classFor(id);
      const choice = await bookingChoice(page, classId, card.number, w);
      expect(await choice.count()).toBe(1);
      const choiceName = (await page.locator('label', { has: choice }).innerText()).replace(/\s+/g, ' ');
      expect(choiceName).toContain(w.validUntil(end));
      expect(choiceName).not.toContain(addDays(end, 1));

      // ---- extend: the form opens on the furthest day the type allows (decision 100)
      const maxDays = card.extension!.maxExtensionDays;
      const newEnd = addDays(end, maxDays);
      await gotoHydrated(page, `/mine/carddetail?id=${id}`);
      await page.getByRole('button', { name: w.extend, exact: true }).click();
      const until = page.getByLabel(w.extendTo);
      expect(await until.inputValue()).toBe(newEnd);
      expect(await until.getAttribute('max')).toBe(newEnd);
      await page.getByRole('button', { name: w.extendSubmit, exact: true }).click();
      await page.getByText(w.extended, { exact: true }).first().waitFor();
      await expect.poll(() => fact(page, w.extensions).innerText()).toMatch(/1\s*$/);
      card = await cardDetail(id, locale);
      expect(lastValidDay(new Date(card.validUntil!))).toBe(newEnd);
      await expect.poll(() => cardPageEnd(page, w)).toBe(newEnd);
      await expectOffers(page, card, w);
      expect(await listEnd(page, card.number)).toBe(newEnd);
      const extendedChoice = await bookingChoice(page, classId, card.number, w);
      expect((await page.locator('label', { has: extendedChoice }).innerText()).replace(/\s+/g, ' ')).toContain(w.validUntil(newEnd));

      // ---- refund: the policy, the agreement, then asked once with the amount (decision 100)
      await gotoHydrated(page, `/mine/carddetail?id=${id}`);
      await page.getByRole('button', { name: w.refund, exact: true }).click();
      await page.waitForURL((u) => u.pathname === '/mine/refund' && u.searchParams.get('id') === String(id));
      await page.locator('[data-refund-amount]').waitFor();
      const amount = (await page.locator('[data-refund-amount]').innerText()).trim();
      await page.getByText(w.agreeRefund, { exact: true }).click();
      await page.getByRole('button', { name: w.askRefund, exact: true }).click();
      await page.getByText(w.refundAsk(amount)).waitFor();
      await page.getByRole('button', { name: w.askRefundConfirm, exact: true }).click();
      await page.getByText(w.waitingReview, { exact: true }).waitFor({ timeout: 10_000 });

      // under review: the card page offers neither activation nor booking, and says which application waits
      await gotoHydrated(page, `/mine/carddetail?id=${id}`);
      await page.getByText(w.refundPending, { exact: true }).waitFor();
      card = await cardDetail(id, locale);
      expect(card.application).toBe('refund');
      expect(card.operations).not.toContain('activate');
      await expectOffers(page, card, w);
      expect(await page.getByRole('button', { name: w.activateNow }).count()).toBe(0);
      expect(await page.getByRole('button', { name: w.bookToActivate }).count()).toBe(0);
      expect(await page.getByRole('link', { name: w.viewRefund }).count()).toBe(1);
      expect(await cardPageEnd(page, w)).toBe(newEnd);
      // booking does not offer it: it is listed with why not, never chosen
      await bookingCards(page, classId, w);
      const held = bookingRow(page, card.number, w);
      await expect.poll(() => held.count()).toBe(1);
      expect(await held.innerText()).toContain(w.pendingApplication);
      const heldRadio = page.getByRole('radio', { name: new RegExp(card.number) });
      if ((await heldRadio.count()) > 0) expect(await heldRadio.isChecked()).toBe(false);

      // ---- the front desk approves it in the staff console
      const desk = await browser.newPage({ baseURL: server.url });
      await desk.page.context().addCookies([{ name: 'lang', value: locale, url: server.url }]);
      const login = await desk.page
        .context()
        .request.post('/api/oauth/login', { data: { username: STAFF.phone, password: STAFF.password, loginType: 'password' } });
      expect(((await login.json()) as { code: number }).code).toBe(200);
      await gotoHydrated(desk.page, '/staff/cardRefunds');
      const request = desk.page.getByRole('listitem').filter({ hasText: orderNo });
      await request.waitFor();
      await request.getByRole('button', { name: w.approve }).click();
      // asked once, with what goes back (decision 102)
      await desk.page.getByRole('dialog').getByRole('button', { name: w.approveConfirm, exact: true }).click();
      await expect
        .poll(
          () =>
            desk.page
              .getByRole('listitem')
              .filter({ hasText: orderNo })
              .filter({ has: desk.page.getByRole('button') })
              .count(),
          {
            timeout: 10_000,
          },
        )
        .toBe(0);
      await desk.page.context().close();

      // ---- ended: apart on /vipcard, not counted, not in booking's choice, its page says so
      await gotoHydrated(page, '/vipcard?tab=mine');
      const ended = page.locator('section', { has: page.getByRole('heading', { name: w.endedCards }) });
      await ended.getByRole('link', { name: new RegExp(card.number) }).waitFor();
      expect(await ended.getByRole('link', { name: new RegExp(card.number) }).innerText()).not.toContain(w.longTerm);
      expect(await page.getByRole('link', { name: new RegExp(card.number) }).count()).toBe(1);
      const tab = page.getByRole('navigation', { name: 'membership cards' }).getByRole('link', { name: new RegExp(`^${w.myCards}`) });
      const counted = (await myCards(server.url, token)).filter((c) => c.status !== 'invalid' && c.status !== 'transferred').length;
      expect(counted).toBe(countedBefore);
      // the tab counts the cards still in use: the refunded one is not among them
      const squeeze = (t: string) => t.replace(/\s+/g, '');
      expect(squeeze(await tab.innerText())).toBe(squeeze(counted > 0 ? `${w.myCards}(${counted})` : w.myCards));
      await bookingCards(page, classId, w);
      expect(await bookingRow(page, card.number, w).count()).toBe(0);

      await gotoHydrated(page, `/mine/carddetail?id=${id}`);
      const validity = fact(page, w.validity);
      await validity.waitFor();
      expect(await validity.innerText()).toContain(w.noLongerInUse);
      expect(await page.getByText(w.longTerm).count()).toBe(0);
      expect(await fact(page, w.invalid).count()).toBe(1);
      card = await cardDetail(id, locale);
      expect(card.status).toBe('invalid');
      expect(card.operations).toEqual([]);
      await expectOffers(page, card, w);

      // ---- the order's money breakdown (decision 101): paid by the balance, the refund beside it
      await gotoHydrated(page, `/orderdetail?orderNo=${orderNo}`);
      const money = page.getByRole('list', { name: w.breakdown });
      await money.waitFor();
      const line = (title: string) => money.getByRole('listitem').filter({ hasText: new RegExp(`^${title}`) });
      const price = formatYuan(goods.memberPriceCents!);
      expect(await line(w.balanceLine).innerText()).toContain(price);
      expect(await line(w.paidLine).innerText()).toContain(price);
      await expect.poll(() => line(w.refundedLine).innerText(), { timeout: 10_000 }).toContain(amount);
    });
  }
});
