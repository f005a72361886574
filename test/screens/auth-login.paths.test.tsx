// @vitest-environment jsdom
import { expect } from 'vitest';
import { authLoginMachine, type LoginContext } from '../../machines/auth-login.machine';
import { isValidPhone } from '../../src/domain/validation';
import { loadConfig } from '../../src/server/config';
import { memberWithPassword } from '../server/auth/support';
import { screen, startScreenHarness } from './support/screen-harness';
import { defineScreenPaths, type Sent, type World } from './support/screen-paths';

/**
 * Logging in (/login, spec §5, §7): by phone and SMS code or by phone and password, the agreement
 * required; refusals said under the form; a member logged in has a live session on the server and
 * goes where they came from (here: Homepage). The code button and its countdown are the code
 * sender's (machines/auth-sms-code.machine.ts), walked in auth-sms-code.paths.test.tsx on this screen: here a
 * member who types the code texted has asked for it on the screen, and the server answers at once.
 * Each member asks for codes from their own network address (the per-network limit is tested with
 * the server); the server's resend cooldown is short (3 s), as in the sender's paths.
 */
const base = loadConfig({ APP_MODE: 'demo' });
const h = await startScreenHarness({ config: { sms: { ...base.sms, perIpPerHour: 1_000_000, resendCooldownS: 3 } } });

const PASSWORD = 'yoga1234';
/** the walk's stand-ins; the screen gets the member's real phone and the code really sent */
const A_PHONE = '13912340000';
const THE_CODE = '123456';
const A_WRONG_CODE = '654321';
const A_WRONG_PASSWORD = 'wrongpass1';

interface Member {
  phone: string;
  typed: { phone: string; code: string; password: string; agreed: boolean };
  tab: 'code' | 'password';
}
type W = World<Member>;

const ok = (data: unknown) => ({ code: 200, status: true, data, token: 'issued' });
const refused = (code: number) => ({ code, status: false, data: null });

let phones = 0;
const field = (name: string) => document.querySelector<HTMLInputElement>(`input[name="${name}"]`);
const alertText = () => screen.queryByRole('alert')?.textContent ?? null;
const submit = () => screen.getByTestId('login-submit') as HTMLButtonElement;
const sendButton = () => screen.queryByTestId('send-code') as HTMLButtonElement | null;
const last = (w: W, invoke: string): Sent | undefined => w.sent.filter((r) => r.invoke === invoke).at(-1);
/** the requests for a code the screen sent (the code sender's: answered by the server at once) */
const codeAsks = (w: W, since = 0): Sent[] => w.sent.slice(since).filter((r) => r.path.startsWith('/api/oauth/valid-code'));
/** what the screen asked of the API since a step: the login and the code requests */
const asked = (w: W, since: number) => [
  ...w.sent
    .slice(since)
    .filter((r) => r.invoke)
    .map((r) => r.invoke!),
  ...codeAsks(w, since).map(() => 'sendCode'),
];
const FORM_MESSAGES = [
  '请输入正确的手机号',
  '请输入验证码',
  '请输入密码',
  '请先阅读并同意《会员服务协议》和《隐私政策》',
  '手机号或密码错误',
  '验证码错误或已过期',
  '网络无法连接',
];

async function latestCode(phone: string): Promise<string | undefined> {
  return (await h.server.call('GET', `/api/dev/sms/${phone}`)).body?.data?.code as string | undefined;
}

async function type(w: W, name: 'phone' | 'code' | 'password', value: string) {
  w.typed[name] = value;
  await w.ui.user.clear(field(name)!);
  if (value) await w.ui.user.type(field(name)!, value);
}

async function tokenWorks(token: string | undefined): Promise<boolean> {
  if (!token) return false;
  return (await h.server.call('GET', '/api/customers/me', { token })).body.code === 200;
}

