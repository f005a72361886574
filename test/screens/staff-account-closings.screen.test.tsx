// @vitest-environment jsdom
import { fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { accountRow, askClosing, closingRow } from '../server/account/closing-support';
import { account } from '../server/binding/support';
import { newMember } from '../server/booking/support';
import { credit } from '../server/orders/support';
import { startScreenHarness } from './support/screen-harness';

/**
 * The staff console's 注销申请 queue /staff/accountClosings (decision 057) on the real server: the
 * members' waiting requests; refusing needs a reason (10037 said at the row), confirming erases the
 * account; a member who came to hold a balance meanwhile cannot be confirmed (10032 said at the row).
 */
const h = await startScreenHarness({ seed: true });
const s = h.server;

async function waitFor(check: () => boolean | Promise<boolean>, what: string) {
  for (let i = 0; i < 300 && !(await check()); i++) await new Promise((r) => setTimeout(r, 10));
  expect(await check(), what).toBe(true);
}
const row = (id: number) => document.querySelector(`[data-staff-closing="${id}"]`);
const button = (id: number, name: string) => [...(row(id)?.querySelectorAll('button') ?? [])].find((b) => b.textContent === name)!;

describe('the account closing queue', () => {
  it('staff refuse one with a reason, confirm another, and one holding a balance meanwhile is said so', async () => {
    const a = await newMember(s);
    const b = await newMember(s);
    const c = await newMember(s);
    const ask = async (m: { token: string }) => (await askClosing(s, m.token)).body.data.id as number;
    const [idA, idB, idC] = [await ask(a), await ask(b), await ask(c)];
    await credit(s, c.id, 100);
    const staff = await account(s, 'staff', 'desk1234');
    await h.logIn(staff.phone, 'desk1234');
    const ui = await h.open('/staff/accountClosings');
    await waitFor(() => row(idA) !== null && row(idB) !== null && row(idC) !== null, 'all three listed');
    expect(row(idA)!.textContent).toContain((await accountRow(s, a.id)).phone);

    // refuse without a reason: said at the row, nothing changes
    await ui.user.click(button(idA, '拒绝'));
    await waitFor(() => row(idA)?.querySelector('[role=alert]')?.textContent === '请填写拒绝原因', 'the reason asked for');
    expect((await closingRow(s, idA)).state).toBe('requested');
    fireEvent.change(row(idA)!.querySelector('textarea[name="reason"]')!, { target: { value: '请先到店取回寄存物品' } });
    await ui.user.click(button(idA, '拒绝'));
    await waitFor(() => row(idA) === null, 'refused: off the queue');
    expect(await closingRow(s, idA)).toMatchObject({ state: 'refused', reason: '请先到店取回寄存物品', decidedBy: staff.id });

    // confirm: the dialog says whose account goes and that it cannot be undone, then off the queue, the account erased
    await ui.user.click(button(idB, '确认注销'));
    const asked = await screen.findByRole('dialog');
    expect(asked.textContent).toContain('不能撤回');
    expect((await closingRow(s, idB)).state).toBe('requested');
    await ui.user.click(within(asked).getByRole('button', { name: '确定注销' }));
    await waitFor(() => row(idB) === null, 'confirmed: off the queue');
    expect((await accountRow(s, b.id)).phone).toBe(`closed-${b.id}`);

    // a balance came meanwhile: confirm is refused and said
    await ui.user.click(button(idC, '确认注销'));
    await ui.user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: '确定注销' }));
    await waitFor(
      () => row(idC)?.querySelector('[role=alert]')?.textContent === '您的账户还有余额，请先用完或申请退款后再注销',
      'the balance said',
    );
    expect((await closingRow(s, idC)).state).toBe('requested');
    ui.unmount();
  });
});
