// @vitest-environment jsdom
import { eq } from 'drizzle-orm';
import { expect } from 'vitest';
import { authPasswordChangeMachine, type ChangePasswordContext } from '../../machines/auth-password-change.machine';
import { accounts } from '../../src/server/db/schema/index';
import { hashPassword, verifyPassword } from '../../src/server/services/auth-password';
import { memberWithPassword } from '../server/auth/support';
import { screen, startScreenHarness } from './support/screen-harness';
import { defineScreenPaths, type World } from './support/screen-paths';

/**
 * /mine/changepassword (spec §5): old password required; new one 6-15 characters, typed twice the
 * same, not the old one; then POST /customers/password. The checks below are the spec's, per state.
 */
const h = await startScreenHarness({ seed: true });

const OLD = 'oldpass1';
const ok = { code: 200, status: true, data: null };
const oldWrong = { code: 10014, status: false, data: null };

interface Member {
  accountId: number;
  /** what the server should hold now */
  password: string;
  typed: { old: string; password: string; again: string };
}
type W = World<Member>;

let phones = 0;
const field = (name: string) => document.querySelector<HTMLInputElement>(`input[name="${name}"]`)!;
const alertText = () => screen.queryByRole('alert')?.textContent ?? null;
const saveButton = () => screen.getByRole('button', { name: /确认修改|提交中/ }) as HTMLButtonElement;
const changeRequests = (w: W) => w.sent.filter((r) => r.invoke === 'changePassword');

async function stores(w: W, password: string): Promise<boolean> {
  const [row] = await h.server.deps.db.select({ hash: accounts.passwordHash }).from(accounts).where(eq(accounts.id, w.accountId));
  return verifyPassword(password, row?.hash);
}

/** on the form, with the given feedback, nothing held, the save button ready */
function form(w: W, feedback: string | null) {
  expect(w.ui.path()).toBe('/mine/changepassword');
  expect(alertText()).toBe(feedback);
  expect(saveButton().textContent).toBe('确认修改');
  expect(saveButton().disabled).toBe(false);
  expect(w.held.get('changePassword') ?? []).toEqual([]);
}

async function type(w: W, name: 'oldPassword' | 'password' | 'again', value: string) {
  await w.ui.user.clear(field(name));
  if (value) await w.ui.user.type(field(name), value);
}

defineScreenPaths<Member>(h, {
  machine: authPasswordChangeMachine,
  screen: '/mine/changepassword',
  cases: {
    'password.old.change': [{ value: ` ${OLD} ` }],
    // too short, the same as the old one, a good one
    'password.new.change': [{ value: '123' }, { value: OLD }, { value: 'newpass1' }],
    'password.again.change': [{ value: OLD }, { value: 'newpass1' }],
    'xstate.done.actor.changePassword': [
      { output: ok, answer: { server: true } },
      {
        output: oldWrong,
        // the password was changed on another phone meanwhile: the old one typed here is wrong now
        answer: {
          server: true,
          async arrange(w: W) {
            w.password = 'elsewhere1';
            await h.server.deps.db
              .update(accounts)
              .set({ passwordHash: await hashPassword(w.password, 4) })
              .where(eq(accounts.id, w.accountId));
          },
        },
      },
    ],
    'xstate.error.actor.changePassword': [{ error: new Error('network') }],
  },
  offer: (e, s) => {
    const c = s.context as ChangePasswordContext;
    if (e.type === 'password.old.change') return c.oldPassword === '';
    if (e.type === 'password.new.change') return c.password === '' || (c.password === '123' && e.value !== '123');
    // the member types the new password before its repeat
    if (e.type === 'password.again.change') return c.again === '' && c.password !== '';
    // a refused old password stays refused when sent again (nothing here retypes it)
    if (e.type === 'xstate.done.actor.changePassword') return !(c.errorCode === oldWrong.code && (e.output as typeof ok).code === ok.code);
    return true;
  },
  project: (c: ChangePasswordContext) => ({
    old: c.oldPassword.trim(),
    password: c.password,
    again: c.again,
    errorCode: c.errorCode ?? null,
  }),
  requests: { changePassword: { method: 'POST', path: /^\/api\/customers\/password$/ } },

  async start(hh) {
    const phone = `1391234${String(phones++).padStart(4, '0')}`;
    const accountId = await memberWithPassword(hh.server, phone, OLD);
    await hh.logIn(phone, OLD);
    const ui = await hh.open('/mine/changepassword');
    return { ui, accountId, password: OLD, typed: { old: '', password: '', again: '' } };
  },

  events: {
    'password.old.change': async (w, e) => {
      w.typed.old = e.value as string;
      await type(w, 'oldPassword', w.typed.old);
    },
    'password.new.change': async (w, e) => {
      w.typed.password = e.value as string;
      await type(w, 'password', w.typed.password);
    },
    'password.again.change': async (w, e) => {
      w.typed.again = e.value as string;
      await type(w, 'again', w.typed.again);
    },
    'password.save': async (w) => {
      await w.ui.user.click(saveButton());
    },
  },

  states: {
    // until it is done, the server holds the member's password as it was
    editing: async (w) => {
      expect(await stores(w, w.password), 'the stored password is unchanged').toBe(true);
      expect([field('oldPassword').value, field('password').value, field('again').value]).toEqual([
        w.typed.old,
        w.typed.password,
        w.typed.again,
      ]);
    },
    'editing.clean': (w) => form(w, null),
    'editing.oldMissing': (w) => {
      form(w, '请输入旧密码');
      expect(w.typed.old.trim()).toBe('');
    },
    'editing.lengthInvalid': (w) => {
      form(w, '密码须为6到15位');
      const n = w.typed.password.trim().length;
      expect(n < 6 || n > 15, `a new password of ${n} characters is refused`).toBe(true);
    },
    'editing.mismatch': (w) => {
      form(w, '两次输入的密码不一致');
      expect(w.typed.password.trim()).not.toBe(w.typed.again.trim());
    },
    'editing.sameAsOld': (w) => {
      form(w, '新密码不能与旧密码相同');
      expect(w.typed.password.trim()).toBe(w.typed.old.trim());
    },
    'editing.refused': (w) => {
      const last = changeRequests(w).at(-1);
      expect(last?.answer, 'the server refused the last request').toBe(10014);
      form(w, '旧密码错误');
    },
    'editing.unreachable': (w) => {
      expect(changeRequests(w).at(-1)?.answer, 'the last request failed on the network').toBe('network');
      form(w, '网络无法连接');
    },
    saving: async (w) => {
      expect(saveButton().textContent).toBe('提交中…');
      expect(saveButton().disabled).toBe(true);
      expect(alertText()).toBe(null);
      // exactly one request, with what the member typed, trimmed
      expect((w.held.get('changePassword') ?? []).map((r) => r.body)).toEqual([
        { oldPassword: w.typed.old.trim(), newPassword: w.typed.password.trim() },
      ]);
      expect(await stores(w, w.password)).toBe(true);
    },
    done: async (w) => {
      await w.ui.waitForPath('/mine');
      expect(screen.getByRole('status').textContent).toBe('密码已修改');
      expect(changeRequests(w).map((r) => r.answer)).toContain(200);
      expect(await stores(w, w.typed.password.trim()), 'the server holds the new password').toBe(true);
      expect(await stores(w, OLD), 'the old password no longer works').toBe(false);
    },
  },
});
