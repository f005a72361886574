// @vitest-environment jsdom
import { eq } from 'drizzle-orm';
import { expect } from 'vitest';
import { staffBindMachine, type StaffBindContext } from '../../machines/staff-bind.machine';
import { loginFailures, openIdBindings } from '../../src/server/db/schema/index';
import { account, openIdTicket } from '../server/binding/support';
import { screen, startScreenHarness } from './support/screen-harness';
import { defineScreenPaths, type World } from './support/screen-paths';

/**
 * /bindPage/userBind (spec §5, §8 binding; decision 028): a staff member binds with the username and
 * password of their staff account; the open id of the silent login is the openId cookie. A wrong
 * password is counted like a wrong login. Bound, they land on the staff console logged in as staff.
 */
const h = await startScreenHarness({ seed: true });
const s = h.server;

const PASSWORD = 'desk1234';
const WRONG = 'wrong999';
/** typed as the username; the driver types the path's staff phone */
const THE_PHONE = 'PHONE';
const NO_OPENID = 60001;
const WRONG_CREDENTIALS = 60011;

interface Staff {
  accountId: number;
  phone: string;
  openId: string;
  ticket: string;
  typed: { username: string; password: string };
}
type W = World<Staff>;

const field = (name: string) => document.querySelector<HTMLInputElement>(`input[name="${name}"]`)!;
const alertText = () => screen.queryByRole('alert')?.textContent ?? null;
const bindButton = () => screen.getByRole('button', { name: /^绑定$|绑定中/ }) as HTMLButtonElement;
const bindRequests = (w: W) => w.sent.filter((r) => r.invoke === 'bindStaff');
const boundTo = async (w: W) =>
  (await s.deps.db.select().from(openIdBindings).where(eq(openIdBindings.openId, w.openId)))[0]?.accountId ?? null;
const failures = async (w: W) => (await s.deps.db.select().from(loginFailures).where(eq(loginFailures.phone, w.phone))).length;

function form(w: W, feedback: string | null) {
  expect(w.ui.path()).toBe('/bindPage/userBind');
  expect(alertText()).toBe(feedback);
  expect(bindButton().textContent).toBe('绑定');
  expect(bindButton().disabled).toBe(false);
  expect(w.held.get('bindStaff') ?? []).toEqual([]);
}

async function type(w: W, name: 'username' | 'password', value: string) {
  await w.ui.user.clear(field(name));
  if (value) await w.ui.user.type(field(name), value);
}

defineScreenPaths<Staff>(h, {
  machine: staffBindMachine,
  screen: '/bindPage/userBind',
  cases: {
    'bind.username.change': [{ value: THE_PHONE }],
    'bind.password.change': [{ value: WRONG }, { value: PASSWORD }],
    'xstate.done.actor.bindStaff': [
      {
        output: { code: 200, status: true },
        answer: {
          server: true,
          async arrange(w: W) {
            h.jar.setClientCookie('openId', w.ticket);
          },
        },
      },
      { output: { code: WRONG_CREDENTIALS, status: false }, answer: { server: true } },
      {
        output: { code: NO_OPENID, status: false },
        answer: {
          server: true,
          async arrange() {
            h.jar.setClientCookie('openId', '');
          },
        },
      },
    ],
    'xstate.error.actor.bindStaff': [{ error: new Error('network') }],
  },
  offer: (e, snap) => {
    const c = snap.context as StaffBindContext;
    if (e.type === 'bind.username.change') return c.username === '';
    if (e.type === 'bind.password.change') return c.password === '' || (c.password === WRONG && e.value === PASSWORD);
    if (e.type === 'xstate.done.actor.bindStaff') {
      const code = (e.output as { code: number }).code;
      if (code === 200) return c.password === PASSWORD;
      if (code === WRONG_CREDENTIALS) return c.password === WRONG;
    }
    return true;
  },
  project: (c: StaffBindContext) => ({ username: c.username, password: c.password, errorCode: c.errorCode ?? null }),
  requests: { bindStaff: { method: 'POST', path: /^\/api\/bind\/staff$/ } },

  async start(hh) {
    const st = await account(s, 'staff', PASSWORD);
    const me = await openIdTicket(s);
    hh.jar.setClientCookie('openId', me.ticket);
    const ui = await hh.open('/bindPage/userBind');
    return { ui, accountId: st.id, phone: st.phone, openId: me.openId, ticket: me.ticket, typed: { username: '', password: '' } };
  },

  events: {
    'bind.username.change': async (w, e) => {
      w.typed.username = e.value === THE_PHONE ? w.phone : (e.value as string);
      await type(w, 'username', w.typed.username);
    },
    'bind.password.change': async (w, e) => {
      w.typed.password = e.value as string;
      await type(w, 'password', w.typed.password);
    },
    'bind.submit': async (w) => {
      await w.ui.user.click(bindButton());
    },
  },

  states: {
    editing: async (w) => {
      expect([field('username').value, field('password').value]).toEqual([w.typed.username, w.typed.password]);
      expect(await boundTo(w), 'not bound yet').toBe(null);
    },
    'editing.clean': (w) => form(w, null),
    'editing.usernameMissing': (w) => {
      form(w, '请输入用户名');
      expect(w.typed.username).toBe('');
    },
    'editing.passwordMissing': (w) => {
      form(w, '请输入密码');
      expect(w.typed.password).toBe('');
    },
    'editing.noOpenId': (w) => {
      expect(bindRequests(w).at(-1)?.answer).toBe(NO_OPENID);
      const box = document.querySelector('[data-no-openid]');
      expect(box?.textContent).toContain('没有取得微信身份');
      expect(box?.querySelector('a')?.getAttribute('href')).toBe('/api/oauth/wechat/authorize?from=%2FbindPage%2FuserBind');
    },
    'editing.refused': async (w) => {
      expect(bindRequests(w).at(-1)?.answer).toBe(WRONG_CREDENTIALS);
      form(w, '用户名或密码错误');
      expect(await failures(w), 'counted like a wrong login').toBe(bindRequests(w).filter((r) => r.answer === WRONG_CREDENTIALS).length);
    },
    'editing.unreachable': (w) => {
      expect(bindRequests(w).at(-1)?.answer).toBe('network');
      form(w, '网络无法连接');
    },
    binding: (w) => {
      expect(bindButton().textContent).toBe('绑定中…');
      expect(bindButton().disabled).toBe(true);
      expect((w.held.get('bindStaff') ?? []).map((r) => r.body)).toEqual([{ username: w.phone, password: w.typed.password }]);
    },
    done: async (w) => {
      await w.ui.waitForPath('/staff');
      expect(await boundTo(w), 'the open id is bound to the staff account').toBe(w.accountId);
      expect(h.jar.get('token'), 'logged in').toBeTruthy();
      expect(document.querySelector('[data-console-sections]'), 'the staff console opens for them').not.toBe(null);
    },
  },
});
