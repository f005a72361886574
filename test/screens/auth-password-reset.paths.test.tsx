// @vitest-environment jsdom
import { eq } from 'drizzle-orm';
import { expect } from 'vitest';
import { authPasswordResetMachine, type ResetPasswordContext } from '../../machines/auth-password-reset.machine';
import { isValidPhone } from '../../src/domain/validation';
import { loadConfig } from '../../src/server/config';
import { accounts } from '../../src/server/db/schema/index';
import { verifyPassword } from '../../src/server/services/auth-password';
import { memberWithPassword, sendCode } from '../server/auth/support';
import { screen, startScreenHarness } from './support/screen-harness';
import { defineScreenPaths, type Sent, type World } from './support/screen-paths';

/**
 * Forgotten password (spec §7), over its two screens: /login/forgetpassword proves the phone with an
 * SMS code and gets a ticket; /login/newpass sets the new password (6-15, typed twice) with it; an
 * expired ticket sends the member back to step one with the phone kept. The code button and its
 * countdown are the code sender's (machines/auth-sms-code.machine.ts, walked in auth-sms-code.paths.test.tsx):
 * here a member who types the code texted has asked for it on the screen, and the server answers at
 * once. Each member here asks from their own network address, so the per-network SMS limit (tested
 * with the server) stays out of the way; the server's resend cooldown is short (3 s).
 */
const base = loadConfig({ APP_MODE: 'demo' });
const h = await startScreenHarness({ config: { sms: { ...base.sms, perIpPerHour: 1_000_000, resendCooldownS: 3 } } });

const OLD = 'oldpass1';
/** the walk's stand-ins: a member's phone, a code; the screen gets the real ones */
const A_PHONE = '13912340000';
const THE_CODE = '123456';
const A_WRONG_CODE = '654321';

interface Member {
  accountId: number;
  phone: string;
  /** the stored password hash when the path began: until done, nothing may change it */
  hashAtStart: string;
  /** the path started on step two with a ticket from step one */
  startedWithTicket: boolean;
  typed: { phone: string; code: string; password: string; again: string };
  /** the member's taps on the form since they last typed: a field error answers a tap */
  tapped: Set<'send' | 'verify' | 'save'>;
  /** the first request of this visit to step one (back from step two, the code sender starts afresh) */
  stepOneFrom: number;
}
type W = World<Member>;

let phones = 0;
const field = (name: string) => document.querySelector<HTMLInputElement>(`input[name="${name}"]`)!;
const alertText = () => screen.queryByRole('alert')?.textContent ?? null;
const button = (name: RegExp) => screen.getByRole('button', { name }) as HTMLButtonElement;
const sendButton = () => screen.getByTestId('send-code') as HTMLButtonElement;
const requests = (w: W, invoke: string): Sent[] => w.sent.filter((r) => r.invoke === invoke);
const last = (w: W, invoke: string) => requests(w, invoke).at(-1);
/** the requests for a code the screen sent (the code sender's: answered by the server at once) */
const codeAsks = (w: W, since = 0): Sent[] => w.sent.slice(since).filter((r) => r.path.startsWith('/api/oauth/valid-code'));

const FORM_MESSAGES = ['请输入正确的手机号', '请输入验证码', '验证码错误或已过期', '网络无法连接'];
/** the envelopes the server answers with (the walk needs their shape; the server gives the real ones) */
const ok = (data: unknown) => ({ code: 200, status: true, data });
const refused = (code: number) => ({ code, status: false, data: null });

async function storedHash(w: W): Promise<string> {
  const [row] = await h.server.deps.db.select({ hash: accounts.passwordHash }).from(accounts).where(eq(accounts.id, w.accountId));
  return row?.hash ?? '';
}

async function stores(w: W, password: string): Promise<boolean> {
  const [row] = await h.server.deps.db.select({ hash: accounts.passwordHash }).from(accounts).where(eq(accounts.id, w.accountId));
  return verifyPassword(password, row?.hash);
}

async function latestCode(phone: string): Promise<string | undefined> {
  const r = await h.server.call('GET', `/api/dev/sms/${phone}`);
  return r.body?.data?.code as string | undefined;
}

async function type(w: W, name: 'phone' | 'code' | 'password' | 'again', value: string) {
  w.typed[name] = value;
  w.tapped.clear();
  await w.ui.user.clear(field(name));
  if (value) await w.ui.user.type(field(name), value);
}

