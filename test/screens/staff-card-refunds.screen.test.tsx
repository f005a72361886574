// @vitest-environment jsdom
import { fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { bookings } from '../../src/server/db/schema/index';
import { shanghaiFormat } from '../../src/domain/time';
import { account } from '../server/binding/support';
import { book, cardRow, newClass } from '../server/booking/support';
import { askRefund, boughtCard, cardRefundRow, myRefund, orderState } from '../server/cards/refund-support';
import { balance } from '../server/orders/support';
import { phoneOf } from '../server/cards/transfer-support';
import { startScreenHarness } from './support/screen-harness';

/**
 * The staff's card refund queue /staff/cardRefunds (decisions 030, 031) on the real server:
 * the members' pending requests, approved (the card ends, the money goes back the way it was paid) or
 * rejected with the reason the member reads; who decided and when shown under "recently decided".
 */
const h = await startScreenHarness({ seed: true });
const s = h.server;

async function waitFor(check: () => boolean | Promise<boolean>, what: string) {
  for (let i = 0; i < 300 && !(await check()); i++) await new Promise((r) => setTimeout(r, 10));
  expect(await check(), what).toBe(true);
}
const item = (id: number) => document.querySelector(`[data-card-refund="${id}"]`);
const decidedItem = (id: number) => document.querySelector(`[data-card-refund-decided="${id}"]`);
const buttonIn = (el: Element | null, action: string) => el?.querySelector<HTMLButtonElement>(`[data-action="${action}"]`) ?? null;

describe('the card refund queue', () => {
  it('a member is told the page is for staff only', async () => {
    const who = await account(s, 'member', 'pass1234');
    await h.logIn(who.phone, 'pass1234');
    const ui = await h.open('/staff/cardRefunds');
    expect(document.querySelector('[data-not-staff]')?.textContent).toContain('此页面仅供门店员工使用');
    ui.unmount();
    h.jar.clear();
  });

  it('staff reject one with a reason and approve another: each leaves the queue, the member reads the outcome, and who decided and when is shown', async () => {
    const a = await boughtCard(s, 'balance');
    const b = await boughtCard(s, 'wechat');
    const idA = (await askRefund(s, a.m.token, a.card.id)).body.data.id as number;
    const idB = (await askRefund(s, b.m.token, b.card.id)).body.data.id as number;
    const staff = await account(s, 'staff', 'desk1234');
    await h.logIn(staff.phone, 'desk1234');
    const ui = await h.open('/staff/cardRefunds');

    // both wait, with the card, the member's phone and the amount quoted
    await waitFor(() => item(idA) !== null && item(idB) !== null, 'both requests listed');
    expect(item(idA)!.textContent).toContain(a.card.number);
    expect(item(idA)!.textContent).toContain('申请时可退金额：¥199');
    expect(item(idA)!.textContent).toContain(a.orderNo);

    // reject needs the reason first
    expect(buttonIn(item(idB), 'card-refund-reject')?.disabled).toBe(true);
    fireEvent.change(item(idB)!.querySelector('input[name="reason"]')!, { target: { value: '请到店办理' } });
    await waitFor(() => buttonIn(item(idB), 'card-refund-reject')?.disabled === false, 'reject enabled with a reason');
    await ui.user.click(buttonIn(item(idB), 'card-refund-reject')!);
    await waitFor(() => item(idB) === null && decidedItem(idB) !== null, 'rejected: off the queue, in the decided list');
    const rejected = await cardRefundRow(s, idB);
    expect(rejected).toMatchObject({ state: 'rejected', reason: '请到店办理', decidedBy: staff.id });
    expect(decidedItem(idB)!.getAttribute('data-state')).toBe('rejected');
    expect(decidedItem(idB)!.textContent).toContain('请到店办理');
    expect(decidedItem(idB)!.querySelector('[data-decided-by]')?.textContent).toBe(
      `处理人：staff ${staff.phone.slice(-4)} · ${shanghaiFormat(rejected.decidedAt!, 'YYYY-MM-DD HH:mm')}`,
    );
    expect((await myRefund(s, b.m.token, b.card.id)).body.data).toMatchObject({ state: 'rejected', reason: '请到店办理' });
    expect((await cardRow(s, b.card.id)).status).toBe('inactive');

    // a minute later, approve: first the confirm says what goes back, to whom and how; nothing sent yet
    s.clock.advance(60_000);
    await ui.user.click(buttonIn(item(idA), 'card-refund-approve')!);
    const asked = await screen.findByRole('dialog');
    const phoneA = await phoneOf(s, a.m.id);
    expect(asked.textContent).toContain(`为${phoneA}退「${a.card.name} · ${a.card.number}」，共退¥199：`);
    expect(asked.textContent).toContain(`账户余额退回${phoneA} ¥199`);
    expect(asked.textContent).toContain('不能撤回');
    expect((await cardRefundRow(s, idA)).state).toBe('pending');
    // not now: back to the queue, nothing decided
    await ui.user.click(within(asked).getByRole('button', { name: '再想想' }));
    await waitFor(() => screen.queryByRole('dialog') === null, 'the confirm closed');
    expect((await cardRefundRow(s, idA)).state).toBe('pending');
    // then approve and confirm: the balance-paid card's money is back at once, the order refund done
    await ui.user.click(buttonIn(item(idA), 'card-refund-approve')!);
    await ui.user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: '确定退款' }));
    await waitFor(() => item(idA) === null && decidedItem(idA) !== null, 'approved: off the queue, in the decided list');
    expect(decidedItem(idA)!.getAttribute('data-state')).toBe('approved');
    expect(decidedItem(idA)!.textContent).toContain('已通过 · ¥199 · 退款完成');
    expect(decidedItem(idA)!.querySelector('[data-decided-by]')?.textContent).toContain(`处理人：staff ${staff.phone.slice(-4)}`);
    expect(await orderState(s, a.order.id)).toBe('refunded');
    expect((await cardRow(s, a.card.id)).status).toBe('invalid');
    expect(await balance(s, a.m.token)).toBe(19_900);
    // the newest decision first
    const order = [...document.querySelectorAll('[data-card-refund-decided]')].map((el) =>
      Number(el.getAttribute('data-card-refund-decided')),
    );
    expect(order.indexOf(idA)).toBeLessThan(order.indexOf(idB));
  });

  it('a refusal at approval (a class booked on the card meanwhile) is said on the request, which stays', async () => {
    const a = await boughtCard(s, 'balance');
    const id = (await askRefund(s, a.m.token, a.card.id)).body.data.id as number;
    const staff = await account(s, 'staff', 'desk1234');
    await h.logIn(staff.phone, 'desk1234');
    const ui = await h.open('/staff/cardRefunds');
    await waitFor(() => item(id) !== null, 'listed');
    const cls = await newClass(s);
    // the member's own booking waits for the decision (30004); one written past the member's API
    // (the front desk's, an import) is what the approval's second look refuses
    expect((await book(s, a.m.token, cls.id, a.card.id)).body.code).toBe(30004);
    await s.deps.db.insert(bookings).values({
      classId: cls.id,
      accountId: a.m.id,
      cardId: a.card.id,
      state: 'booked',
      createdAt: s.clock.now(),
      bookedAt: s.clock.now(),
    });
    await ui.user.click(buttonIn(item(id), 'card-refund-approve')!);
    await ui.user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: '确定退款' }));
    await waitFor(() => item(id)?.querySelector('[role="alert"]') != null, 'the refusal said');
    expect(item(id)!.querySelector('[role="alert"]')!.textContent).toBe('这张会员卡还有已预约或正在上的课程，请先取消预约');
    expect((await cardRefundRow(s, id)).state).toBe('pending');
  });
});
