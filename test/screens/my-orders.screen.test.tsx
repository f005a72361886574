// @vitest-environment jsdom
import { within } from '@testing-library/react';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { MY_ORDERS_PAGE_SIZE } from '../../src/app/screens/orders/my-orders-data';
import { orders } from '../../src/server/db/schema/index';
import { create, credit, newGoods, newMember, pay } from '../server/orders/support';
import { screen, startScreenHarness } from './support/screen-harness';

/**
 * /mine/orders (decision 096): every order of the member whatever its state, in tabs, found from
 * Mine, each row opening the order's page where its actions are. The real screens against the real
 * server; orders made through the real API, at an instant whose Shanghai day is not the UTC one.
 */
const h = await startScreenHarness({ seed: true });
const MINUTE = 60_000;
/** 16:30 UTC is 00:30 the next day in Shanghai */
const LATE_UTC = new Date('2026-11-20T16:30:00Z');

/** A member with a paid order, then a cancelled one, then one whose WeChat Pay payment was left open (newest). */
async function memberWithOrders() {
  const m = await newMember(h.server);
  const was = h.server.clock.now();
  h.server.clock.set(LATE_UTC);
  try {
    const yoga = await newGoods(h.server, { name: '瑜伽年卡', nameEn: 'Yoga year card' });
    const pilates = await newGoods(h.server, { name: '普拉提次卡', nameEn: 'Pilates class pack' });
    const private1 = await newGoods(h.server, { name: '私教课', nameEn: 'Private lesson', memberPriceCents: 30_050 });
    await credit(h.server, m.id, 19_900);
    const paid = (await create(h.server, m.token, { goodsId: yoga.id })).body.data.orderNo as string;
    expect((await pay(h.server, m.token, paid, 'balance')).body.data.order.state).toBe('paid');
    h.server.clock.advance(MINUTE);
    const cancelled = (await create(h.server, m.token, { goodsId: pilates.id })).body.data.orderNo as string;
    await h.server.call('POST', '/api/orders/cancel', { token: m.token, body: { orderNo: cancelled } });
    h.server.clock.advance(MINUTE);
    const paying = (await create(h.server, m.token, { goodsId: private1.id })).body.data.orderNo as string;
    expect((await pay(h.server, m.token, paying, 'wechat')).body.data.order.state).toBe('paying');
    h.jar.setClientCookie('token', m.token);
    return { m, paid, cancelled, paying };
  } finally {
    h.server.clock.set(was);
  }
}

/** the order list (the page's other lists are the footer's) */
const list = () => document.querySelector<HTMLElement>('[data-list^="orders-"]')!;
/** each row's link as a member hears it: its name, in reading order */
const rowNames = () =>
  within(list())
    .getAllByRole('link')
    .map((a) => a.textContent!.replace(/\s+/g, ' ').trim());

