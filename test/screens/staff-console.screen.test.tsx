// @vitest-environment jsdom
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { bindCodes, teacherRequests, teachers } from '../../src/server/db/schema/index';
import { sendCode } from '../server/auth/support';
import { DAY, newClass } from '../server/booking/support';
import { assign, teacherCall } from '../server/schedule/support';
import { account, newTeacher, teacherForm } from '../server/binding/support';
import { screen, startScreenHarness } from './support/screen-harness';

/** The staff console (decision 028): who may use it, and its binding queues on the real server. */
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

  it('staff see every section, each with the number waiting in its queue (one counts call)', async () => {
    const staff = await account(s, 'staff', 'desk1234');
    const { body } = await teacherForm(s, sendCode);
    expect((await s.call('POST', '/api/bind/new-teacher', { body })).body.code).toBe(200);
    await h.logIn(staff.phone, 'desk1234');
    await h.open('/staff');
    const sections = [...document.querySelectorAll('[data-section]')].map((a) => a.getAttribute('data-section'));
    expect(sections).toEqual([
      'bind-codes',
      'teacher-requests',
      'bindings',
      'classes',
      'checkin',
      'register-member',
      'photos',
      'transfers',
      'card-refunds',
      'complaints',
      'invoices',
      'account-closings',
      'refunds',
      'audit',
    ]);
    const counts = (await s.call('GET', '/api/staff/counts', { token: staff.token })).body.data as Record<string, number>;
    expect(counts.teacherRequests).toBeGreaterThan(0);
    const badge = (key: string) =>
      Number(document.querySelector(`[data-section="${key}"] [data-waiting]`)?.getAttribute('data-waiting') ?? 0);
    for (const [key, count] of [
      ['teacher-requests', 'teacherRequests'],
      ['classes', 'declinedClasses'],
      ['photos', 'photos'],
      ['transfers', 'transfers'],
      ['card-refunds', 'cardRefunds'],
      ['complaints', 'complaints'],
      ['invoices', 'invoices'],
      ['account-closings', 'accountClosings'],
      ['refunds', 'refunds'],
    ])
      expect(badge(key!), key).toBe(counts[count!]);
    // the number is read out with what it counts
    expect(screen.getByRole('link', { name: new RegExp(`新老师申请${counts.teacherRequests} 项待处理`) })).toBeTruthy();
  });

  it("a declined class shows on the classes section, and the section opens the week's classes", async () => {
    const staff = await account(s, 'staff', 'desk1234');
    const login = await account(s, 'teacher');
    const [row] = await s.deps.db.insert(teachers).values({ name: '拒课老师', photo: '/x.svg', accountId: login.id }).returning();
    const teacher = { id: row!.id, token: login.token };
    const cls = await newClass(s, { teacherId: null, teacherState: 'not_started', startsAt: new Date(s.clock.now().getTime() + DAY) });
    expect((await assign(s, staff.token, cls.id, teacher.id)).body.code).toBe(200);
    await h.logIn(staff.phone, 'desk1234');
    const before = await h.open('/staff');
    const shown = Number(document.querySelector('[data-section="classes"] [data-waiting]')?.getAttribute('data-waiting') ?? 0);
    before.unmount();
    expect((await teacherCall(s, teacher.token, 'decline', cls.id, { reason: '出差' })).body.code).toBe(200);
    const ui = await h.open('/staff');
    const link = screen.getByRole('link', { name: /本周课程与老师确认/ });
    expect(Number(link.querySelector('[data-waiting]')?.getAttribute('data-waiting'))).toBe(shown + 1);
    await ui.user.click(link);
    await ui.waitForPath('/staff/classes');
    expect(document.querySelector(`[data-staff-class="${cls.id}"]`)).not.toBe(null);
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
    for (const [path, empty] of [
      ['/staff/transfers', '没有等待审核的转让申请'],
      ['/staff/cardRefunds', '没有等待审核的退款申请'],
      ['/staff/refunds', '没有需要处理的退款'],
      ['/staff/invoices', '没有待开具的发票'],
    ]) {
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

  it('register a member (decision 054): a bad phone is said at the field and nothing is written; registered, the desk is shown the random initial password once, and the member logs in with it and must set a new one', async () => {
    const staff = await account(s, 'staff', 'desk1234');
    await h.logIn(staff.phone, 'desk1234');
    const ui = await h.open('/staff/members/new');
    expect(document.body.textContent).toContain('10 位的随机初始密码，只显示这一次');
    const phoneField = document.querySelector('input[name="phone"]') as HTMLInputElement;
    const nameField = document.querySelector('input[name="name"]') as HTMLInputElement;
    await ui.user.type(phoneField, '1391234');
    await ui.user.type(nameField, '周到店');
    await ui.user.click(screen.getByRole('button', { name: '登记' }));
    await waitFor(() => document.body.textContent!.includes('请输入正确的手机号'), 'the phone refusal shows');
    expect(document.querySelector('[data-registered]')).toBeNull();
    await ui.user.clear(phoneField);
    await ui.user.type(phoneField, '13987654321');
    await ui.user.click(screen.getByRole('button', { name: '登记' }));
    await waitFor(() => document.querySelector('[data-registered]') !== null, 'the registration shows');
    expect(screen.getByRole('status').textContent).toContain(
      '已为 周到店（13987654321）开通会员账号。初始密码（只显示这一次，请交给会员，首次登录须修改）',
    );
    const shown = screen.getByLabelText('初始密码').textContent!;
    expect(shown).toMatch(/^[A-HJ-NP-Za-km-np-z2-9]{10}$/);
    expect(
      (await s.call('POST', '/api/oauth/login', { body: { username: '13987654321', password: '654321', loginType: 'password' } })).body
        .code,
    ).toBe(10017);
    const login = await s.call('POST', '/api/oauth/login', { body: { username: '13987654321', password: shown, loginType: 'password' } });
    expect(login.body).toMatchObject({ code: 200, data: { name: '周到店', mustChangePassword: true } });
    // the same phone again: the desk is told it is a member already
    await ui.user.type(phoneField, '13987654321');
    await ui.user.type(nameField, '周到店');
    await ui.user.click(screen.getByRole('button', { name: '登记' }));
    await waitFor(() => document.body.textContent!.includes('这个手机号已经是会员了'), 'the taken phone shows');
  });
});
