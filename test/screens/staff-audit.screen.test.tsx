// @vitest-environment jsdom
import { fireEvent } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { auditLog } from '../../src/server/db/schema/index';
import { account } from '../server/binding/support';
import { newCard, newMember } from '../server/booking/support';
import { askRefund, boughtCard, staffRefund } from '../server/cards/refund-support';
import { applyFor, ID_NUMBER, phoneOf } from '../server/cards/transfer-support';
import { startScreenHarness } from './support/screen-harness';

/**
 * The staff console's personal-data protection (decision 055) on the real server: a transfer's ID
 * number shows masked until staff give a reason to reveal it, and the audit section lists what staff
 * did and saw, newest first, filtered by action or by staff member.
 */
const h = await startScreenHarness({ seed: true });
const s = h.server;

async function waitFor(check: () => boolean | Promise<boolean>, what: string) {
  for (let i = 0; i < 300 && !(await check()); i++) await new Promise((r) => setTimeout(r, 10));
  expect(await check(), what).toBe(true);
}
const entries = () => [...document.querySelectorAll('[data-audit-entry]')];

describe('revealing an ID number and the audit section', () => {
  it('a member is told the audit page is for staff only', async () => {
    const who = await account(s, 'member', 'pass1234');
    await h.logIn(who.phone, 'pass1234');
    const ui = await h.open('/staff/audit');
    expect(document.querySelector('[data-not-staff]')?.textContent).toContain('此页面仅供门店员工使用');
    ui.unmount();
    h.jar.clear();
  });

  it('the number shows masked; revealing needs a reason, shows the number and is listed in the audit section with the reason', async () => {
    const from = await newMember(s);
    const to = await newMember(s);
    const card = await newCard(s, from.id);
    const id = (await applyFor(s, from.token, card.id, await phoneOf(s, to.id))).body.data.id as number;
    const staff = await account(s, 'staff', 'desk1234');
    await h.logIn(staff.phone, 'desk1234');
    const ui = await h.open('/staff/transfers');
    const box = () => document.querySelector(`[data-reveal-id="${id}"]`);
    await waitFor(() => box() !== null, 'the application listed');
    expect(box()!.querySelector('[data-id-number]')!.textContent).toBe('1101**********002X');
    expect(document.body.textContent).not.toContain(ID_NUMBER);

    await ui.user.click(box()!.querySelector('[data-action="reveal-open"]')!);
    const button = () => box()!.querySelector<HTMLButtonElement>('[data-action="reveal"]');
    expect(button()?.disabled, 'no reason: no reveal').toBe(true);
    fireEvent.change(box()!.querySelector('input[name="revealReason"]')!, { target: { value: '核对身份证照片' } });
    await waitFor(() => button()?.disabled === false, 'reveal enabled with a reason');
    await ui.user.click(button()!);
    await waitFor(() => box()!.querySelector('[data-id-number]')!.textContent === ID_NUMBER, 'the whole number shown');
    const rows = await s.deps.db.select().from(auditLog);
    expect(rows.filter((r) => r.staffAccountId === staff.id).map((r) => [r.action, r.subjectId, r.reason])).toEqual([
      ['transfer.id-number.reveal', id, '核对身份证照片'],
    ]);
    ui.unmount();

    // another staff member rejects a card refund: two staff in the log
    const other = await account(s, 'staff');
    const { m, card: bought } = await boughtCard(s);
    const refundId = (await askRefund(s, m.token, bought.id)).body.data.id as number;
    expect((await staffRefund(s, other.token, 'reject', refundId, '请到店办理')).body.code).toBe(200);

    const log = await h.open('/staff/audit');
    await waitFor(() => entries().length >= 2, 'the entries listed');
    const [newest, next] = entries();
    expect(newest!.getAttribute('data-action')).toBe('card-refund.reject');
    expect(next!.getAttribute('data-action')).toBe('transfer.id-number.reveal');
    expect(next!.textContent).toContain('查看完整身份证号');
    // what it was done to, named, with its id
    expect(next!.textContent).toContain(`转让申请 #${id}`);
    expect(newest!.textContent).toContain(`退卡申请 #${refundId}`);
    expect(next!.querySelector('[data-audit-reason]')?.textContent).toBe('原因：核对身份证照片');
    expect(next!.querySelector(`[data-audit-staff="${staff.id}"]`)?.textContent).toBe(`staff ${staff.phone.slice(-4)}`);

    // filter by action
    fireEvent.change(document.querySelector('select[name="action"]')!, { target: { value: 'transfer.id-number.reveal' } });
    await waitFor(
      () => entries().length > 0 && entries().every((e) => e.getAttribute('data-action') === 'transfer.id-number.reveal'),
      'only reveals',
    );
    expect(log.path()).toContain('action=transfer.id-number.reveal');
    fireEvent.change(document.querySelector('select[name="action"]')!, { target: { value: '' } });
    await waitFor(() => entries().some((e) => e.getAttribute('data-action') === 'card-refund.reject'), 'all actions again');

    // filter by staff member: tap their name
    await log.user.click(document.querySelector(`[data-audit-staff="${other.id}"]`)!);
    await waitFor(
      () => entries().length === 1 && entries()[0]!.getAttribute('data-action') === 'card-refund.reject',
      "only the other staff member's",
    );
    await log.user.click(document.querySelector('[data-clear-staff]')!);
    await waitFor(() => entries().length >= 2, 'every staff member again');

    // nothing matches: said so
    fireEvent.change(document.querySelector('select[name="action"]')!, { target: { value: 'bind-code.issue' } });
    await waitFor(() => document.body.textContent!.includes('没有符合条件的记录'), 'the empty state');
    log.unmount();
  });
});
