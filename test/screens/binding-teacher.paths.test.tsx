// @vitest-environment jsdom
import { eq } from 'drizzle-orm';
import { expect } from 'vitest';
import { bindingTeacherMachine, type TeacherBindContext } from '../../machines/binding-teacher.machine';
import { isBindCodeShape, normalizeBindCode } from '../../src/domain/binding';
import { bindCodes, openIdBindings } from '../../src/server/db/schema/index';
import { account, issue, newTeacher, openIdTicket, teacherAccountId } from '../server/binding/support';
import { screen, startScreenHarness } from './support/screen-harness';
import { defineScreenPaths, type World } from './support/screen-paths';

/**
 * /bindPage/teacherBind (spec §5, §8 binding; decision 028): the teacher types the code staff issued
 * and binds; the open id of the silent login is the openId cookie. Each state is checked on the
 * screen and the server: what is said, what was sent, whether the open id is bound.
 */
const h = await startScreenHarness({ seed: true });
const s = h.server;
const staff = await account(s, 'staff');

/** typed as a code of the right shape; the driver types the path's real code instead */
const THE_CODE = 'RRRRRRRR';
const NO_OPENID = 60001;
const INVALID = 60003;

interface Teacher {
  teacherId: number;
  codeId: number;
  code: string;
  openId: string;
  ticket: string;
  typed: string;
}
type W = World<Teacher>;

const field = () => document.querySelector<HTMLInputElement>('input[name="bindCode"]')!;
const alertText = () => screen.queryByRole('alert')?.textContent ?? null;
const bindButton = () => screen.getByRole('button', { name: /^绑定$|绑定中/ }) as HTMLButtonElement;
const bindRequests = (w: W) => w.sent.filter((r) => r.invoke === 'bindTeacher');
const boundTo = async (w: W) =>
  (await s.deps.db.select().from(openIdBindings).where(eq(openIdBindings.openId, w.openId)))[0]?.accountId ?? null;

function form(w: W, feedback: string | null) {
  expect(w.ui.path()).toBe('/bindPage/teacherBind');
  expect(alertText()).toBe(feedback);
  expect(bindButton().textContent).toBe('绑定');
  expect(bindButton().disabled).toBe(false);
  expect(w.held.get('bindTeacher') ?? []).toEqual([]);
}

defineScreenPaths<Teacher>(h, {
  machine: bindingTeacherMachine,
  screen: '/bindPage/teacherBind',
  cases: {
    'bind.code.change': [{ value: 'ABC' }, { value: THE_CODE }],
    'xstate.done.actor.bindTeacher': [
      {
        output: { code: 200, status: true },
        answer: {
          server: true,
          // the silent login's ticket is here (again, after a path that lost it)
          async arrange(w: W) {
            h.jar.setClientCookie('openId', w.ticket);
          },
        },
      },
      {
        output: { code: INVALID, status: false },
        // staff revoked the code meanwhile
        answer: {
          server: true,
          async arrange(w: W) {
            await s.deps.db.update(bindCodes).set({ revokedAt: s.clock.now() }).where(eq(bindCodes.id, w.codeId));
          },
        },
      },
      {
        output: { code: NO_OPENID, status: false },
        // this browser has no open id (the ticket's cookie is gone)
        answer: {
          server: true,
          async arrange() {
            h.jar.setClientCookie('openId', '');
          },
        },
      },
    ],
    'xstate.error.actor.bindTeacher': [{ error: new Error('network') }],
  },
  offer: (e, snap) => {
    const c = snap.context as TeacherBindContext;
    if (e.type === 'bind.code.change') return c.code === '' || (c.code === 'ABC' && e.value === THE_CODE);
    // a revoked code stays revoked
    if (e.type === 'xstate.done.actor.bindTeacher') return !(c.errorCode === INVALID && (e.output as { code: number }).code === 200);
    return true;
  },
  project: (c: TeacherBindContext) => ({ code: c.code, errorCode: c.errorCode ?? null }),
  requests: { bindTeacher: { method: 'POST', path: /^\/api\/bind\/teacher$/ } },

  async start(hh) {
    const teacherId = await newTeacher(s, '林老师');
    const { id, code } = await issue(s, staff.token, teacherId);
    const me = await openIdTicket(s);
    hh.jar.setClientCookie('openId', me.ticket);
    const ui = await hh.open('/bindPage/teacherBind');
    return { ui, teacherId, codeId: id, code, openId: me.openId, ticket: me.ticket, typed: '' };
  },

  events: {
    'bind.code.change': async (w, e) => {
      w.typed = e.value === THE_CODE ? w.code : (e.value as string);
      await w.ui.user.clear(field());
      await w.ui.user.type(field(), w.typed);
    },
    'bind.submit': async (w) => {
      await w.ui.user.click(bindButton());
    },
  },

  states: {
    editing: async (w) => {
      expect(field().value).toBe(w.typed);
      expect(await boundTo(w), 'not bound yet').toBe(null);
    },
    'editing.clean': (w) => form(w, null),
    'editing.codeMissing': (w) => {
      form(w, '请填写绑定码');
      expect(w.typed).toBe('');
    },
    'editing.codeMalformed': (w) => {
      form(w, '绑定码无效，请核对后再试');
      expect(isBindCodeShape(normalizeBindCode(w.typed)), `"${w.typed}" cannot be a bind code`).toBe(false);
      expect(
        bindRequests(w).filter((r) => (r.body as { code: string }).code === 'ABC'),
        'a code that cannot be one is not sent',
      ).toEqual([]);
    },
    'editing.noOpenId': (w) => {
      expect(bindRequests(w).at(-1)?.answer).toBe(NO_OPENID);
      const box = document.querySelector('[data-no-openid]');
      expect(box?.textContent).toContain('没有取得微信身份');
      expect(box?.querySelector('a')?.getAttribute('href')).toBe('/api/oauth/wechat/authorize?from=%2FbindPage%2FteacherBind');
      expect(bindButton().disabled).toBe(false);
    },
    'editing.refused': (w) => {
      expect(bindRequests(w).at(-1)?.answer).toBe(INVALID);
      form(w, '绑定码无效，请核对后再试');
    },
    'editing.unreachable': (w) => {
      expect(bindRequests(w).at(-1)?.answer).toBe('network');
      form(w, '网络无法连接');
    },
    binding: (w) => {
      expect(bindButton().textContent).toBe('绑定中…');
      expect(bindButton().disabled).toBe(true);
      expect((w.held.get('bindTeacher') ?? []).map((r) => r.body)).toEqual([{ code: w.code }]);
    },
    done: async (w) => {
      // the bind result is the teacher's home (decision 097), not a dead end
      await w.ui.waitForPath('/bindPage/teacherHome');
      expect(await boundTo(w), 'the open id is bound to the teacher').toBe(await teacherAccountId(s, w.teacherId));
      expect((await screen.findByRole('heading', { level: 1 })).textContent).toBe('林老师老师，您好');
      expect(screen.getByRole('link', { name: '出示签到二维码' }).getAttribute('href')).toBe('/bindPage/teacherImg');
      expect(h.jar.get('token'), 'logged in').toBeTruthy();
    },
  },
});
