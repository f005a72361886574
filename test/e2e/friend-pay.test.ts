import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatYuan } from '../../src/domain/money';
import { gotoHydrated, useBrowser, waitHydrated } from './support/browser';
import { apiCall, balanceOf, MEMBER, memberToken, myCards, reviewAndAgree } from './support/checkout';
import { startMovableClockServer, type MovableClockServer } from './support/movable-clock';

/**
 * Friend pay as two phones see it (spec §4 "merged into friend pay", "auto-cancels after 1 hour
 * unpaid", §6 "friend payer needs messaging-app authorization"; decisions 021 and 025): the member
 * only taps and types in the app; the friend is another messaging-app user of the OAuth stand-in, who
 * authorizes with the user-info scope and pays at the WeChat Pay stand-in's cashier; the hour passes
 * on the server's injected clock (support/movable-clock.ts). The friend sees who asks, and the member
 * the friend's name on the invitation and the split page once paid, in zh and en (decision 099).
 */
interface Goods {
  id: number;
  name: string;
  cardType: string | null;
  isUable: boolean;
  newCustomersOnly: boolean;
  perPersonLimit: number | null;
}
interface Part {
  seq: number;
  kind: string;
  state: string;
  amountCents: number;
  paidBy: string | null;
  friendName: string | null;
}
interface OrderDetail {
  orderNo: string;
  state: string;
  amountToPayCents: number;
  parts: Part[];
}

let server: MovableClockServer;
/** the test's own session of the demo member, to read what the server holds */
let token: string;
let card: Goods;

beforeAll(async () => {
  // a fresh seed on a clock this file moves (the invitation's hour)
  server = await startMovableClockServer();
  token = await memberToken(server.url);
  const { data } = await apiCall<{ list: Goods[] }>(
    server.url,
    'GET',
    '/product/goods/goodList?kind=card&type=count&pagenum=0&pagesize=50',
  );
  card = data.list.find((g) => g.isUable && !g.newCustomersOnly && g.perPersonLimit === null)!;
  expect(card, 'the seed sells a count card anyone may buy').toBeTruthy();
});
afterAll(async () => {
  await server?.stop();
});

const orderDetail = async (orderNo: string) =>
  (await apiCall<OrderDetail>(server.url, 'GET', `/orders/detail?orderNo=${orderNo}`, { token })).data;
/** the order's live shares (a split drops the whole share it replaces) */
const liveShares = (o: OrderDetail) => o.parts.filter((p) => p.kind === 'share' && p.state !== 'dropped');

/**
 * The member's phone, in the messaging app: the card's page, buy (logging in on the way), the payment
 * fails at the provider, so the order waits unpaid; its page splits it in two; the first part is paid
 * by balance; the second part's page makes the invitation and the member copies its link.
 */
