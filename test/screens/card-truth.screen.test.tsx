// @vitest-environment jsdom
import { waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { addDays, shanghaiDate, shanghaiMidnight } from '../../src/domain/time';
import { book, DAY, newCard, newClass, newMember } from '../server/booking/support';
import { askRefund, boughtCard, staffRefund } from '../server/cards/refund-support';
import { newStaff } from '../server/orders/support';
import { screen, startScreenHarness } from './support/screen-harness';

/**
 * One card reads the same on every screen that shows it: the card page, the card list and booking's
 * card choice give one end date (the last day it books, its validity ending at the next midnight);
 * a card with a refund under review offers nothing that would undo the review (no activation, no
 * booking) and leads to the refund it waits on; a refunded or transferred card is grouped apart,
 * not counted, not offered for booking, and says what happened rather than what is left.
 */
const h = await startScreenHarness({ seed: true });

const text = (sel: string) => document.querySelector(sel)?.textContent ?? null;
/** a class two days ahead the member's card may book */
const aClass = () => newClass(h.server, { startsAt: new Date(h.server.clock.now().getTime() + 2 * DAY) });

describe('one card truth across the screens', () => {
  it('one end date on the card page, the card list and the booking confirmation', async () => {
    const m = await newMember(h.server);
    const last = addDays(shanghaiDate(h.server.clock.now()), 60);
    // valid through `last`: the validity ends at the midnight that starts the day after
    const card = await newCard(h.server, m.id, { validUntil: shanghaiMidnight(addDays(last, 1)) });
    const cls = await aClass();
    h.jar.setClientCookie('token', m.token);

    await h.open(`/mine/carddetail?id=${card.id}`);
    await screen.findByText('到期日期');
    expect(text('[data-card-valid-until]')).toBe(last);

    await h.open('/vipcard?tab=mine');
    await screen.findAllByText('测试次卡');
    expect(text(`[data-my-card="${card.id}"]`)).toContain(`~ ${last}`);

    await h.open(`/takecourse/bookcourse/bookcourseconfirm?id=${cls.id}`);
    await waitFor(() => expect(document.querySelector(`[data-card="${card.id}"]`)).toBeTruthy());
    const choice = text(`[data-card="${card.id}"]`) ?? '';
    expect(choice).toContain(`有效期至${last}`);
    expect(choice).not.toContain(addDays(last, 1));
  });

  it('a refund under review: no activation or booking offered, the way to the refund, and booking refuses the card', async () => {
    const { m, card } = await boughtCard(h.server);
    expect((await askRefund(h.server, m.token, card.id)).body.code).toBe(200);
    const cls = await aClass();
    h.jar.setClientCookie('token', m.token);

    await h.open(`/mine/carddetail?id=${card.id}`);
    await screen.findByText('卡名称');
    expect(document.querySelector('[data-action="book-to-activate"]')).toBeNull();
    expect(document.querySelector('[data-action="activate"]')).toBeNull();
    expect(screen.getByRole('link', { name: '查看退款申请' })).toBeTruthy();
    expect(screen.queryByRole('link', { name: '查看转让申请' })).toBeNull();

    await h.open(`/takecourse/bookcourse/bookcourseconfirm?id=${cls.id}`);
    await waitFor(() => expect(document.querySelector(`[data-card="${card.id}"]`)).toBeTruthy());
    const row = document.querySelector(`[data-card="${card.id}"]`);
    expect(row?.getAttribute('data-usable')).toBe('false');
    expect(row?.textContent).toContain('这张会员卡有未完成的申请');
    expect(screen.getByText('您的会员卡都不能预约这节课')).toBeTruthy();
    // the server refuses it as the screen says
    expect((await book(h.server, m.token, cls.id, card.id)).body.code).toBe(30004);
  });

  it('a refunded card and a transferred one: apart from the usable cards, not counted, not offered for booking, no uses left shown', async () => {
    const { m, card } = await boughtCard(h.server);
    const asked = await askRefund(h.server, m.token, card.id);
    const staff = await newStaff(h.server);
    expect((await staffRefund(h.server, staff.token, 'approve', asked.body.data.id)).body.code).toBe(200);
    const gone = await newCard(h.server, m.id, { status: 'transferred', usesLeft: 4, name: '已转出次卡' });
    const live = await newCard(h.server, m.id, { name: '在用次卡' });
    const cls = await aClass();
    h.jar.setClientCookie('token', m.token);

    await h.open(`/mine/carddetail?id=${card.id}`);
    await screen.findByText('卡名称');
    expect(text('[data-card-facts]')).not.toContain('长期有效');
    expect(text('[data-card-facts]')).not.toContain('首次预约后生效');

    await h.open('/vipcard?tab=mine');
    await screen.findByText('在用次卡');
    expect(text('[data-vipcard] [data-tab="mine"]')).toBe('我的会员卡(1)');
    const current = document.querySelector('[data-my-cards]');
    const ended = document.querySelector('[data-my-cards-ended]');
    expect(current?.querySelector(`[data-my-card="${live.id}"]`)).toBeTruthy();
    expect(current?.querySelector(`[data-my-card="${gone.id}"]`)).toBeNull();
    expect(ended?.querySelector(`[data-my-card="${gone.id}"]`)).toBeTruthy();
    expect(ended?.querySelector(`[data-my-card="${card.id}"]`)).toBeTruthy();
    expect(text(`[data-my-card="${gone.id}"]`)).not.toContain('剩余');
    expect(text(`[data-my-card="${card.id}"]`)).not.toContain('长期有效');

    await h.open(`/takecourse/bookcourse/bookcourseconfirm?id=${cls.id}`);
    await waitFor(() => expect(document.querySelector(`[data-card="${live.id}"]`)).toBeTruthy());
    expect(document.querySelector(`[data-card="${gone.id}"]`)).toBeNull();
    expect(document.querySelector(`[data-card="${card.id}"]`)).toBeNull();
  });

  it('in English, the ended cards under their own heading', async () => {
    const m = await newMember(h.server);
    await newCard(h.server, m.id, { status: 'transferred', usesLeft: 4 });
    h.jar.setClientCookie('token', m.token);
    await h.open('/vipcard?tab=mine', { locale: 'en' });
    await screen.findByText('Ended cards');
    expect(text('[data-my-cards-ended]')).toContain('Transferred');
  });
});
