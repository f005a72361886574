// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { screen, startScreenHarness } from './support/screen-harness';

// the screen harness itself: the real login screen, route guard, session and server, in-process
const h = await startScreenHarness({ seed: true });

describe('screen harness: log in on the real screen against the real server', () => {
  it('a visitor sent to log in from a member page logs in by password and comes back to it', async () => {
    const ui = await h.open('/takecourse');
    expect(ui.path()).toBe(`/login/${encodeURIComponent('/takecourse')}`);

    await ui.user.click(screen.getByRole('button', { name: '密码登录' }));
    await ui.user.type(screen.getByPlaceholderText('请输入手机号'), '13800000001');
    await ui.user.type(screen.getByPlaceholderText('请输入密码'), 'yoga1234');
    await ui.user.click(screen.getByText('我已阅读并同意'));
    await ui.user.click(screen.getByRole('button', { name: '登录' }));

    await ui.waitForPath('/takecourse');
    // the server set the session cookies, and the app now sends the token
    expect(h.jar.get('token')).toMatch(/.+/);
    expect(h.jar.get('username')).toBe('13800000001');
  });

  it('a wrong password is refused on the screen and sets no session', async () => {
    const ui = await h.open('/login');
    await ui.user.click(screen.getByRole('button', { name: '密码登录' }));
    await ui.user.type(screen.getByPlaceholderText('请输入手机号'), '13800000001');
    await ui.user.type(screen.getByPlaceholderText('请输入密码'), 'wrong-pass-1');
    await ui.user.click(screen.getByText('我已阅读并同意'));
    await ui.user.click(screen.getByRole('button', { name: '登录' }));

    // the password check is deliberately slow (scrypt): on a loaded machine it takes over findBy's default second
    expect((await screen.findByRole('alert', {}, { timeout: 10_000 })).textContent).toBe('手机号或密码错误');
    expect(ui.path()).toBe('/login');
    expect(h.jar.get('token')).toBeUndefined();
  });

  it('the two documents the tick accepts open over the form, which keeps what was typed (issue 16)', async () => {
    const ui = await h.open('/login');
    await ui.user.type(screen.getByPlaceholderText('请输入手机号'), '13800000001');
    for (const [link, title, clause] of [
      ['《会员服务协议》', '会员服务协议', /一个手机号对应一个会员/],
      ['《隐私政策》', '隐私政策', /不会向第三方提供/],
    ] as const) {
      await ui.user.click(screen.getByRole('button', { name: link }));
      expect(screen.getByRole('heading', { name: title })).toBeTruthy();
      expect(screen.getByText(clause)).toBeTruthy();
      await ui.user.click(screen.getByRole('button', { name: '返回' }));
      expect(screen.queryByRole('heading', { name: title })).toBeNull();
    }
    expect(ui.path()).toBe('/login');
    expect((screen.getByPlaceholderText('请输入手机号') as HTMLInputElement).value).toBe('13800000001');
    // opening a document is not agreeing to it: the refusal names the same two documents
    await ui.user.click(screen.getByRole('button', { name: '获取验证码' }));
    await ui.user.type(screen.getByPlaceholderText('请输入验证码'), '123456');
    await ui.user.click(screen.getByRole('button', { name: '登录' }));
    expect((await screen.findByRole('alert')).textContent).toBe('请先阅读并同意《会员服务协议》和《隐私政策》');
  });

  it('a member logged in through the API opens a member page directly, in English', async () => {
    await h.logIn('13800000002', 'yoga1234');
    const ui = await h.open('/takecourse', { locale: 'en' });
    expect(ui.path()).toBe('/takecourse');
    // the member's calendar, in English, on the server's month (the injected clock), and it navigates
    await ui.user.click(screen.getByRole('link', { name: 'Next month' }));
    await ui.waitForPath('/takecourse?month=2026-12');
    expect(screen.getByRole('link', { name: 'Previous month' }).getAttribute('href')).toBe('/takecourse?month=2026-11');
  });
});