defineScreenPaths<Member>(h, {
  machine: authPasswordResetMachine,
  screen: '/login/forgetpassword → /login/newpass',
  inputs: { 'a visitor': {}, 'a visitor back from step one with a ticket': { ticket: 'from step one', phone: A_PHONE } },
  cases: {
    'reset.phone.change': [{ value: A_PHONE }, { value: '123' }],
    'reset.code.change': [{ value: THE_CODE }, { value: A_WRONG_CODE }],
    'reset.password.change': [{ value: '123' }, { value: 'newpass1' }],
    'reset.again.change': [{ value: 'newpass1' }, { value: 'other123' }],
    'xstate.done.actor.verifyCode': [
      { output: ok({ ticket: 'issued' }), answer: { server: true } },
      { output: refused(10003), answer: { server: true } },
    ],
    'xstate.error.actor.verifyCode': [{ error: new Error('network') }],
    'xstate.done.actor.resetPassword': [
      { output: ok(null), answer: { server: true } },
      // the member took longer than the ticket's 10 minutes
      { output: refused(10012), answer: { server: true, arrange: async () => h.server.clock.advance(11 * 60_000) } },
    ],
    'xstate.error.actor.resetPassword': [{ error: new Error('network') }],
  },
  offer: (e, s) => {
    const c = s.context as ResetPasswordContext;
    const output = (e as { output?: { code: number } }).output;
    switch (e.type) {
      case 'reset.phone.change':
        // typed once, or corrected once
        return c.phone === '' || (c.phone === '123' && e.value !== '123');
      case 'reset.code.change':
        // the code texted is typed for a valid phone (the member asks for it first, see the event)
        return c.code === '' && (e.value !== THE_CODE || isValidPhone(c.phone));
      case 'reset.code.send':
        return c.code === '';
      case 'reset.password.change':
        return c.password === '' || (c.password === '123' && e.value !== '123');
      case 'reset.again.change':
        return c.again === '';
      case 'reset.restart':
        // the screen offers it for an expired ticket (walked from step one; a path that started on
        // step two stays there, it only proves that a ticket brought along opens step two)
        return c.errorCode === 10012 && c.ticket !== 'from step one';
      case 'xstate.done.actor.verifyCode':
        return output!.code === 200 ? c.code === THE_CODE : c.code === A_WRONG_CODE;
      case 'xstate.done.actor.resetPassword':
        return output!.code !== 200 || c.errorCode !== 10012;
      default:
        return true;
    }
  },
  project: (c: ResetPasswordContext) => ({
    phone: c.phone,
    code: c.code,
    password: c.password,
    again: c.again,
    ticket: Boolean(c.ticket),
    errorCode: c.errorCode ?? null,
  }),
  requests: {
    verifyCode: { method: 'POST', path: /^\/api\/oauth\/resetPasswordVerify$/ },
    resetPassword: { method: 'POST', path: /^\/api\/oauth\/resetPassword$/ },
  },

  async start(hh, input) {
    const phone = `1371234${String(phones++).padStart(4, '0')}`;
    const accountId = await memberWithPassword(hh.server, phone, OLD);
    const [row] = await hh.server.deps.db.select({ hash: accounts.passwordHash }).from(accounts).where(eq(accounts.id, accountId));
    const hashAtStart = row!.hash ?? '';
    const typed = { phone: '', code: '', password: '', again: '' };
    if (input === 'a visitor')
      return {
        ui: await hh.open('/login/forgetpassword'),
        accountId,
        phone,
        hashAtStart,
        startedWithTicket: false,
        typed,
        tapped: new Set(),
        stepOneFrom: 0,
      };
    // step one done through the API: the ticket travels to step two in the location state
    const code = await sendCode(hh.server, phone);
    const verified = await hh.server.call('POST', '/api/oauth/resetPasswordVerify', { body: { username: phone, password: code } });
    const ui = await hh.open('/login/newpass', { state: { ticket: verified.body.data.ticket, phone } });
    return { ui, accountId, phone, hashAtStart, startedWithTicket: true, typed: { ...typed, phone }, tapped: new Set(), stepOneFrom: 0 };
  },

  events: {
    'reset.phone.change': (w, e) => type(w, 'phone', e.value === A_PHONE ? w.phone : String(e.value)),
    'reset.code.change': async (w, e) => {
      // the member types the code texted to them: asked for on the screen if they have not yet
      if (e.value === THE_CODE && !codeAsks(w, w.stepOneFrom).some((r) => r.answer === 200)) {
        await w.ui.user.click(sendButton());
        await w.ui.findByText(/秒后重发/);
      }
      const real = await latestCode(w.phone);
      if (e.value === THE_CODE && !real) throw new Error('the path types the code sent, but none was sent');
      const wrong = real ? String((Number(real) + 1) % 1_000_000).padStart(6, '0') : A_WRONG_CODE;
      await type(w, 'code', e.value === THE_CODE ? real! : wrong);
    },
    'reset.code.send': async (w) => {
      w.tapped.add('send');
      await w.ui.user.click(sendButton());
    },
    'reset.verify': async (w) => {
      w.tapped.add('verify');
      await w.ui.user.click(button(/下一步|验证中/));
    },
    'reset.password.change': (w, e) => type(w, 'password', String(e.value)),
    'reset.again.change': (w, e) => type(w, 'again', String(e.value)),
    'reset.save': async (w) => {
      w.tapped.add('save');
      await w.ui.user.click(button(/确认修改|提交中/));
    },
    'reset.restart': async (w) => {
      await w.ui.user.click(button(/重新验证手机号/));
      // step one again, on its own screen: the phone kept, the rest empty, no code asked on it yet
      w.typed = { ...w.typed, code: '', password: '', again: '' };
      w.stepOneFrom = w.sent.length;
    },
  },

  states: {
    // step one: the member's password is as it was
    verify: async (w, leaves) => {
      expect(w.ui.path()).toBe('/login/forgetpassword');
      // one line under the form: the form's own problem (every code asked for here was sent)
      const form = leaves
        .find((l) => l.startsWith('verify.form.'))!
        .split('.')
        .at(-1)!;
      const formLine: Record<string, string> = {
        phoneInvalid: '请输入正确的手机号',
        codeMissing: '请输入验证码',
        refused: '验证码错误或已过期',
        unreachable: '网络无法连接',
      };
      expect(alertText(), 'the line under the form').toBe(formLine[form] ?? null);
      // the code button: counting down after a code was texted on this visit, ready otherwise
      const texted = codeAsks(w, w.stepOneFrom).some((r) => r.answer === 200);
      expect(sendButton().textContent).toMatch(texted ? /^\d+ 秒后重发$/ : /^获取验证码$/);
      expect([field('phone').value, field('code').value]).toEqual([w.typed.phone, w.typed.code]);
      expect(await storedHash(w), 'the stored password is as it was').toBe(w.hashAtStart);
    },
    'verify.form.editing': () => {
      expect(button(/下一步/).disabled).toBe(false);
    },
    'verify.form.editing.clean': () => {
      expect(FORM_MESSAGES.slice(0, 3)).not.toContain(alertText());
    },
    'verify.form.editing.phoneInvalid': (w) => {
      expect(alertText()).toBe('请输入正确的手机号');
      expect(w.tapped.has('send') || w.tapped.has('verify'), 'a tap was answered').toBe(true);
      expect(isValidPhone(w.typed.phone.trim())).toBe(false);
    },
    'verify.form.editing.codeMissing': (w) => {
      expect(alertText()).toBe('请输入验证码');
      expect(w.tapped.has('verify'), 'a tap on next was answered').toBe(true);
      expect(isValidPhone(w.typed.phone.trim())).toBe(true);
      expect(w.typed.code.trim()).toBe('');
    },
    'verify.form.editing.refused': (w) => {
      expect(last(w, 'verifyCode')?.answer).toBe(10003);
      expect(alertText()).toBe('验证码错误或已过期');
    },
    'verify.form.editing.unreachable': (w) => {
      expect(last(w, 'verifyCode')?.answer).toBe('network');
      expect(alertText()).toBe('网络无法连接');
    },
    'verify.form.verifying': (w) => {
      expect(button(/验证中/).disabled).toBe(true);
      expect(w.held.get('verifyCode')?.map((r) => r.body)).toEqual([{ username: w.typed.phone.trim(), password: w.typed.code.trim() }]);
    },
    // step two: a ticket was issued for this phone
    newPassword: async (w, leaves) => {
      expect(w.ui.path()).toBe('/login/newpass');
      const line: Record<string, string> = {
        lengthInvalid: '密码须为6到15位',
        mismatch: '两次输入的密码不一致',
        refused: '重置凭证无效或已过期，请重新验证',
        unreachable: '网络无法连接',
      };
      expect(alertText(), 'the line under the form').toBe(line[leaves[0]!.split('.').at(-1)!] ?? null);
      if (!w.startedWithTicket) expect(last(w, 'verifyCode')?.answer, 'the phone was proved').toBe(200);
      expect([field('password').value, field('again').value]).toEqual([w.typed.password, w.typed.again]);
      expect(await storedHash(w), 'the stored password is as it was').toBe(w.hashAtStart);
    },
    'newPassword.editing': () => {
      expect(button(/确认修改/).disabled).toBe(false);
    },
    'newPassword.editing.clean': () => {
      expect(alertText()).toBe(null);
    },
    'newPassword.editing.lengthInvalid': (w) => {
      expect(alertText()).toBe('密码须为6到15位');
      expect(w.tapped.has('save'), 'a tap on save was answered').toBe(true);
      const n = w.typed.password.trim().length;
      expect(n < 6 || n > 15).toBe(true);
    },
    'newPassword.editing.mismatch': (w) => {
      expect(alertText()).toBe('两次输入的密码不一致');
      expect(w.tapped.has('save'), 'a tap on save was answered').toBe(true);
      expect(w.typed.password.trim()).not.toBe(w.typed.again.trim());
    },
    'newPassword.editing.refused': (w) => {
      expect(last(w, 'resetPassword')?.answer).toBe(10012);
      expect(alertText()).toBe('重置凭证无效或已过期，请重新验证');
      expect(button(/重新验证手机号/)).toBeTruthy();
    },
    'newPassword.editing.unreachable': (w) => {
      expect(last(w, 'resetPassword')?.answer).toBe('network');
      expect(alertText()).toBe('网络无法连接');
    },
    'newPassword.saving': (w) => {
      expect(button(/提交中/).disabled).toBe(true);
      expect(w.held.get('resetPassword')?.map((r) => r.body)).toEqual([{ password: w.typed.password.trim() }]);
    },
    done: async (w) => {
      await w.ui.waitForPath('/login');
      expect(screen.getByRole('status').textContent).toBe('密码已重置，请用新密码登录');
      expect(await stores(w, w.typed.password.trim()), 'the server holds the new password').toBe(true);
    },
  },

  seen: () => ({ line: alertText(), button: document.querySelector('[data-testid="send-code"]')?.textContent ?? null }),
  effects: {
    // get-code texts a code to a valid phone (once: then it counts down), and never verifies
    'reset.code.send': (w, _e, before) => {
      expect(w.sent.slice(before).map((r) => r.invoke)).not.toContain('verifyCode');
      const texted = codeAsks(w, before);
      if (!isValidPhone(w.typed.phone.trim())) {
        expect(texted, 'no code for an invalid phone').toEqual([]);
        expect(alertText()).toBe('请输入正确的手机号');
        return;
      }
      if (codeAsks(w, w.stepOneFrom).length > texted.length) expect(texted, 'counting down: nothing sent').toEqual([]);
      else expect(texted.map((r) => [r.path, r.answer])).toEqual([[`/api/oauth/valid-code?phone=${w.typed.phone.trim()}`, 200]]);
      expect(sendButton().textContent).toMatch(/^\d+ 秒后重发$/);
    },
    // next verifies a valid phone with a code typed, and never texts a code
    'reset.verify': (w, _e, before) => {
      const asked = w.sent.slice(before).map((r) => r.invoke);
      expect(codeAsks(w, before)).toEqual([]);
      expect(asked.includes('verifyCode')).toBe(isValidPhone(w.typed.phone.trim()) && w.typed.code.trim() !== '');
      if (!isValidPhone(w.typed.phone.trim())) expect(alertText()).toBe('请输入正确的手机号');
      else if (w.typed.code.trim() === '') expect(alertText()).toBe('请输入验证码');
    },
    // save sends a new password of 6 to 15 characters typed twice the same
    'reset.save': (w, _e, before) => {
      const n = w.typed.password.trim().length;
      const valid = n >= 6 && n <= 15 && w.typed.password.trim() === w.typed.again.trim();
      expect(w.sent.slice(before).some((r) => r.invoke === 'resetPassword')).toBe(valid);
    },
    // typing the phone starts afresh: nothing said under the form; the code button as it was
    'reset.phone.change': (_w, _e, _before, seen) => {
      expect(alertText(), 'a new phone clears what was said').toBe(null);
      const b = (seen as { button: string | null }).button;
      if (b && !b.includes('秒后重发'))
        expect(document.querySelector('[data-testid="send-code"]')?.textContent).toBe(b === '发送中…' ? b : '获取验证码');
      else expect(document.querySelector('[data-testid="send-code"]')?.textContent ?? null).toBe(b);
    },
    // typing the code leaves the code button as it was (but for the code the member asked for first, see the event)
    'reset.code.change': (w, _e, before, seen) => {
      const button = document.querySelector('[data-testid="send-code"]')?.textContent ?? null;
      if (codeAsks(w, before).length > 0) expect(button).toMatch(/^\d+ 秒后重发$/);
      else expect(button).toBe((seen as { button: string | null }).button);
    },
  },
});
