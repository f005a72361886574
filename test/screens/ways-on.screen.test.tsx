// @vitest-environment jsdom
import { screen } from '@testing-library/react';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { classes } from '../../src/server/db/schema/index';
import { book, DAY, MINUTE, newCard, newClass, newMember } from '../server/booking/support';
import { bannedMember } from '../server/catalog/support';
import { create, credit, newGoods, pay } from '../server/orders/support';
import { startScreenHarness } from './support/screen-harness';

/**
 * The end states a member meets between two features, each with the next thing they would do:
 * a check-in code for a class they have not booked leads to booking it (not to a check-in that
 * fails); a banned account's login refusal leads to the clubs' phones; the schedule leads a member
 * to what they booked; a card bought from a class's booking page leads back to that class; a
 * cancel says beforehand what it gives back and what it does not (an activation stays).
 * The real screens against the real server.
 */
const h = await startScreenHarness({ seed: true });
const codeOf = async (classId: number) =>
  (await h.server.deps.db.select({ code: classes.checkinCode }).from(classes).where(eq(classes.id, classId)))[0]!.code;

describe('every end state offers the next thing to do', () => {
  it('a check-in code for a class not booked: no check-in to confirm, the way to book it', async () => {
    const m = await newMember(h.server);
    const cls = await newClass(h.server, { startsAt: new Date(h.server.clock.now().getTime() + 40 * MINUTE) });
    h.jar.setClientCookie('token', m.token);
    await h.open(`/signed?classId=${cls.id}&code=${await codeOf(cls.id)}`);
    await screen.findByText('您没有预约这节课，预约成功后才能签到');
    expect(screen.queryByRole('button', { name: '确认签到' })).toBeNull();
    expect(screen.getByRole('button', { name: '预约这节课' }).getAttribute('href')).toBe(
      `/takecourse/bookcourse/bookcoursedetail?id=${cls.id}`,
    );
  });

  it('a banned account: the refusal, and the way to a club that can help', async () => {
    const ui = await h.open('/login');
    await ui.user.click(screen.getByRole('button', { name: '密码登录' }));
    await ui.user.type(document.querySelector<HTMLInputElement>('input[name="phone"]')!, bannedMember.phone);
    await ui.user.type(document.querySelector<HTMLInputElement>('input[name="password"]')!, bannedMember.password);
    await ui.user.click(screen.getByText('我已阅读并同意'));
    await ui.user.click(screen.getByTestId('login-submit'));
    await screen.findByText('该会员已被禁用');
    expect(screen.getByRole('link', { name: '联系门店' }).getAttribute('href')).toBe('/club');
  });

  it("the schedule: a member's way to their bookings, finished classes and calendar; a visitor sees none", async () => {
    await h.open('/takecourse/bookcourse');
    await screen.findByText('筛选');
    expect(document.querySelector('[data-my-bookings-links]')).toBeNull();
    const m = await newMember(h.server);
    h.jar.setClientCookie('token', m.token);
    await h.open('/takecourse/bookcourse');
    const nav = await screen.findByRole('navigation', { name: '我的预约' });
    expect([...nav.querySelectorAll('a')].map((a) => a.getAttribute('href'))).toEqual([
      '/takecourse/takelistm?scope=upcoming',
      '/takecourse/takelistm?scope=past',
      '/takecourse',
    ]);
  });

  it('a card bought from a class with no card that fits: the payment result leads back to that class', async () => {
    const m = await newMember(h.server);
    const cls = await newClass(h.server, { startsAt: new Date(h.server.clock.now().getTime() + 2 * DAY), title: '空中瑜伽' });
    h.jar.setClientCookie('token', m.token);
    const ui = await h.open(`/takecourse/bookcourse/bookcourseconfirm?id=${cls.id}`);
    const buy = await screen.findByRole('button', { name: '去购买会员卡' });
    await ui.user.click(buy);
    // the purchase itself (the checkout has its own tests): a card paid with the balance
    const g = await newGoods(h.server);
    await credit(h.server, m.id, g.memberPriceCents);
    const orderNo = (await create(h.server, m.token, { goodsId: g.id })).body.data.orderNo as string;
    expect((await pay(h.server, m.token, orderNo, 'balance')).status).toBe(200);
    await h.open(`/payf?orderNo=${orderNo}`);
    const back = await screen.findByRole('button', { name: '继续预约：空中瑜伽' });
    expect(back.getAttribute('href')).toBe(`/takecourse/bookcourse/bookcourseconfirm?id=${cls.id}`);
    expect(screen.getByRole('button', { name: '查看这张会员卡' })).toBeTruthy();
    // once followed, it is not offered again
    await ui.user.click(back);
    await h.open(`/payf?orderNo=${orderNo}`);
    await screen.findByRole('button', { name: '查看这张会员卡' });
    expect(screen.queryByRole('button', { name: '继续预约：空中瑜伽' })).toBeNull();
  });

  const cancelButton = async () => (await screen.findAllByRole('button', { name: '取消预约' }))[0]!;
  async function cancelDialogOf(card: Parameters<typeof newCard>[2]) {
    const m = await newMember(h.server);
    const c = await newCard(h.server, m.id, card);
    const cls = await newClass(h.server, { startsAt: new Date(h.server.clock.now().getTime() + DAY) });
    expect((await book(h.server, m.token, cls.id, c.id)).body.code).toBe(200);
    h.jar.setClientCookie('token', m.token);
    const ui = await h.open(`/takecourse/bookcourse/bookcoursedetail?id=${cls.id}`);
    await ui.user.click(await cancelButton());
    return (await screen.findByRole('dialog')).textContent;
  }

  it('cancelling the seat that activated a card: the dialog says the use comes back and the card stays activated', async () => {
    const text = await cancelDialogOf({ status: 'inactive', validFrom: null, validUntil: null, validityDays: 30 });
    expect(text).toContain('1次会退回会员卡。');
    expect(text).toContain('这张卡因这次预约而激活：取消后仍保持激活，有效期照常计算。');
  });

  it('cancelling a seat on a card in use: only the use back', async () => {
    const text = await cancelDialogOf({});
    expect(text).toContain('1次会退回会员卡。');
    expect(text).not.toContain('激活');
  });
});
