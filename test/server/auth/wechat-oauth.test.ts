import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { accounts, openIdBindings, sessions } from '../../../src/server/db/schema/index';
import { STANDIN_APP_ID, STANDIN_APP_SECRET } from '../../../src/server/gateways/oauth/wechat-oauth-standin';
import { startTestServer } from '../support/harness';
import { codeLogin, cookies, cookieValue, MINUTE, rows, setBanned } from './support';

describe('messaging-app OAuth: our endpoints against the local stand-in', async () => {
  const s = await startTestServer();
  const origin = s.deps.config.publicUrl;
  const get = async (url: string, headers: Record<string, string> = {}) => {
    const res = await s.app.request(url.startsWith('http') ? url : `${origin}${url}`, { headers });
    return { status: res.status, location: res.headers.get('location') ?? '', headers: res.headers, text: await res.text() };
  };

  /** authorize -> stand-in authorize (as `as`) -> our callback; returns each hop. */
  async function roundTrip(from: string, as?: string, standInCookie = '') {
    const start = await get(`/api/oauth/wechat/authorize?from=${encodeURIComponent(from)}`);
    expect(start.status).toBe(302);
    const authorizeUrl = new URL(start.location);
    if (as) authorizeUrl.searchParams.set('as', as);
    const provider = await get(authorizeUrl.toString(), standInCookie ? { cookie: standInCookie } : {});
    expect(provider.status).toBe(302);
    const back = await get(provider.location);
    return { start, provider, back, cookies: cookies(back.headers) };
  }

  it('sends the browser to the provider with the silent scope, our callback and a state', async () => {
    const r = await get('/api/oauth/wechat/authorize?from=/vipcard');
    expect(r.status).toBe(302);
    const url = new URL(r.location);
    expect(`${url.origin}${url.pathname}`).toBe(`${origin}/api/dev/wechat/connect/oauth2/authorize`);
    expect(Object.fromEntries(url.searchParams)).toMatchObject({
      appid: STANDIN_APP_ID,
      redirect_uri: `${origin}/api/oauth/wechat/callback`,
      response_type: 'code',
      scope: 'snsapi_base',
    });
    expect(url.searchParams.get('state')).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(url.hash).toBe('#wechat_redirect');
    expect([...url.searchParams.keys()]).toEqual(['appid', 'redirect_uri', 'response_type', 'scope', 'state']);
  });

  it('an unbound open id: a ticket in the openId cookie, back to `from` as a visitor; the next phone login binds it', async () => {
    const trip = await roundTrip('/vipcard?tab=2', 'o_alice');
    expect(trip.provider.location).toMatch(new RegExp(`^${origin}/api/oauth/wechat/callback\\?code=[^&]+&state=`));
    expect(trip.back.status).toBe(302);
    expect(trip.back.location).toBe('/vipcard?tab=2');
    expect(Object.keys(trip.cookies)).toEqual(['openId']);
    const ticket = cookieValue(trip.cookies.openId)!;
    expect(ticket).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(ticket).not.toContain('o_alice');

    const openIdLogin = await s.call('POST', '/api/oauth/login', { body: { loginType: 'openid', openid: ticket } });
    expect(openIdLogin.status).toBe(400);
    expect(openIdLogin.body.code).toBe(10004);

    const phone = await codeLogin(s, '13200000001', { openid: ticket, weixinPicture: 'https://wx.example/a.png', nicName: ' Alice ' });
    expect(phone.body.data).toMatchObject({
      wxAvatar: 'https://wx.example/a.png',
      wxNickname: 'Alice',
      weixinPicture: 'https://wx.example/a.png',
      nicName: 'Alice',
      wxBound: true,
    });
    expect(JSON.stringify(phone.body)).not.toContain('o_alice');
    expect(cookieValue(cookies(phone.headers).wxNicName)).toBe('Alice');
    expect(cookieValue(cookies(phone.headers).openId)).toBe('');
    const [binding] = await s.deps.db.select().from(openIdBindings).where(eq(openIdBindings.openId, 'o_alice'));
    expect(binding!.accountId).toBe(phone.body.data.id);

    // the ticket was spent by that login
    const reuse = await s.call('POST', '/api/oauth/login', { body: { loginType: 'openid', openid: ticket } });
    expect(reuse.body.code).toBe(10004);
  });

  it('a bound open id: a new session, the session cookies, and back to `from`', async () => {
    const before = await rows(s, sessions);
    const trip = await roundTrip('/mine', 'o_alice');
    expect(trip.back.location).toBe('/mine');
    expect(await rows(s, sessions)).toBe(before + 1);
    const token = cookieValue(trip.cookies.token)!;
    expect(cookieValue(trip.cookies.username)).toBe('13200000001');
    expect(cookieValue(trip.cookies.openId)).toBe('');
    expect(cookieValue(trip.cookies.wxAvatar)).toBe('https://wx.example/a.png');
    const me = await s.call('GET', '/api/customers/me', { token });
    expect(me.body.data.phone).toBe('13200000001');
  });

  it('open-id login with a ticket whose open id got bound meanwhile logs in, once', async () => {
    const t1 = cookieValue((await roundTrip('/', 'o_bob')).cookies.openId)!;
    const t2 = cookieValue((await roundTrip('/', 'o_bob')).cookies.openId)!;
    s.clock.advance(2 * MINUTE);
    await codeLogin(s, '13200000002', { openid: t1 });
    const r = await s.call('POST', '/api/oauth/login', { body: { loginType: 'openid', openid: t2 } });
    expect(r.status).toBe(200);
    expect(r.body.data).toMatchObject({ username: '13200000002', wxBound: true });
    expect(r.body.token).toBeTruthy();
    expect((await s.call('POST', '/api/oauth/login', { body: { loginType: 'openid', openid: t2 } })).body.code).toBe(10004);
  });

  it('an open-id ticket lives 10 minutes: a later phone login still works but binds nothing', async () => {
    const ticket = cookieValue((await roundTrip('/', 'o_carol')).cookies.openId)!;
    s.clock.advance(10 * MINUTE);
    const bindings = await rows(s, openIdBindings);
    const r = await codeLogin(s, '13200000003', { openid: ticket });
    expect(r.body.data.wxBound).toBe(false);
    expect(await rows(s, openIdBindings)).toBe(bindings);
  });

  it('open-id login with an unknown, empty or raw open id is 10004', async () => {
    for (const openid of ['o_alice', '', 'nonsense']) {
      const r = await s.call('POST', '/api/oauth/login', { body: { loginType: 'openid', openid } });
      expect(r.body).toMatchObject({ code: 10004, status: false });
    }
  });

  it('a banned account bound to the open id browses as a visitor after the round trip, and open-id login is 10006', async () => {
    const ticket = cookieValue((await roundTrip('/', 'o_dave')).cookies.openId)!;
    s.clock.advance(2 * MINUTE);
    const { body } = await codeLogin(s, '13200000004', { openid: ticket });
    await setBanned(s, body.data.id);
    const trip = await roundTrip('/club', 'o_dave');
    expect(trip.back.location).toBe('/club');
    expect(trip.cookies).toEqual({});
    // a ticket taken while o_erin was unbound, then o_erin bound to the banned account
    const late = cookieValue((await roundTrip('/', 'o_erin')).cookies.openId)!;
    await s.deps.db.insert(openIdBindings).values({ openId: 'o_erin', accountId: body.data.id, createdAt: s.clock.now() });
    const r = await s.call('POST', '/api/oauth/login', { body: { loginType: 'openid', openid: late } });
    expect(r.status).toBe(403);
    expect(r.body.code).toBe(10006);
  });

  describe('`from` is a same-origin path only (no open redirect)', () => {
    for (const [from, expected] of [
      ['https://evil.example/x', '/'],
      ['//evil.example/x', '/'],
      ['/\\evil.example', '/'],
      ['javascript:alert(1)', '/'],
      ['', '/'],
      ['/mine/coupons/all?x=1#top', '/mine/coupons/all?x=1#top'],
    ] as const) {
      it(`"${from}" -> "${expected}"`, async () => {
        const trip = await roundTrip(from, 'o_frank');
        expect(trip.back.location).toBe(expected);
      });
    }
  });

  describe('the state', () => {
    it('is single use', async () => {
      const trip = await roundTrip('/', 'o_gina');
      const again = await get(trip.provider.location);
      expect(again.status).toBe(400);
      expect(JSON.parse(again.text)).toMatchObject({ code: 70003, field: 'state' });
    });

    it('expires after 10 minutes, and an unknown or missing state is refused', async () => {
      const start = await get('/api/oauth/wechat/authorize?from=/x');
      const provider = await get(`${start.location.replace('#wechat_redirect', '')}&as=o_gina`);
      s.clock.advance(10 * MINUTE);
      expect((await get(provider.location)).status).toBe(400);
      expect((await get('/api/oauth/wechat/callback?code=abc&state=made-up')).status).toBe(400);
      expect((await get('/api/oauth/wechat/callback?code=abc')).status).toBe(400);
    });
  });

  it('a code the provider refuses leaves the member a visitor, back at `from`', async () => {
    const start = await get('/api/oauth/wechat/authorize?from=/tutor');
    const state = new URL(start.location).searchParams.get('state')!;
    const r = await get(`/api/oauth/wechat/callback?code=forged&state=${state}`);
    expect(r.status).toBe(302);
    expect(r.location).toBe('/tutor');
    expect(r.headers.getSetCookie()).toEqual([]);
    expect(s.log.lines.some((l) => l.msg === 'oauth exchange refused' && String(l.fields?.error).includes('40029'))).toBe(true);
  });

  describe('the stand-in', () => {
    const authorizeAt = (params: Record<string, string>) =>
      `/api/dev/wechat/connect/oauth2/authorize?${new URLSearchParams(params).toString()}`;
    const good = { appid: STANDIN_APP_ID, redirect_uri: `${origin}/cb`, response_type: 'code', scope: 'snsapi_base', state: 's1' };
    const exchange = (params: Record<string, string>) =>
      s.call('GET', `/api/dev/wechat/sns/oauth2/access_token?${new URLSearchParams(params).toString()}`);
    const codeFrom = (location: string) => new URL(location).searchParams.get('code')!;

    it('answers the open id once per code (40163 after), and WeChat errors for a bad appid, secret, grant or code', async () => {
      const r = await get(authorizeAt({ ...good, as: 'o_hank' }));
      expect(new URL(r.location).searchParams.get('state')).toBe('s1');
      const code = codeFrom(r.location);
      const args = { appid: STANDIN_APP_ID, secret: STANDIN_APP_SECRET, code, grant_type: 'authorization_code' };
      expect((await exchange({ ...args, appid: 'wx-other' })).body).toEqual({ errcode: 40013, errmsg: 'invalid appid' });
      expect((await exchange({ ...args, secret: 'nope' })).body).toEqual({ errcode: 40125, errmsg: 'invalid appsecret' });
      expect((await exchange({ ...args, grant_type: 'password' })).body.errcode).toBe(40002);
      expect((await exchange({ ...args, code: 'unknown' })).body.errcode).toBe(40029);
      const ok = await exchange(args);
      expect(ok.body).toMatchObject({ openid: 'o_hank', scope: 'snsapi_base', expires_in: 7200 });
      expect((await exchange(args)).body).toEqual({ errcode: 40163, errmsg: 'code been used' });
    });

    it('codes expire after 5 minutes', async () => {
      const code = codeFrom((await get(authorizeAt({ ...good, as: 'o_hank' }))).location);
      s.clock.advance(5 * MINUTE);
      expect(
        (await exchange({ appid: STANDIN_APP_ID, secret: STANDIN_APP_SECRET, code, grant_type: 'authorization_code' })).body.errcode,
      ).toBe(40029);
    });

    it('refuses to redirect to another origin, a wrong appid or scope', async () => {
      expect((await get(authorizeAt({ ...good, redirect_uri: 'https://evil.example/cb' }))).status).toBe(400);
      expect((await get(authorizeAt({ ...good, appid: 'wx-other' }))).status).toBe(400);
      expect((await get(authorizeAt({ ...good, scope: 'snsapi_login' }))).status).toBe(400);
    });

    it('lets a browser choose its identity with GET /api/dev/wechat/identity?as= (a cookie), and clear it', async () => {
      const chosen = await s.call('GET', '/api/dev/wechat/identity?as=o_ivy');
      expect(chosen.body.data).toEqual({ openId: 'o_ivy', nickname: null });
      const cookie = chosen.headers.getSetCookie()[0]!.split(';')[0]!;
      expect(cookie).toBe('wxStandinAs=o_ivy');
      const code = codeFrom((await get(authorizeAt(good), { cookie })).location);
      const r = await exchange({ appid: STANDIN_APP_ID, secret: STANDIN_APP_SECRET, code, grant_type: 'authorization_code' });
      expect(r.body.openid).toBe('o_ivy');
      const cleared = await s.call('GET', '/api/dev/wechat/identity?as=');
      expect(cleared.headers.getSetCookie()[0]).toMatch(/^wxStandinAs=; Max-Age=0/);
    });

    it('without a choice, gives each browser a stable open id of its own', async () => {
      const first = await get(authorizeAt(good));
      const device = first.headers.getSetCookie()[0]!.split(';')[0]!;
      expect(device).toMatch(/^wxStandinDevice=/);
      const second = await get(authorizeAt(good), { cookie: device });
      const args = { appid: STANDIN_APP_ID, secret: STANDIN_APP_SECRET, grant_type: 'authorization_code' };
      const a = (await exchange({ ...args, code: codeFrom(first.location) })).body.openid;
      const b = (await exchange({ ...args, code: codeFrom(second.location) })).body.openid;
      expect(a).toMatch(/^o_standin_/);
      expect(b).toBe(a);
      const stranger = await get(authorizeAt(good));
      expect((await exchange({ ...args, code: codeFrom(stranger.location) })).body.openid).not.toBe(a);
    });
  });

  it('never stores or answers a raw open id in an account row', async () => {
    const all = await s.deps.db.select().from(accounts);
    expect(JSON.stringify(all)).not.toContain('o_alice');
  });
});