async function buySplitPayOneAndInvite(page: Page): Promise<{ orderNo: string; link: string; partCents: number[] }> {
  await gotoHydrated(page, `/vipcard/vipcarddetail?id=${card.id}`);
  await page.locator('[data-action=buy]').click();
  await page.waitForURL((u) => u.pathname.startsWith('/login/'));
  await waitHydrated(page);
  await page.getByRole('button', { name: /密码登录/ }).click();
  await page.fill('input[name=phone]', MEMBER.phone);
  await page.fill('input[name=password]', MEMBER.password);
  await page.locator('label:has(input[name=agreement])').first().click();
  await page.locator('[data-testid=login-submit]').click();
  await page.waitForURL((u) => u.pathname === '/agreement/payagreement');
  await reviewAndAgree(page);
  // the mobile payment service's page (its stand-in) fails it: the order waits, unpaid
  await page.locator('[data-method="alipay"]').click();
  await page.locator('[data-action="pay"]').click();
  await page.waitForURL((u) => u.pathname.startsWith('/api/dev/pay/alipay'));
  await page.getByRole('button', { name: 'Fail' }).click();
  await page.waitForURL((u) => u.pathname === '/pays');
  await page.locator('[data-payment-result="failed"]').waitFor();
  const orderNo = new URL(page.url()).searchParams.get('orderNo')!;
  const whole = await orderDetail(orderNo);
  expect(whole.state).toBe('payment_failed');

  // the order's page: split it, two equal parts proposed
  await page.locator('[data-action="pay-again"]').click();
  await page.waitForURL((u) => u.pathname === '/orderdetail');
  await page.locator('[data-action="split-order"]').click();
  await page.waitForURL((u) => u.pathname === '/orderdetail/splittopay');
  await page.locator('[data-split-form]').waitFor();
  const half = Math.floor(whole.amountToPayCents / 2);
  const proposed = [whole.amountToPayCents - half, half].map((c) => (c / 100).toFixed(2));
  expect(await page.locator('input[name^="part-"]').evaluateAll((els) => els.map((e) => (e as HTMLInputElement).value))).toEqual(proposed);
  await page.locator('[data-action="split-submit"]').click();
  await page.locator('[data-split-parts]').waitFor();
  const split = await orderDetail(orderNo);
  const shares = liveShares(split);
  expect(shares.map((p) => p.state)).toEqual(['unpaid', 'unpaid']);
  expect(shares).toHaveLength(2);
  const partCents = shares.map((p) => p.amountCents);
  expect(partCents[0]! + partCents[1]!).toBe(whole.amountToPayCents);
  const rows = page.locator('[data-split-parts] li');
  expect(await rows.locator('[data-part-amount]').allInnerTexts()).toEqual(partCents.map(formatYuan));

  // the first part, by balance
  const balanceBefore = await balanceOf(server.url, token);
  await rows.nth(0).locator('[data-action="pay-part"]').click();
  await page.waitForURL((u) => u.pathname === '/orderdetail' && u.searchParams.get('partSeq') === String(shares[0]!.seq));
  await page.locator('[data-pay-panel="choosingMethod"] [data-method="balance"]').click();
  expect(await page.locator('[data-action="pay-order"]').innerText()).toContain(formatYuan(partCents[0]!));
  await page.locator('[data-action="pay-order"]').click();
  await page.waitForURL((u) => u.pathname === '/payf');
  await page.locator('[data-payment-result="paid"]').waitFor();
  expect(await balanceOf(server.url, token)).toBe(balanceBefore - partCents[0]!);

  // back to the parts: the first paid, the second sent to a friend
  await page.locator('[data-action="view-split"]').click();
  await page.waitForURL((u) => u.pathname === '/orderdetail/splittopay');
  await expect.poll(() => rows.nth(0).getAttribute('data-part-state')).toBe('paid');
  await rows.nth(1).locator('[data-action="ask-friend"]').click();
  await page.waitForURL((u) => u.pathname === '/friendsplit' && u.searchParams.get('partSeq') === String(shares[1]!.seq));
  await page.locator('[data-invite-link]').waitFor();
  expect(await page.locator('[data-invitation] [data-amount]').innerText()).toBe(formatYuan(partCents[1]!));
  await page.locator('[data-action="copy-link"]').click();
  await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toMatch(/\/payfriend\?t=/);
  const link = await page.evaluate(() => navigator.clipboard.readText());
  expect(link).toBe(await page.locator('[data-invite-link]').inputValue());
  expect((await orderDetail(orderNo)).state).toBe('friend_paying');
  return { orderNo, link, partCents };
}

/** The friend's phone: another messaging-app user (the OAuth stand-in's identity choice, with a nickname), opening the link. */
async function friendOpens(
  browser: ReturnType<typeof useBrowser>,
  link: string,
  friend: { openId: string; nickname: string },
): Promise<Page> {
  const { page, allowError } = await browser.newPage({ baseURL: server.url });
  // the first pay tap is refused until the friend authorized (40019, 403): the page then goes to authorize
  allowError(/status of 403/);
  await page.goto(`/api/dev/wechat/identity?as=${friend.openId}&nickname=${encodeURIComponent(friend.nickname)}`);
  await gotoHydrated(page, link);
  return page;
}

