// @vitest-environment jsdom
import { userEvent } from '@testing-library/user-event';
import { desc, eq } from 'drizzle-orm';
import { expect } from 'vitest';
import { bindingNewTeacherMachine, type NewTeacherContext } from '../../machines/binding-new-teacher.machine';
import { isValidPhone } from '../../src/domain/validation';
import { loadConfig } from '../../src/server/config';
import { teacherRequests } from '../../src/server/db/schema/index';
import { sendCode } from '../server/auth/support';
import { freshPhone, JPEG, openIdTicket } from '../server/binding/support';
import { screen, startScreenHarness } from './support/screen-harness';
import { defineScreenPaths, type World } from './support/screen-paths';

/**
 * /bindPage/newteacherBind (spec §5, §8 binding; decision 028): a teacher not yet in the system fills
 * the form (name, phone with its SMS code, club, styles, photo) and sends it; the open id of the
 * silent login is the openId cookie. Each state is checked on the screen and the server: what is said,
 * what was sent, whether a request is stored for the open id.
 */
// every path texts a code from the same test network: no per-network cap here
const sms = { ...loadConfig({ APP_MODE: 'demo' }).sms, perIpPerHour: 100_000 };
const h = await startScreenHarness({ seed: true, config: { sms } });
const s = h.server;

/** typed as the phone: the driver types the path's fresh phone */
const PHONE = '13699990000';
/** typed as the code: the driver types the code the phone was texted */
const REAL_CODE = '111111';
const WRONG_CODE = '000000';
const NO_OPENID = 60001;
const WRONG = 10003;

interface Teacher {
  /** the member event the path did last (a tap or typing) */
  last?: string;
  phone: string;
  openId: string;
  ticket: string;
  typed: { name: string; phone: string; code: string };
}
type W = World<Teacher>;

const input = (name: string) => document.querySelector<HTMLInputElement>(`input[name="${name}"]`)!;
const alertText = () => screen.queryByRole('alert')?.textContent ?? null;
const sendButton = () => screen.getByRole('button', { name: /提交申请|提交中/ }) as HTMLButtonElement;
const sent = (w: W) => w.sent.filter((r) => r.invoke === 'sendRequest');
const stored = async (w: W) =>
  (
    await s.deps.db.select().from(teacherRequests).where(eq(teacherRequests.openId, w.openId)).orderBy(desc(teacherRequests.id)).limit(1)
  )[0];

function form(w: W, feedback: string | null) {
  expect(w.ui.path()).toBe('/bindPage/newteacherBind');
  expect(alertText()).toBe(feedback);
  expect(sendButton().textContent).toBe('提交申请');
  expect(sendButton().disabled).toBe(false);
  expect(w.held.get('sendRequest') ?? []).toEqual([]);
}

async function type(w: W, name: string, value: string) {
  await w.ui.user.clear(input(name));
  if (value) await w.ui.user.type(input(name), value);
}

