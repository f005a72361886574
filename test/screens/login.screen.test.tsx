// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { registerMember } from '../../src/server/services/staff/members';
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

  it('the two documents the tick accepts open over the form, which keeps what was typed', async () => {
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

  it('the password tab says where a desk member finds the first password, never how one is formed; a login with it must set a new one first, with no later, then goes on (decision 054)', async () => {
    const { db, clock, config } = h.server.deps;
    const { initialPassword } = await registerMember(db, clock, config.passwordScryptN, { phone: '13912345678', name: '前台会员' });
    const ui = await h.open(`/login/${encodeURIComponent('/takecourse')}`);
    expect(document.querySelector('[data-initial-password-hint]')).toBeNull();
    await ui.user.click(screen.getByRole('button', { name: '密码登录' }));
    const hint = document.querySelector('[data-initial-password-hint]')?.textContent;
    expect(hint).toBe('门店前台开通的会员，请使用前台交给您的初始密码登录，首次登录须设置新密码。');
    expect(hint).not.toMatch(/手机号后|\d 位/);
    await ui.user.type(screen.getByPlaceholderText('请输入手机号'), '13912345678');
    await ui.user.type(screen.getByPlaceholderText('请输入密码'), initialPassword);
    await ui.user.click(screen.getByText('我已阅读并同意'));
    await ui.user.click(screen.getByRole('button', { name: '登录' }));

    await ui.waitForPath(`/mine/changepassword?first=1&then=${encodeURIComponent('/takecourse')}`);
    expect(screen.getByRole('note').textContent).toContain('初始密码');
    expect(screen.queryByRole('link', { name: '以后再说' })).toBeNull();
    expect(screen.queryAllByRole('link').map((a) => a.getAttribute('href'))).not.toContain('/takecourse');
    // until the new password is set, the session may do nothing else
    const token = h.jar.get('token')!;
    expect((await h.server.call('GET', '/api/customers/classes/schedule/booked/count', { token })).body.code).toBe(10016);
    await ui.user.type(screen.getByPlaceholderText('请输入旧密码'), initialPassword);
    await ui.user.type(screen.getByPlaceholderText('6到15位'), 'my-own-pass');
    await ui.user.type(screen.getByPlaceholderText('请再次输入新密码'), 'my-own-pass');
    await ui.user.click(screen.getByRole('button', { name: '确认修改' }));
    await ui.waitForPath('/takecourse');
    expect((await h.server.call('GET', '/api/customers/classes/schedule/booked/count', { token })).body.code).toBe(200);
  });

  it('a password formed from the phone is refused as expired, and the screen offers setting a new one by SMS code (decision 054)', async () => {
    const ui = await h.open('/login');
    await ui.user.click(screen.getByRole('button', { name: '密码登录' }));
    await ui.user.type(screen.getByPlaceholderText('请输入手机号'), '13800000001');
    await ui.user.type(screen.getByPlaceholderText('请输入密码'), '000001');
    await ui.user.click(screen.getByText('我已阅读并同意'));
    await ui.user.click(screen.getByRole('button', { name: '登录' }));
    expect((await screen.findByRole('alert', {}, { timeout: 10_000 })).textContent).toBe(
      '由手机号组成的密码已失效，请用验证码登录并设置新密码',
    );
    await ui.user.click(screen.getByRole('link', { name: '用验证码设置新密码' }));
    await ui.waitForPath('/login/forgetpassword');
    expect(h.jar.get('token')).toBeUndefined();
  });

  it('a member with their own password goes straight where they were going, and the change screen opened alone shows no notice', async () => {
    await h.logIn('13800000002', 'yoga1234');
    await h.open('/mine/changepassword');
    expect(document.querySelector('[data-initial-password-notice]')).toBeNull();
  });
});