describe('friend pay in two phones (spec §4, §6)', () => {
  const browser = useBrowser();
  const CLIPBOARD = { permissions: ['clipboard-read', 'clipboard-write'] };

  it('a member splits an unpaid card order, pays one part by balance, a friend pays the other through the link: the order fully paid, the card issued', async () => {
    const member = await browser.newPage({ baseURL: server.url, ...CLIPBOARD });
    const cardsBefore = new Set((await myCards(server.url, token)).map((c) => c.id));
    const { orderNo, link, partCents } = await buySplitPayOneAndInvite(member.page);

    // the friend: what they pay for and how much, then pay; the server asks for the user-info authorization first
    const friend = await friendOpens(browser, link, { openId: `o_friend_${Date.now()}`, nickname: '小林' });
    await friend.locator('[data-friend-pay-screen="ready"]').waitFor();
    // who asks: the member as other people see them (the demo member has no messaging-app name: masked), never the phone
    const t = new URL(link).searchParams.get('t')!;
    const asker = (await apiCall<{ member: { name: string } }>(server.url, 'GET', `/friend/invitation?t=${t}`)).data.member.name;
    expect(asker).toMatch(/^\*+\S$/);
    expect(await friend.locator('[data-asker-name]').innerText()).toBe(`${asker} 请你代付`);
    expect(await friend.locator('body').innerText()).not.toContain(MEMBER.phone);
    expect(await friend.locator('[data-deadline]').innerText()).toMatch(/^请在 \d{4}-\d{2}-\d{2} \d{2}:\d{2} 前支付$/);
    // the same page in English
    await friend.context().addCookies([{ name: 'lang', value: 'en', url: server.url }]);
    await gotoHydrated(friend, link);
    await friend.locator('[data-friend-pay-screen="ready"]').waitFor();
    expect(await friend.locator('[data-asker-name]').innerText()).toBe(`${asker} asks you to pay`);
    expect(await friend.locator('[data-deadline]').innerText()).toMatch(/^Pay by /);
    await friend.context().addCookies([{ name: 'lang', value: 'zh', url: server.url }]);
    await gotoHydrated(friend, link);
    await friend.locator('[data-friend-pay-screen="ready"]').waitFor();
    expect(await friend.locator('[data-invitation] [data-goods-name]').innerText()).toBe(card.name);
    expect(await friend.locator('[data-invitation] [data-amount]').innerText()).toBe(formatYuan(partCents[1]!));
    expect(await friend.locator('[data-action="pay"]').innerText()).toContain(formatYuan(partCents[1]!));
    const authorizations: string[] = [];
    friend.on('request', (r) => {
      const u = new URL(r.url());
      if (r.isNavigationRequest() && u.pathname === '/api/oauth/wechat/authorize') authorizations.push(u.searchParams.get('scope') ?? '');
    });
    await friend.locator('[data-action="pay"]').click();
    // authorized, back on the page, which pays on: WeChat Pay's cashier (the stand-in) with the friend's trade
    await friend.waitForURL((u) => u.pathname === '/api/dev/pay/wechat/cashier');
    expect(authorizations).toEqual(['userinfo']);

    // while the friend is at the cashier, the member's parts page shows each part's own state: theirs paid, the friend's being paid
    const friendsSeq = liveShares(await orderDetail(orderNo))[1]!.seq;
    await gotoHydrated(member.page, `/orderdetail/splittopay?orderNo=${orderNo}`);
    const rows = member.page.locator('[data-split-parts] li');
    // the parts list comes from the page's own request after hydration: a loaded machine answers it later
    await expect.poll(() => rows.locator('[data-part-state-label]').allInnerTexts()).toEqual(['你已支付（余额支付）', '好友正在支付']);
    expect(await rows.nth(1).locator('[data-action="pay-part"]').count()).toBe(0);
    expect(await rows.nth(1).locator('[data-action="view-invitation"]').count()).toBe(1);
    await gotoHydrated(member.page, `/friendsplit?orderNo=${orderNo}&partSeq=${friendsSeq}`);

    await friend.getByRole('button', { name: 'Pay' }).click();
    await friend.waitForURL((u) => u.pathname === '/payfriend');
    await friend.locator('[data-payment-result="paid"]').waitFor();

    // the member's page, watching the invitation, shows who paid
    await expect
      .poll(() => member.page.locator('[data-friend-invite]').first().getAttribute('data-friend-invite'), { timeout: 15_000 })
      .toBe('paid');
    expect(await member.page.locator('[data-friend-invite="paid"] [role=status]').innerText()).toBe('已由好友 小林 代付（微信支付）');
    // re-opened later, the invitation says what happened to it, and the split page says who paid each part: in zh and in English
    const invitationPage = `/friendsplit?orderNo=${orderNo}&partSeq=${friendsSeq}`;
    for (const [lang, paidBy, parts] of [
      ['zh', '已由好友 小林 代付（微信支付）', ['你已支付（余额支付）', '小林 已代付（微信支付）']],
      ['en', 'Paid by your friend 小林 (WeChat Pay)', ['Paid by you (Balance)', 'Paid by 小林 (WeChat Pay)']],
    ] as const) {
      await member.page.context().addCookies([{ name: 'lang', value: lang, url: server.url }]);
      await gotoHydrated(member.page, invitationPage);
      await member.page.locator('[data-friend-invite="paid"]').waitFor();
      expect(await member.page.locator('[data-friend-invite="paid"] [role=status]').innerText()).toBe(paidBy);
      await gotoHydrated(member.page, `/orderdetail/splittopay?orderNo=${orderNo}`);
      await expect.poll(() => member.page.locator('[data-split-parts] li [data-part-state-label]').allInnerTexts()).toEqual([...parts]);
    }
    await member.page.context().addCookies([{ name: 'lang', value: 'zh', url: server.url }]);
    await gotoHydrated(member.page, invitationPage);
    await member.page.locator('[data-friend-invite="paid"]').waitFor();
    // the order: fully paid
    await member.page.locator('[data-action="view-order"]').click();
    await member.page.waitForURL((u) => u.pathname === '/orderdetail' && u.searchParams.get('orderNo') === orderNo);
    await waitHydrated(member.page);
    expect(await member.page.locator('[data-order-state-label]').getAttribute('data-order-state-label')).toBe('fully_paid');
    expect(await member.page.locator('[data-order-state-label]').innerText()).toBe('已全部支付');
    expect(await member.page.locator('[data-action="pay-order"], [data-action="split-order"], [data-action="ask-friend"]').count()).toBe(0);
    // nothing left to choose: the parts are only shown
    expect(await member.page.locator('[data-split-summary]').innerText()).toContain('此订单已分开支付，共 2 份。');
    // one money breakdown (decision 101): each payer by method, the friend by name, 实付 their sum
    const lines = member.page.getByRole('list', { name: '金额明细' }).getByRole('listitem');
    expect((await lines.allInnerTexts()).map((l) => l.replace(/\s+/g, ''))).toEqual(
      expect.arrayContaining([
        `余额支付${formatYuan(partCents[0]!)}`,
        `好友代付（小林，微信支付）${formatYuan(partCents[1]!)}`,
        `实付金额${formatYuan(partCents[0]! + partCents[1]!)}`,
      ]),
    );
    const paid = await orderDetail(orderNo);
    expect(paid.state).toBe('fully_paid');
    expect(liveShares(paid).map((p) => [p.amountCents, p.state, p.paidBy, p.friendName])).toEqual([
      [partCents[0], 'paid', 'balance', null],
      [partCents[1], 'paid', 'wechat', '小林'],
    ]);

    // the card is issued: among my cards
    const issued = (await myCards(server.url, token)).filter((c) => !cardsBefore.has(c.id));
    expect(issued.map((c) => c.name)).toEqual([card.name]);
    await gotoHydrated(member.page, '/vipcard?tab=mine');
    const row = member.page.locator(`[data-my-card="${issued[0]!.id}"]`);
    expect(await row.innerText()).toContain(card.name);
  });

  it('an invitation left for an hour: the order waits for the member with a new window; that window over, it is cancelled and the part paid by balance comes back, shown in the balance history', async () => {
    const balanceBefore = await balanceOf(server.url, token);
    const member = await browser.newPage({ baseURL: server.url, ...CLIPBOARD });
    const { orderNo, link, partCents } = await buySplitPayOneAndInvite(member.page);
    expect(await balanceOf(server.url, token)).toBe(balanceBefore - partCents[0]!);

    // an hour and a minute pass on the server's clock; its jobs run (now, or already by the server's
    // own runner, which polls every 5 s and may take them first: the effects below are the check)
    await server.advance(61 * 60_000);
    await server.runJobs();

    // the member's invitation page, still open, sees it end
    await expect
      .poll(() => member.page.locator('[data-friend-invite]').first().getAttribute('data-friend-invite'), { timeout: 15_000 })
      .toBe('ended');
    // a friend opening the link now has nothing to pay
    const friend = await friendOpens(browser, link, { openId: `o_late_${Date.now()}`, nickname: '小周' });
    await friend.locator('[data-friend-pay-screen="over"]').waitFor();
    expect(await friend.locator('[data-payment-result]').innerText()).toContain('代付邀请已过期');
    expect(await friend.locator('[data-action="pay"]').count()).toBe(0);
    // the member re-opens the invitation: it says the hour ran out, and offers a new link or another way to pay
    const seq = liveShares(await orderDetail(orderNo))[1]!.seq;
    await gotoHydrated(member.page, `/friendsplit?orderNo=${orderNo}&partSeq=${seq}`);
    await member.page.locator('[data-friend-invite="expired"]').waitFor();
    expect(await member.page.locator('[data-friend-invite="expired"] [role=status]').innerText()).toBe(
      '代付邀请已过期：好友未在 1 小时内完成支付，邀请已自动取消',
    );
    expect(await member.page.locator('[data-action="invite-again"]').count()).toBe(1);
    expect(await member.page.locator('[data-action="pay-other-way"]').getAttribute('href')).toBe(
      `/orderdetail?orderNo=${orderNo}&partSeq=${seq}`,
    );

    // the order: the hour never cancels it; it is the member's to pay again, with a new 15-minute window
    await member.page.locator('[data-action="view-order"]').click();
    await member.page.waitForURL((u) => u.pathname === '/orderdetail' && u.searchParams.get('orderNo') === orderNo);
    await waitHydrated(member.page);
    expect(await member.page.locator('[data-order-state-label]').getAttribute('data-order-state-label')).toBe('unpaid');
    expect((await orderDetail(orderNo)).state).toBe('unpaid');
    // nobody pays in that window: cancelled, nothing to do
    await server.advance(16 * 60_000);
    await server.runJobs();
    await expect.poll(async () => (await orderDetail(orderNo)).state, { timeout: 15_000 }).toBe('cancelled');
    await gotoHydrated(member.page, `/orderdetail?orderNo=${orderNo}`);
    expect(await member.page.locator('[data-order-state-label]').getAttribute('data-order-state-label')).toBe('cancelled');
    expect(await member.page.locator('[data-action="pay-order"], [data-action="split-order"], [data-action="ask-friend"]').count()).toBe(0);
    expect((await orderDetail(orderNo)).state).toBe('cancelled');

    // the balance is back, and its history says why, linking to the order
    expect(await balanceOf(server.url, token)).toBe(balanceBefore);
    await gotoHydrated(member.page, '/mine');
    expect(await member.page.locator('[data-mine-balance] [data-balance]').innerText()).toContain(formatYuan(balanceBefore));
    await member.page.locator('[data-mine-balance] a[href="/mine/balanceHistory"]').click();
    await member.page.waitForURL((u) => u.pathname === '/mine/balanceHistory');
    await member.page.locator('[data-ledger-row]').first().waitFor();
    expect(await member.page.locator('[data-balance-now]').innerText()).toBe(formatYuan(balanceBefore));
    const [back, paidPart] = [member.page.locator('[data-ledger-row]').nth(0), member.page.locator('[data-ledger-row]').nth(1)];
    expect(await back.getAttribute('data-reason')).toBe('cancel');
    expect(await back.locator('[data-change]').innerText()).toBe(`+${formatYuan(partCents[0]!)}`);
    expect(await back.locator('[data-balance-after]').innerText()).toBe(`余额 ${formatYuan(balanceBefore)}`);
    expect(await back.locator('[data-ledger-order]').getAttribute('data-ledger-order')).toBe(orderNo);
    expect(await paidPart.getAttribute('data-reason')).toBe('split_part');
    expect(await paidPart.locator('[data-ledger-order]').getAttribute('data-ledger-order')).toBe(orderNo);
    // its order link opens the cancelled order
    await back.locator('[data-ledger-order]').click();
    await member.page.waitForURL((u) => u.pathname === '/orderdetail' && u.searchParams.get('orderNo') === orderNo);
    await waitHydrated(member.page);
    expect(await member.page.locator('[data-order-state-label]').getAttribute('data-order-state-label')).toBe('cancelled');
  });
});