defineScreenPaths<Teacher>(h, {
  machine: bindingNewTeacherMachine,
  screen: '/bindPage/newteacherBind',
  cases: {
    'request.name.change': [{ value: '新来的老师' }],
    'request.phone.change': [{ value: '123' }, { value: PHONE }],
    'request.code.change': [{ value: WRONG_CODE }, { value: REAL_CODE }],
    'request.club.change': [{ clubId: 1 }],
    'request.style.toggle': [{ style: 'hatha' }],
    'request.photo.change': [{ photo: 'jpeg' }],
    'xstate.done.actor.sendRequest': [
      {
        output: { code: 200, status: true },
        answer: {
          server: true,
          async arrange(w: W) {
            h.jar.setClientCookie('openId', w.ticket);
          },
        },
      },
      {
        output: { code: WRONG, status: false },
        // a newer code was texted meanwhile: the one typed is no longer the phone's latest
        answer: {
          server: true,
          async arrange(w: W) {
            s.clock.advance(61_000);
            await sendCode(s, w.phone);
          },
        },
      },
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
    'xstate.error.actor.sendRequest': [{ error: new Error('network') }],
  },
  offer: (e, snap) => {
    const c = snap.context as NewTeacherContext;
    const filled = c.photo !== '';
    switch (e.type) {
      case 'request.name.change':
        return c.name === '';
      case 'request.phone.change':
        // typed once after the name; a wrong phone is corrected at the end
        return c.name !== '' && (c.phone === '' || (c.phone === '123' && e.value === PHONE && filled));
      case 'request.code.send':
        return c.phone !== '' && c.smsCode === '';
      case 'request.code.change':
        return c.phone !== '' && c.smsCode === '' && (e.value === REAL_CODE ? c.phone === PHONE : c.phone === '123');
      case 'request.club.change':
        return c.smsCode !== '' && c.clubId === null;
      case 'request.style.toggle':
        return c.clubId !== null && c.styles.length === 0;
      case 'request.photo.change':
        return c.styles.length > 0 && !filled;
      case 'request.submit':
        return c.name === '' || filled;
      case 'xstate.done.actor.sendRequest':
        // a code made stale (10003) stays stale: nothing here retypes it
        return c.phone === PHONE && ((e.output as { code: number }).code !== 200 || (c.smsCode === REAL_CODE && c.errorCode !== WRONG));
      default:
        return true;
    }
  },
  project: (c: NewTeacherContext) => ({
    name: c.name,
    phone: c.phone,
    code: c.smsCode,
    club: c.clubId,
    styles: c.styles.length,
    photo: c.photo !== '',
    missing: c.missing ?? null,
    error: c.errorCode ?? null,
  }),
  requests: { sendRequest: { method: 'POST', path: /^\/api\/bind\/new-teacher$/ } },

  async start(hh) {
    const me = await openIdTicket(s);
    hh.jar.setClientCookie('openId', me.ticket);
    const ui = await hh.open('/bindPage/newteacherBind');
    return { ui, phone: freshPhone(), openId: me.openId, ticket: me.ticket, typed: { name: '', phone: '', code: '' } };
  },

  events: {
    'request.name.change': async (w, e) => {
      w.last = e.type;
      w.typed.name = e.value as string;
      await type(w, 'name', w.typed.name);
    },
    'request.phone.change': async (w, e) => {
      w.last = e.type;
      w.typed.phone = e.value === PHONE ? w.phone : (e.value as string);
      await type(w, 'phone', w.typed.phone);
    },
    'request.code.send': async (w) => {
      w.last = 'request.code.send';
      await w.ui.user.click(screen.getByTestId('send-code'));
    },
    'request.code.change': async (w, e) => {
      w.last = e.type;
      if (e.value === REAL_CODE) {
        // the code the phone was texted (by the screen's "get code", or now)
        const dev = (await s.call('GET', `/api/dev/sms/${w.phone}`)).body.data?.code as string | undefined;
        w.typed.code = dev ?? (await sendCode(s, w.phone));
      } else w.typed.code = e.value as string;
      await type(w, 'smsCode', w.typed.code);
    },
    'request.club.change': async (w) => {
      w.last = 'request.club.change';
      await w.ui.user.selectOptions(document.querySelector<HTMLSelectElement>('select[name="clubId"]')!, '1');
    },
    'request.style.toggle': async (w) => {
      w.last = 'request.style.toggle';
      await w.ui.user.click(document.querySelector<HTMLInputElement>('input[name="styles"][value="hatha"]')!);
    },
    'request.photo.change': async (w) => {
      w.last = 'request.photo.change';
      await userEvent.setup({ applyAccept: false, delay: null }).upload(input('photo'), new File([JPEG], 'me.jpg', { type: 'image/jpeg' }));
      await w.ui.waitForPath('/bindPage/newteacherBind');
      for (let i = 0; i < 50 && !document.querySelector('[data-photo-chosen]'); i++) await new Promise((r) => setTimeout(r, 10));
    },
    'request.submit': async (w) => {
      w.last = 'request.submit';
      await w.ui.user.click(sendButton());
    },
  },

  states: {
    active: () => {},
    'active.editing': async (w) => {
      expect([input('name').value, input('phone').value, input('smsCode').value]).toEqual([w.typed.name, w.typed.phone, w.typed.code]);
      expect(await stored(w), 'nothing stored for this open id').toBe(undefined);
    },
    'active.editing.clean': (w) => {
      form(w, null);
      // a tap on send never leaves the form clean; "get code" does only with a correct phone
      expect(w.last).not.toBe('request.submit');
      if (w.last === 'request.code.send') expect(isValidPhone(w.typed.phone), `get code with "${w.typed.phone}"`).toBe(true);
    },
    'active.editing.incomplete': (w) => {
      form(w, '请填写完整：姓名');
      expect(w.typed.name).toBe('');
      expect(sent(w)).toEqual([]);
    },
    'active.editing.phoneInvalid': (w) => {
      form(w, '请输入正确的手机号');
      expect(w.typed.phone).toBe('123');
    },
    'active.editing.noOpenId': (w) => {
      expect(sent(w).at(-1)?.answer).toBe(NO_OPENID);
      expect(document.querySelector('[data-no-openid] a')?.getAttribute('href')).toBe(
        '/api/oauth/wechat/authorize?from=%2FbindPage%2FnewteacherBind',
      );
    },
    'active.editing.refused': (w) => {
      expect(sent(w).at(-1)?.answer).toBe(WRONG);
      form(w, '验证码错误或已过期');
    },
    'active.editing.unreachable': (w) => {
      expect(sent(w).at(-1)?.answer).toBe('network');
      form(w, '网络无法连接');
    },
    'active.sending': (w) => {
      expect(w.last, 'sent by the send button').toBe('request.submit');
      expect(isValidPhone(w.typed.phone), 'a correct phone').toBe(true);
      expect(sendButton().textContent).toBe('提交中…');
      expect(sendButton().disabled).toBe(true);
      const held = (w.held.get('sendRequest') ?? []).map((r) => r.body as Record<string, unknown>);
      expect(held).toHaveLength(1);
      expect(held[0]).toMatchObject({ name: '新来的老师', phone: w.typed.phone, smsCode: w.typed.code, clubId: 1, styles: ['hatha'] });
      expect(String(held[0]!.photo)).toMatch(/^data:image\/jpeg;base64,/);
    },
    sent: async (w) => {
      await w.ui.waitForPath('/bindPage/newteacherConfirm');
      expect((await stored(w))?.state, 'the request waits for the studio').toBe('pending');
      expect(screen.getByRole('status').textContent).toBe('等待门店确认');
    },
  },
});
