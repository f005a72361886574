// @vitest-environment jsdom
import { expect } from 'vitest';
import { authSessionMachine, type SessionContext } from '../../machines/auth-session.machine';
import { screen, startScreenHarness } from './support/screen-harness';
import { defineScreenPaths, type World } from './support/screen-paths';

/**
 * The session (spec §2 footer badge, §7 expiry, DESIGN.md §5), seen on /mine: a visitor is offered
 * to log in; a member sees their name and the logout button, and the Book tab's badge shows how many
 * upcoming classes the server says they booked; logout revokes the token on the server; a 401 makes
 * the member a visitor at once.
 */
const h = await startScreenHarness({ seed: true });

// a seeded member with upcoming bookings, so the badge has something to show
const PHONE = '13800000002';
const PASSWORD = 'yoga1234';
const NAME = '刘子涵';

interface Member {
  /** the token of the session this path logged in with, if any */
  token?: string;
  /** the member confirmed "log out" since they last logged in */
  confirmedLogout: boolean;
}
type W = World<Member>;

const countRequests = (w: W, since = 0) => w.sent.slice(since).filter((r) => r.invoke === 'fetchBookedCount');
const logoutButton = () => screen.queryByRole('button', { name: /退出登录|正在退出/ }) as HTMLButtonElement | null;
const badge = () => document.querySelector('[data-tab="book"]')?.textContent?.replace(/\D/g, '') || null;

async function serverCount(token: string): Promise<number> {
  const r = await h.server.call('GET', '/api/customers/classes/schedule/booked/count', { token });
  return r.body.data as number;
}

async function tokenWorks(token: string | undefined): Promise<boolean> {
  if (!token) return false;
  const r = await h.server.call('GET', '/api/customers/me', { token });
  return r.body.code === 200;
}

/** logs in on the real login screen and comes back to /mine */
async function logInOnScreen(w: W) {
  await w.ui.router.navigate(`/login/${encodeURIComponent('/mine')}`);
  await w.ui.waitForPath(`/login/${encodeURIComponent('/mine')}`);
  await w.ui.user.click(screen.getByRole('button', { name: '密码登录' }));
  await w.ui.user.type(screen.getByPlaceholderText('请输入手机号'), PHONE);
  await w.ui.user.type(screen.getByPlaceholderText('请输入密码'), PASSWORD);
  await w.ui.user.click(screen.getByText('我已阅读并同意'));
  await w.ui.user.click(screen.getByRole('button', { name: '登录' }));
  await w.ui.waitForPath('/mine');
  w.token = h.jar.get('token');
  w.confirmedLogout = false;
}

let navigations = 0;

defineScreenPaths<Member>(h, {
  machine: authSessionMachine,
  screen: '/mine',
  inputs: { 'a visitor': {}, 'a member with the cookies of a session': { token: 'from-cookies' } },
  cases: {
    'xstate.done.actor.fetchBookedCount': [{ output: 'the server’s count' }],
    'xstate.error.actor.fetchBookedCount': [{ error: new Error('network') }],
    'xstate.done.actor.logout': [{ output: undefined }],
    'xstate.error.actor.logout': [{ error: new Error('network') }],
  },
  project: (c: SessionContext) => ({ member: Boolean(c.token) }),
  requests: {
    fetchBookedCount: { method: 'GET', path: /^\/api\/customers\/classes\/schedule\/booked\/count$/ },
    logout: { method: 'POST', path: /^\/api\/oauth\/logout$/ },
  },

  async start(hh, input) {
    let token: string | undefined;
    if (input !== 'a visitor') {
      await hh.logIn(PHONE, PASSWORD);
      token = hh.jar.get('token');
    }
    const ui = await hh.open('/mine');
    return { ui, token, confirmedLogout: false };
  },

  events: {
    'session.login': (w) => logInOnScreen(w),
    'session.logout': async (w) => {
      await w.ui.user.click(logoutButton()!);
      await w.ui.user.click(await screen.findByRole('button', { name: '确定' }));
      w.confirmedLogout = true;
    },
    // the session ends on the server (revoked elsewhere), and the next answer is a 401
    'session.expired': async (w) => {
      await h.server.call('POST', '/api/oauth/logout', { token: w.token });
      await w.release('fetchBookedCount', 'forward');
    },
    // any navigation refreshes the count
    'booked.refresh': async (w) => {
      await w.ui.router.navigate(`/mine?n=${navigations++}`);
    },
  },

  offer: (e, s) => {
    // a 401 can only come back on a request: the count's, while it is being fetched
    if (e.type === 'session.expired') return s.matches({ member: 'refreshing' });
    return true;
  },

  states: {
    visitor: async (w) => {
      expect(w.ui.path()).toMatch(/^\/mine/);
      expect(screen.getByText('登录 / 注册').closest('a')?.getAttribute('href'), 'offered to log in').toBe(
        `/login/${encodeURIComponent('/mine')}`,
      );
      expect(logoutButton()).toBe(null);
      expect(badge(), 'a visitor has no badge').toBe(null);
      expect(h.jar.get('token'), 'the app holds no token').toBeUndefined();
    },
    member: async (w) => {
      expect(w.ui.path()).toMatch(/^\/mine/);
      expect(screen.getByTestId('member-name').textContent).toBe(NAME);
      expect(h.jar.get('token')).toBe(w.token);
      expect(await tokenWorks(w.token), 'the session is alive on the server').toBe(true);
    },
    'member.refreshing': (w) => {
      expect(logoutButton()?.textContent).toBe('退出登录');
      const latest = countRequests(w).at(-1);
      expect(latest, 'the count was asked for').toBeDefined();
      expect(latest?.answer, 'the latest count request is still on its way').toBeUndefined();
    },
    'member.idle': async (w) => {
      expect(logoutButton()?.textContent).toBe('退出登录');
      expect(countRequests(w).at(-1)?.answer, 'the latest count request was answered').toBeDefined();
      // the badge shows the server's count once one answer came back; until then nothing
      const counted = countRequests(w).some((r) => r.answer === 200);
      expect(badge()).toBe(counted ? String(await serverCount(w.token!)) : null);
    },
    loggingOut: (w) => {
      expect(w.confirmedLogout, 'only a member who confirmed is logged out').toBe(true);
      expect(logoutButton()?.textContent).toBe('正在退出…');
      expect(logoutButton()?.disabled).toBe(true);
      expect(w.held.get('logout')?.length, 'the logout request is on its way').toBe(1);
    },
  },

  effects: {
    // every navigation asks the server again; an answer asks nothing more
    'booked.refresh': (w, _e, before) => {
      expect(countRequests(w, before).length, 'the navigation fetched the count again').toBe(1);
    },
    'xstate.done.actor.fetchBookedCount': (w, _e, before) => {
      expect(countRequests(w, before), 'no new count request after an answer').toEqual([]);
    },
    'xstate.error.actor.fetchBookedCount': (w, _e, before) => {
      expect(countRequests(w, before), 'no new count request after a failure').toEqual([]);
    },
    // logging out revokes the token on the server when it can be reached
    'xstate.done.actor.logout': async (w) => {
      expect(await tokenWorks(w.token), 'the server revoked the token').toBe(false);
    },
  },

  equivalent: {
    'loggingOut invoke logout: done and error swapped':
      'both outcomes make the member a visitor with the same actions (the spec: whatever the server answers)',
  },
});