describe('my orders', () => {
  it('is on Mine beside the purchase history, and lists every order newest first: goods, state in words, when (Shanghai), amount', async () => {
    const { paid, cancelled, paying } = await memberWithOrders();
    const ui = await h.open('/mine');
    const goods = within(document.querySelector<HTMLElement>('[data-mine-goods]')!);
    const names = goods.getAllByRole('link').map((a) => a.textContent!.trim());
    expect(names.indexOf('我的订单'), 'just before the purchase history').toBe(names.indexOf('购买记录') - 1);
    await ui.user.click(goods.getByRole('link', { name: '我的订单' }));
    await ui.waitForPath('/mine/orders');
    await screen.findByRole('link', { name: /私教课/ });
    expect(document.title).toBe('我的订单');
    expect(screen.getByRole('link', { name: '全部' }).getAttribute('aria-current')).toBe('page');
    expect(rowNames()).toEqual([
      '私教课支付中下单时间 2026-11-21 00:32¥300.50',
      '普拉提次卡已取消下单时间 2026-11-21 00:31¥199',
      '瑜伽年卡已支付下单时间 2026-11-21 00:30¥199',
    ]);
    const hrefs = within(list())
      .getAllByRole('link')
      .map((a) => a.getAttribute('href'));
    expect(hrefs).toEqual([paying, cancelled, paid].map((no) => `/orderdetail?orderNo=${no}`));
    // the footer shows, Mine lit, as on Mine's other lists
    expect(screen.getByRole('link', { name: '我的', current: 'page' })).toBeTruthy();
  });

  it('to pay holds the paying order; its row opens the order, which offers continue paying and cancel', async () => {
    const { paying } = await memberWithOrders();
    const ui = await h.open('/mine/orders');
    await ui.user.click(await screen.findByRole('link', { name: '待支付' }));
    await ui.waitForPath('/mine/orders?status=to_pay');
    expect(screen.getByRole('link', { name: '待支付' }).getAttribute('aria-current')).toBe('page');
    await screen.findByRole('link', { name: /^私教课支付中/ });
    expect(rowNames()).toHaveLength(1);
    await ui.user.click(screen.getByRole('link', { name: /^私教课支付中/ }));
    await ui.waitForPath(`/orderdetail?orderNo=${paying}`);
    await screen.findByRole('button', { name: '继续支付 ¥300.50' });
    expect(screen.getByRole('button', { name: '取消订单' })).toBeTruthy();
  });

  it('paid, refunds and cancelled hold theirs; an empty tab says so and leads to all orders', async () => {
    const { m, paid } = await memberWithOrders();
    const ui = await h.open('/mine/orders?status=paid');
    expect(rowNames()).toEqual([expect.stringMatching(/^瑜伽年卡已支付/)]);
    await ui.user.click(screen.getByRole('link', { name: '已取消' }));
    await screen.findByRole('link', { name: /^普拉提次卡已取消/ });
    expect(rowNames()).toHaveLength(1);
    await ui.user.click(screen.getByRole('link', { name: '退款' }));
    await screen.findByText('没有退款中或已退款的订单');
    await ui.user.click(screen.getByRole('button', { name: '查看全部订单' }));
    await ui.waitForPath('/mine/orders');
    await screen.findByRole('link', { name: /^私教课/ });
    // a refund asked for moves the paid order to refunds, in words
    await h.server.deps.db.update(orders).set({ state: 'refunding' }).where(eq(orders.orderNo, paid));
    await ui.user.click(screen.getByRole('link', { name: '退款' }));
    await screen.findByRole('link', { name: /^瑜伽年卡退款中/ });
    expect(rowNames()).toHaveLength(1);
    expect((await h.server.call('GET', '/api/orders/mine?status=paid', { token: m.token })).body.data.total).toBe(0);
  });

  it('a member with no order is told so and led to the shop', async () => {
    const m = await newMember(h.server);
    h.jar.setClientCookie('token', m.token);
    const ui = await h.open('/mine/orders');
    await screen.findByText('还没有订单');
    await ui.user.click(screen.getByRole('button', { name: '去购买会员卡' }));
    await ui.waitForPath('/vipcard?tab=shop');
  });

  it('pages as the member asks for more, in the same tab', async () => {
    const m = await newMember(h.server);
    const g = await newGoods(h.server, { name: '单次课' });
    // the oldest order is paid: a next page of every order (not of the tab) would show it
    await credit(h.server, m.id, 19_900);
    const paid = (await create(h.server, m.token, { goodsId: g.id })).body.data.orderNo as string;
    expect((await pay(h.server, m.token, paid, 'balance')).body.data.order.state).toBe('paid');
    const made: string[] = [];
    for (let i = 0; i < MY_ORDERS_PAGE_SIZE + 2; i++) {
      h.server.clock.advance(MINUTE);
      const no = (await create(h.server, m.token, { goodsId: g.id })).body.data.orderNo as string;
      await h.server.call('POST', '/api/orders/cancel', { token: m.token, body: { orderNo: no } });
      made.unshift(no);
    }
    h.jar.setClientCookie('token', m.token);
    const ui = await h.open('/mine/orders?status=cancelled');
    expect(rowNames()).toHaveLength(MY_ORDERS_PAGE_SIZE);
    await ui.user.click(screen.getByRole('button', { name: '加载更多' }));
    await ui.waitForPath('/mine/orders?status=cancelled');
    const hrefs = () =>
      within(list())
        .getAllByRole('link')
        .map((a) => a.getAttribute('href')!.split('=')[1]);
    await expect.poll(hrefs).toEqual(made);
  });

  it('in English: the tabs, the states and the goods in English', async () => {
    await memberWithOrders();
    await h.open('/mine/orders', { locale: 'en' });
    expect(screen.getByRole('link', { name: 'To pay' })).toBeTruthy();
    expect(rowNames()).toEqual([
      'Private lessonPayingOrdered 2026-11-21 00:32¥300.50',
      'Pilates class packCancelledOrdered 2026-11-21 00:31¥199',
      'Yoga year cardPaidOrdered 2026-11-21 00:30¥199',
    ]);
  });

  it('a tab the list does not have is not found, with the way to the list', async () => {
    await memberWithOrders();
    await h.open('/mine/orders?status=unpaid');
    expect(screen.getByRole('heading', { name: '没有这个页面' })).toBeTruthy();
    expect(screen.getByRole('button', { name: '我的订单' }).getAttribute('href')).toBe('/mine/orders');
  });

  it('refused closing the account for an order still to pay, the member is led to the list, where it is', async () => {
    const m = await newMember(h.server);
    const g = await newGoods(h.server, { name: '瑜伽月卡' });
    const orderNo = (await create(h.server, m.token, { goodsId: g.id })).body.data.orderNo as string;
    h.jar.setClientCookie('token', m.token);
    const ui = await h.open('/mine/closeAccount');
    await ui.user.click(await screen.findByRole('button', { name: '申请注销账号' }));
    await ui.user.click(screen.getByRole('button', { name: '确定注销' }));
    expect((await screen.findByRole('alert')).textContent).toBe('您还有待支付或退款中的订单，请先处理后再注销');
    await ui.user.click(screen.getByRole('link', { name: '查看我的订单' }));
    await ui.waitForPath('/mine/orders');
    expect((await screen.findByRole('link', { name: /^瑜伽月卡待支付/ })).getAttribute('href')).toBe(`/orderdetail?orderNo=${orderNo}`);
  });

  it('a visitor is sent to log in and back', async () => {
    const ui = await h.open('/mine/orders?status=to_pay');
    await ui.waitForPath(`/login/${encodeURIComponent('/mine/orders?status=to_pay')}`);
  });
});
