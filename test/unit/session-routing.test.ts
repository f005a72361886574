import { describe, expect, it, vi } from 'vitest';
import { loginPath, requireMember, returnPath, sessionFrom } from '../../src/app/session/request-session';
import { createExpiryHandler } from '../../src/app/session/session-expiry';
import { silentLoginRedirect, SILENT_LOGIN_COOKIE } from '../../src/server/http/silent-login';

describe('login paths (DESIGN.md §5: the from path URL-encoded as one segment)', () => {
  it('encodes path and search as one segment, and never loops back to /login', () => {
    expect(loginPath('/mine/changepassword?x=1')).toBe('/login/%2Fmine%2Fchangepassword%3Fx%3D1');
    expect(loginPath('/')).toBe('/login');
    expect(loginPath('/login/%2Fmine')).toBe('/login');
  });

  it('returns only to same-origin paths outside /login', () => {
    expect(returnPath('/mine')).toBe('/mine');
    expect(returnPath('%2Fmine%2Fchangepassword')).toBe('/mine/changepassword');
    expect(returnPath(undefined)).toBe('/');
    expect(returnPath('//evil.example')).toBe('/');
    expect(returnPath('https://evil.example')).toBe('/');
    expect(returnPath('/login')).toBe('/');
    expect(returnPath('%E0%A4%A')).toBe('/');
  });
});

describe('requireMember (loader guard of requiresLogin routes)', () => {
  const request = new Request('http://x/mine/changepassword?tab=1');
  it('lets a member through', () => {
    expect(() => requireMember({ session: { token: 't' }, cookies: {} }, request)).not.toThrow();
  });
  it('sends a visitor to /login/<from>', () => {
    try {
      requireMember({ session: {}, cookies: {} }, request);
      expect.fail('should redirect');
    } catch (r) {
      expect((r as Response).status).toBe(302);
      expect((r as Response).headers.get('Location')).toBe('/login/%2Fmine%2Fchangepassword%3Ftab%3D1');
    }
  });
  it('reads the session from the request cookies when the context has none', () => {
    expect(sessionFrom({ cookies: { token: 'abc', username: '13800000001' } }).user?.username).toBe('13800000001');
  });
});

describe('login expiry (spec §7)', () => {
  function setup(here = '/mine', loggedIn = () => false) {
    const fx = { toast: vi.fn(), expire: vi.fn(), here: () => here, navigate: vi.fn(), loggedIn };
    return { fx, handle: createExpiryHandler(() => fx, loginPath, 2000) };
  }
  it('a 401 in the body: toast, session.expired, then /login/<from> at once', () => {
    const { fx, handle } = setup();
    handle('body');
    expect(fx.toast).toHaveBeenCalledOnce();
    expect(fx.expire).toHaveBeenCalledOnce();
    expect(fx.navigate).toHaveBeenCalledWith('/login/%2Fmine');
  });
  it('an HTTP 401 waits 2 s before going to login, and several 401s act once', () => {
    vi.useFakeTimers();
    const { fx, handle } = setup();
    handle('http');
    handle('http');
    expect(fx.toast).toHaveBeenCalledOnce();
    vi.advanceTimersByTime(1999);
    expect(fx.navigate).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(fx.navigate).toHaveBeenCalledOnce();
    vi.useRealTimers();
  });
  it('a member who logged in again during the 2 s stays where they are', () => {
    vi.useFakeTimers();
    let session = false;
    const { fx, handle } = setup('/mine', () => session);
    handle('http');
    session = true;
    vi.advanceTimersByTime(2000);
    expect(fx.navigate).not.toHaveBeenCalled();
    // the next expiry is handled again
    session = false;
    handle('http');
    vi.advanceTimersByTime(2000);
    expect(fx.navigate).toHaveBeenCalledWith('/login/%2Fmine');
    vi.useRealTimers();
  });
  it('a 401 that arrives before the app is mounted waits for it instead of being lost', () => {
    vi.useFakeTimers();
    const fx = { toast: vi.fn(), expire: vi.fn(), here: () => '/mine', navigate: vi.fn(), loggedIn: () => false };
    let mounted = false;
    const handle = createExpiryHandler(() => (mounted ? fx : undefined), loginPath, 2000, 100);
    handle('http');
    vi.advanceTimersByTime(300);
    expect(fx.toast).not.toHaveBeenCalled();
    mounted = true;
    vi.advanceTimersByTime(100);
    expect(fx.toast).toHaveBeenCalledOnce();
    vi.advanceTimersByTime(2000);
    expect(fx.navigate).toHaveBeenCalledWith('/login/%2Fmine');
    vi.useRealTimers();
  });
});

describe('silent open-id login (once per browser session, in the messaging app only; decided by the server)', () => {
  const ua = 'Mozilla/5.0 (iPhone) MicroMessenger/8.0.50';
  it('goes to the authorize URL with the current path, unless tried in this browser session', () => {
    expect(silentLoginRedirect({ userAgent: ua, cookies: {}, path: '/mine?a=1' })).toBe('/api/oauth/wechat/authorize?from=%2Fmine%3Fa%3D1');
    expect(silentLoginRedirect({ userAgent: ua, cookies: { [SILENT_LOGIN_COOKIE]: '1' }, path: '/mine' })).toBeUndefined();
  });
  it('stays with a session, an open-id ticket, or outside the messaging app', () => {
    expect(silentLoginRedirect({ userAgent: ua, cookies: { token: 't' }, path: '/' })).toBeUndefined();
    expect(silentLoginRedirect({ userAgent: ua, cookies: { openId: 'ticket' }, path: '/' })).toBeUndefined();
    expect(silentLoginRedirect({ userAgent: 'Mozilla/5.0 Chrome/130', cookies: {}, path: '/' })).toBeUndefined();
  });
});
