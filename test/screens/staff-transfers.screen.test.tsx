// @vitest-environment jsdom
import { screen, within } from '@testing-library/react';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { accounts } from '../../src/server/db/schema/index';
import { account } from '../server/binding/support';
import { newCard, newMember } from '../server/booking/support';
import { applyFor, phoneOf, staffCall, transferRow } from '../server/cards/transfer-support';
import { startScreenHarness } from './support/screen-harness';

/**
 * The staff's transfer queue /staff/transfers (decisions 026, 102) on the real server: approving a
 * transfer first says which card goes from whom to whom and that it cannot be undone; not now sends
 * nothing; confirming sends it once.
 */
const h = await startScreenHarness({ seed: true });
const s = h.server;

async function waitFor(check: () => boolean | Promise<boolean>, what: string) {
  for (let i = 0; i < 300 && !(await check()); i++) await new Promise((r) => setTimeout(r, 10));
  expect(await check(), what).toBe(true);
}
const item = (id: number) => document.querySelector<HTMLElement>(`[data-transfer="${id}"]`);

describe('the transfer queue', () => {
  it('approving says the card, the giver (masked) and the recipient before it is sent, and is sent once confirmed', async () => {
    const from = await newMember(s);
    const to = await newMember(s);
    await s.deps.db.update(accounts).set({ name: '李小涵' }).where(eq(accounts.id, from.id));
    const card = await newCard(s, from.id);
    const toPhone = await phoneOf(s, to.id);
    const fromPhone = await phoneOf(s, from.id);
    const id = (await applyFor(s, from.token, card.id, toPhone)).body.data.id as number;
    const staff = await account(s, 'staff', 'desk1234');
    expect((await staffCall(s, staff.token, 'take', id)).body.code).toBe(200);
    await h.logIn(staff.phone, 'desk1234');
    const ui = await h.open('/staff/transfers');
    await waitFor(() => item(id) !== null, 'listed');
    expect(item(id)!.textContent).toContain(`**涵 ${fromPhone} → ${toPhone}`);

    await ui.user.click(within(item(id)!).getByRole('button', { name: '通过' }));
    const asked = await screen.findByRole('dialog');
    expect(asked.textContent).toContain(`把「${card.name} · ${card.number}」从**涵（${fromPhone}）转给王小明（${toPhone}）？`);
    expect(asked.textContent).toContain('不能撤回');
    await ui.user.click(within(asked).getByRole('button', { name: '再想想' }));
    await waitFor(() => screen.queryByRole('dialog') === null, 'the confirm closed');
    expect((await transferRow(s, id)).state).toBe('reviewing');

    await ui.user.click(within(item(id)!).getByRole('button', { name: '通过' }));
    await ui.user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: '确定转让' }));
    await waitFor(async () => (await transferRow(s, id)).state === 'approved', 'approved');
    ui.unmount();
  });
});