defineScreenPaths<Member>(h, {
  machine: authLoginMachine,
  screen: '/login',
  inputs: { 'a visitor': {} },
  cases: {
    'login.phone.change': [{ value: A_PHONE }, { value: '123' }],
    'login.code.change': [{ value: THE_CODE }, { value: A_WRONG_CODE }],
    'login.password.change': [{ value: PASSWORD }, { value: A_WRONG_PASSWORD }],
    'login.agreement.change': [{ agreed: true }],
    'xstate.done.actor.login': [
      { output: ok({ id: 1, username: A_PHONE, level: '2' }), answer: { server: true } },
      { output: refused(10002), answer: { server: true } },
      { output: refused(10003), answer: { server: true } },
    ],
    'xstate.error.actor.login': [{ error: new Error('network') }],
  },
  offer: (e, s) => {
    const c = s.context as LoginContext;
    const code = s.matches({ active: { tab: 'code' } });
    const output = (e as { output?: { code: number } }).output;
    // an answer comes before the member does anything else
    if (s.matches({ active: { form: 'submitting' } }) && !e.type.includes('.actor.login')) return false;
    // before agreeing, the member only types and taps log in (to meet the refusals); the rest comes after
    if (!c.agreed && !['login.agreement.change', 'login.phone.change', 'login.submit'].includes(e.type)) {
      return e.type === 'login.code.change' && e.value === A_WRONG_CODE && code && c.code === '';
    }
    switch (e.type) {
      case 'login.tab.password':
        // a member picks the tab before typing a secret
        return code && c.code === '' && c.password === '';
      case 'login.tab.code':
        return !code && c.password === '';
      case 'login.phone.change':
        return c.phone === '' || (c.phone === '123' && e.value !== '123');
      // the code field and its button are on the code tab, the password field on the other; the code
      // texted is typed for a valid phone (the member asks for it first, see the event)
      case 'login.code.change':
        return code && c.code === '' && (e.value !== THE_CODE || isValidPhone(c.phone));
      case 'login.code.send':
        return code && c.code === '';
      case 'login.password.change':
        return !code && c.password === '';
      case 'login.agreement.change':
        return !c.agreed;
      // the server answers what the member typed
      case 'xstate.done.actor.login':
        if (c.loginType === 'password') return output!.code === (c.password === PASSWORD ? 200 : 10002);
        return output!.code === (c.code === THE_CODE ? 200 : 10003);
      default:
        return true;
    }
  },
  project: (c: LoginContext) => ({
    phone: c.phone,
    code: c.code,
    password: c.password,
    agreed: c.agreed,
    loginType: c.loginType,
    errorCode: c.errorCode ?? null,
  }),
  requests: {
    login: { method: 'POST', path: /^\/api\/oauth\/login$/ },
  },

  async start(hh) {
    const phone = `1361234${String(phones++).padStart(4, '0')}`;
    await memberWithPassword(hh.server, phone, PASSWORD);
    const ui = await hh.open('/login');
    return { ui, phone, tab: 'code', typed: { phone: '', code: '', password: '', agreed: false } };
  },

  events: {
    'login.tab.code': async (w) => {
      w.tab = 'code';
      await w.ui.user.click(screen.getByRole('button', { name: '验证码登录' }));
    },
    'login.tab.password': async (w) => {
      w.tab = 'password';
      await w.ui.user.click(screen.getByRole('button', { name: '密码登录' }));
    },
    'login.phone.change': (w, e) => type(w, 'phone', e.value === A_PHONE ? w.phone : String(e.value)),
    'login.code.change': async (w, e) => {
      // the member types the code texted to them: asked for on the screen if they have not yet
      if (e.value === THE_CODE && !codeAsks(w).some((r) => r.answer === 200)) {
        await w.ui.user.click(sendButton()!);
        await w.ui.findByText(/秒后重发/);
      }
      const real = await latestCode(w.phone);
      if (e.value === THE_CODE && !real) throw new Error('the path types the code sent, but none was sent');
      const wrong = real ? String((Number(real) + 1) % 1_000_000).padStart(6, '0') : A_WRONG_CODE;
      await type(w, 'code', e.value === THE_CODE ? real! : wrong);
    },
    'login.password.change': (w, e) => type(w, 'password', String(e.value)),
    'login.agreement.change': async (w) => {
      w.typed.agreed = !w.typed.agreed;
      await w.ui.user.click(screen.getByText('我已阅读并同意'));
    },
    'login.code.send': (w) => w.ui.user.click(sendButton()!),
    'login.submit': (w) => w.ui.user.click(submit()),
  },

  states: {
    // on the form: what the member typed, on the tab they chose; no session yet
    active: async (w) => {
      expect(w.ui.path()).toBe('/login');
      expect(field('phone')?.value).toBe(w.typed.phone);
      expect(document.querySelector<HTMLInputElement>('input[name="agreement"]')?.checked ?? w.typed.agreed).toBe(w.typed.agreed);
      expect(h.jar.get('token'), 'no session yet').toBeUndefined();
    },
    'active.tab.code': (w) => {
      expect(field('code')?.value).toBe(w.typed.code);
      expect(field('password')).toBe(null);
      expect(sendButton()).not.toBe(null);
    },
    'active.tab.password': (w) => {
      expect(field('password')?.value).toBe(w.typed.password);
      expect(field('code')).toBe(null);
      expect(sendButton(), 'no code to send on the password tab').toBe(null);
    },
    'active.form.editing': () => {
      expect(submit().textContent).toBe('登录');
      expect(submit().disabled).toBe(false);
    },
    'active.form.editing.clean': () => {
      expect(FORM_MESSAGES.slice(0, 6)).not.toContain(alertText());
    },
    'active.form.editing.phoneInvalid': (w) => {
      expect(alertText()).toBe('请输入正确的手机号');
      expect(isValidPhone(w.typed.phone.trim())).toBe(false);
    },
    'active.form.editing.codeMissing': (w) => {
      expect(alertText()).toBe('请输入验证码');
      expect([w.tab, w.typed.code.trim()]).toEqual(['code', '']);
    },
    'active.form.editing.passwordMissing': (w) => {
      expect(alertText()).toBe('请输入密码');
      expect([w.tab, w.typed.password.trim()]).toEqual(['password', '']);
    },
    'active.form.editing.agreementMissing': (w) => {
      expect(alertText()).toBe('请先阅读并同意《会员服务协议》和《隐私政策》');
      expect(w.typed.agreed).toBe(false);
    },
    'active.form.editing.refused': (w) => {
      const answer = last(w, 'login')?.answer;
      expect([10002, 10003]).toContain(answer);
      expect(alertText()).toBe(answer === 10002 ? '手机号或密码错误' : '验证码错误或已过期');
    },
    'active.form.editing.unreachable': (w) => {
      expect(last(w, 'login')?.answer).toBe('network');
      expect(alertText()).toBe('网络无法连接');
    },
    'active.form.submitting': (w) => {
      expect(submit().textContent).toBe('登录中…');
      expect(submit().disabled).toBe(true);
      const secret = w.tab === 'code' ? w.typed.code : w.typed.password;
      expect(w.held.get('login')?.map((r) => r.body)).toEqual([
        { username: w.typed.phone.trim(), password: secret.trim(), loginType: w.tab },
      ]);
    },
    // a live session on the server, and the member on Homepage
    loggedIn: async (w) => {
      await w.ui.waitForPath('/');
      expect(last(w, 'login')?.answer).toBe(200);
      expect(await tokenWorks(h.jar.get('token')), 'the session is alive on the server').toBe(true);
      expect(h.jar.get('username')).toBe(w.phone);
    },
  },

  effects: {
    // switching tabs starts the form afresh: no field error said, nothing sent
    'login.tab.code': (w, _e, before) => {
      expect(field('code'), 'the code tab shows the code field').not.toBe(null);
      expect(['请输入正确的手机号', '请输入验证码', '请输入密码', '请先阅读并同意《会员服务协议》和《隐私政策》']).not.toContain(
        alertText(),
      );
      expect(asked(w, before)).toEqual([]);
    },
    'login.tab.password': (w, _e, before) => {
      expect(field('password'), 'the password tab shows the password field').not.toBe(null);
      expect(['请输入正确的手机号', '请输入验证码', '请输入密码', '请先阅读并同意《会员服务协议》和《隐私政策》']).not.toContain(
        alertText(),
      );
      expect(asked(w, before)).toEqual([]);
    },
    // typing says nothing and sends nothing
    'login.password.change': (w, _e, before) => {
      expect(['请输入正确的手机号', '请输入验证码', '请输入密码', '请先阅读并同意《会员服务协议》和《隐私政策》']).not.toContain(
        alertText(),
      );
      expect(asked(w, before)).toEqual([]);
    },
    // typing the phone sends nothing, and a code texted keeps its countdown
    'login.phone.change': (w, _e, before) => {
      expect(asked(w, before)).toEqual([]);
      if (codeAsks(w).some((r) => r.answer === 200)) expect(sendButton()?.textContent).toMatch(/^\d+ 秒后重发$/);
    },
    // get-code texts a code to a valid phone (once: then it counts down) and says so otherwise; it never logs in
    'login.code.send': (w, _e, before) => {
      const now = asked(w, before);
      expect(now).not.toContain('login');
      if (!isValidPhone(w.typed.phone.trim())) {
        expect(now).toEqual([]);
        expect(alertText()).toBe('请输入正确的手机号');
        return;
      }
      const texted = codeAsks(w, before);
      if (codeAsks(w).length > texted.length) expect(texted, 'counting down: nothing sent').toEqual([]);
      else expect(texted.map((r) => [r.path, r.answer])).toEqual([[`/api/oauth/valid-code?phone=${w.typed.phone.trim()}`, 200]]);
      expect(sendButton()?.textContent).toMatch(/^\d+ 秒后重发$/);
    },
    // log in checks the phone first, then the secret of the tab, then the agreement
    'login.submit': (w, _e, before) => {
      const asked_ = asked(w, before);
      expect(asked_).not.toContain('sendCode');
      const secret = (w.tab === 'code' ? w.typed.code : w.typed.password).trim();
      const problem = !isValidPhone(w.typed.phone.trim())
        ? '请输入正确的手机号'
        : !secret
          ? w.tab === 'code'
            ? '请输入验证码'
            : '请输入密码'
          : !w.typed.agreed
            ? '请先阅读并同意《会员服务协议》和《隐私政策》'
            : null;
      if (problem) expect(alertText()).toBe(problem);
      expect(asked_.includes('login')).toBe(problem === null);
    },
  },
});
