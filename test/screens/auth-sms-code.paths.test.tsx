// @vitest-environment jsdom
import { expect } from 'vitest';
import { authSmsCodeMachine, type SmsCodeContext } from '../../machines/auth-sms-code.machine';
import { loadConfig } from '../../src/server/config';
import { memberWithPassword } from '../server/auth/support';
import { screen, startScreenHarness } from './support/screen-harness';
import { defineScreenPaths, sentBy, type World } from './support/screen-paths';

/**
 * The SMS code sender (spec §5, §7; machines/auth-sms-code.machine.ts), the child machine of every form
 * that texts a code: walked on the login screen (the reset screen invokes the same child). The
 * member has typed a valid phone; "get code" asks the server to text a code, the button then counts
 * down the seconds the server answered (`resendAfter`: the test server's cooldown is 3 s, so a
 * countdown is three steps), and a refusal or a network failure is said under the form. A countdown's
 * second sends nothing: a code goes only when the member asks.
 */
const COOLDOWN_S = 3;
const base = loadConfig({ APP_MODE: 'demo' });
const h = await startScreenHarness({ config: { sms: { ...base.sms, perIpPerHour: 1_000_000, resendCooldownS: COOLDOWN_S } } });

/** the walk's stand-in; the screen gets the member's real phone */
const A_PHONE = '13912340000';
/** what is said under the form about a code: a refusal within the cooldown names the seconds left */
const TOO_SOON = new RegExp(`^验证码已发送，请[1-${COOLDOWN_S}]秒后再试$`);
const said = () => TOO_SOON.test(alertText() ?? '') || alertText() === '网络无法连接';

interface Member {
  phone: string;
}
type W = World<Member>;

let phones = 0;
const sendButton = () => screen.getByTestId('send-code') as HTMLButtonElement;
const alertText = () => screen.queryByRole('alert')?.textContent ?? null;
const field = (name: string) => document.querySelector<HTMLInputElement>(`input[name="${name}"]`)!;
const last = (w: W) => sentBy(w, 'sendCode').at(-1);
const ok = (data: unknown) => ({ code: 200, status: true, data });
const refused = (code: number) => ({ code, status: false, data: null });

async function latestCode(phone: string): Promise<string | undefined> {
  return (await h.server.call('GET', `/api/dev/sms/${phone}`)).body?.data?.code as string | undefined;
}

defineScreenPaths<Member>(h, {
  machine: authSmsCodeMachine,
  screen: '/login (the code button)',
  cases: {
    'sms.send': [{ phone: A_PHONE }],
    'xstate.done.actor.sendCode': [
      { output: ok({ expiresIn: 300, resendAfter: COOLDOWN_S }), answer: { server: true } },
      {
        output: refused(10007),
        // a code was asked for this phone on another device a moment ago
        answer: {
          server: true,
          arrange: (w: W) =>
            h.server
              .call('GET', `/api/oauth/valid-code?phone=${w.phone}`, { headers: { 'x-forwarded-for': '203.0.113.9' } })
              .then(() => {}),
        },
      },
    ],
    'xstate.error.actor.sendCode': [{ error: new Error('network') }],
  },
  offer: (e, s) => {
    const c = s.context as SmsCodeContext;
    const output = (e as { output?: { code: number } }).output;
    // the server's answer comes before the member does anything else
    if (s.matches('sending')) return e.type.includes('.actor.sendCode');
    // a code refused for being too soon stays refused until time passes
    if (e.type === 'xstate.done.actor.sendCode') return output!.code !== 200 || c.sendErrorCode !== 10007;
    return true;
  },
  project: (c: SmsCodeContext) => ({ phone: c.phone, remaining: c.remaining, sendErrorCode: c.sendErrorCode ?? null }),
  requests: {
    sendCode: { method: 'GET', path: /^\/api\/oauth\/valid-code$/ },
  },

  async start(hh) {
    const phone = `1351234${String(phones++).padStart(4, '0')}`;
    await memberWithPassword(hh.server, phone, 'yoga1234');
    const ui = await hh.open('/login');
    await ui.user.type(field('phone'), phone);
    return { ui, phone };
  },

  events: {
    'sms.send': (w) => w.ui.user.click(sendButton()),
    // the member types their phone again
    'sms.phone.change': async (w) => {
      await w.ui.user.clear(field('phone'));
      await w.ui.user.type(field('phone'), w.phone);
    },
  },

  states: {
    ready: () => {
      expect([sendButton().textContent, sendButton().disabled]).toEqual(['获取验证码', false]);
    },
    'ready.idle': (w) => {
      expect(w.held.get('sendCode') ?? []).toEqual([]);
      expect(said(), 'nothing said about the code').toBe(false);
    },
    'ready.refused': (w) => {
      expect(last(w)?.answer).toBe(10007);
      // the seconds the server said are left (its cooldown here is 3 s), not a fixed 60
      expect(alertText()).toMatch(TOO_SOON);
    },
    'ready.unreachable': (w) => {
      expect(last(w)?.answer).toBe('network');
      expect(alertText()).toBe('网络无法连接');
    },
    sending: (w) => {
      expect([sendButton().textContent, sendButton().disabled]).toEqual(['发送中…', true]);
      expect(w.held.get('sendCode')?.map((r) => r.path)).toEqual([`/api/oauth/valid-code?phone=${w.phone}`]);
    },
    // the seconds the server asked to wait, counted down from its answer; the code is on its way
    coolingDown: async (w) => {
      const sent = last(w)!;
      expect(sent.answer).toBe(200);
      const left = COOLDOWN_S - Math.floor((w.time() - sent.at!) / 1000);
      expect([sendButton().textContent, sendButton().disabled]).toEqual([`${left} 秒后重发`, true]);
      expect(said(), 'nothing said against the code sent').toBe(false);
      expect(await latestCode(w.phone), 'the server texted a code').toMatch(/^\d{6}$/);
    },
  },

  effects: {
    // a tap asks for one code, for the phone typed
    'sms.send': (w, _e, before) => {
      expect(sentBy(w, 'sendCode', before).map((r) => r.path)).toEqual([`/api/oauth/valid-code?phone=${w.phone}`]);
    },
    // typing the phone sends nothing and takes back what was said about the last code
    'sms.phone.change': (w, _e, before) => {
      expect(sentBy(w, 'sendCode', before)).toEqual([]);
      expect(said()).toBe(false);
    },
    // a countdown's second sends nothing and says nothing: a code goes only when the member asks
    'xstate.after.1000.authSmsCode.coolingDown': (w, _e, before, seen) => {
      expect(w.sent.slice(before)).toEqual([]);
      expect(alertText()).toBe(seen);
    },
  },
  seen: () => alertText(),
});
