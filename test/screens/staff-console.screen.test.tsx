// @vitest-environment jsdom
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { bindCodes, teacherRequests } from '../../src/server/db/schema/index';
import { sendCode } from '../server/auth/support';
import { account, newTeacher, teacherForm } from '../server/binding/support';
import { screen, startScreenHarness } from './support/screen-harness';

/** The staff console (issue 14, decision 028): who may use it, and its binding queues on the real server. */
const h = await startScreenHarness({ seed: true });
const s = h.server;

async function waitFor(check: () => boolean, what: string) {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((r) => setTimeout(r, 10));
  expect(check(), what).toBe(true);
}

describe('the staff console', () => {
  it('a member (or a teacher) is told the console is for staff only, with the way to bind as staff', async () => {
    for (const role of ['member', 'teacher'] as const) {
      const who = await account(s, role, 'pass1234');
      await h.logIn(who.phone, 'pass1234');
      const ui = await h.open('/staff/bindCodes');
      expect(document.querySelector('[data-not-staff]')?.textContent).toContain('此页面仅供门店员工使用');
      expect(screen.getByRole('link', { name: '员工绑定' }).getAttribute('href')).toBe('/bindPage/userBind');
      ui.unmount();
      h.jar.clear();
    }
  });

  it('staff see every section, with the number of new teachers waiting', async () => {
    const staff = await account(s, 'staff', 'desk1234');
    const { body } = await teacherForm(s, sendCode);
    expect((await s.call('POST', '/api/bind/new-teacher', { body })).body.code).toBe(200);
    await h.logIn(staff.phone, 'desk1234');
    await h.open('/staff');
    const sections = [...document.querySelectorAll('[data-section]')].map((a) => a.getAttribute('data-section'));
    expect(sections).toEqual(['bind-codes', 'teacher-requests', 'bindings', 'checkin', 'photos', 'transfers', 'card-refunds', 'complaints', 'invoices', 'refunds']);
    expect(Number(document.querySelector('[data-waiting]')?.getAttribute('data-waiting'))).toBeGreaterThan(0);
  });

  it('bind codes: staff issue one for a teacher without a login (with a phone), see it once, and revoke it', async () => {
    const staff = await account(s, 'staff', 'desk1234');
    const teacherId = await newTeacher(s, '钱老师');
    await h.logIn(staff.phone, 'desk1234');
    const ui = await h.open('/staff/bindCodes');
    await ui.user.selectOptions(document.querySelector<HTMLSelectElement>('select[name=teacherId]')!, String(teacherId));
    await ui.user.type(document.querySelector<HTMLInputElement>('input[name=phone]')!, '13655556666');
    await ui.user.click(screen.getByRole('button', { name: '发放绑定码' }));
    await waitFor(() => document.querySelector('[data-code]') !== null, 'the code is shown');
    const code = document.querySelector('[data-code]')!.textContent!;
    expect(code).toMatch(/^[A-HJKMNP-Z2-9]{8}$/);
    const [row] = await s.deps.db.select().from(bindCodes).where(eq(bindCodes.teacherId, teacherId));
    await waitFor(() => document.querySelector(`[data-code-row="${row!.id}"][data-status=live]`) !== null, 'listed live');
    expect(document.querySelector('[data-code-list]')!.textContent).not.toContain(code);
    await ui.user.click(document.querySelector(`[data-code-row="${row!.id}"] button`)!);
    await waitFor(() => document.querySelector(`[data-code-row="${row!.id}"][data-status=revoked]`) !== null, 'revoked');
    expect((await s.deps.db.select().from(bindCodes).where(eq(bindCodes.id, row!.id)))[0]!.revokedAt).not.toBe(null);
  });

  it('the transfer, refund and invoice queues open for staff (empty on a fresh seed)', async () => {
    const staff = await account(s, 'staff', 'desk1234');
    await h.logIn(staff.phone, 'desk1234');
    for (const [path, empty] of [['/staff/transfers', '没有等待审核的转让申请'], ['/staff/cardRefunds', '没有等待审核的退款申请'], ['/staff/refunds', '没有需要处理的退款'], ['/staff/invoices', '没有待开具的发票']]) {
      const ui = await h.open(path!);
      expect(document.querySelector('[data-staff-page]')?.textContent).toContain(empty);
      ui.unmount();
    }
  });

  it('new-teacher requests: staff confirm one, and it leaves the queue', async () => {
    const staff = await account(s, 'staff', 'desk1234');
    const { body } = await teacherForm(s, sendCode, { name: '孙老师' });
    const id = (await s.call('POST', '/api/bind/new-teacher', { body })).body.data.request.id as number;
    await h.logIn(staff.phone, 'desk1234');
    const ui = await h.open('/staff/teacherRequests');
    const card = () => document.querySelector(`[data-request="${id}"]`);
    expect(card()?.textContent).toContain('孙老师');
    await ui.user.click([...card()!.querySelectorAll('button')].find((b) => b.textContent === '确认')!);
    await waitFor(() => card() === null, 'gone from the queue');
    expect((await s.deps.db.select().from(teacherRequests).where(eq(teacherRequests.id, id)))[0]!.state).toBe('confirmed');
  });
});
