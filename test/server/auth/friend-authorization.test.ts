import { describe, expect, it } from 'vitest';
import { createApp } from '../../../src/server/app';
import { openIdBindings, openIdTickets, sessions } from '../../../src/server/db/schema/index';
import { wechatOAuth } from '../../../src/server/gateways/oauth/wechat-oauth';
import type { FetchLike } from '../../../src/server/gateways/sms';
import { STANDIN_APP_ID, STANDIN_APP_SECRET, standInFetch } from '../../../src/server/gateways/oauth/wechat-oauth-standin';
import { FRIEND_TICKET_COOKIE } from '../../../src/server/http/session-cookies';
import { friendPayer } from '../../../src/server/services/auth/openid-tickets';
import { startTestServer } from '../support/harness';
import { codeLogin, cookies, cookieValue, HOUR, MINUTE, rows } from './support';

/**
 * Spec §6, "Friend payer: needs messaging-app authorization": the friend who pays a member's
 * order authorizes with the user-info scope, so the member sees who paid. Decision 003, "Friend
 * authorization". Our real endpoints and adapter against the local stand-in.
 */
describe('the friend payer authorizes with the user-info scope', async () => {
  const s = await startTestServer();
  const origin = s.deps.config.publicUrl;
  const get = async (url: string, headers: Record<string, string> = {}, app = s.app) => {
    const res = await app.request(url.startsWith('http') ? url : `${origin}${url}`, { headers });
    return { status: res.status, location: res.headers.get('location') ?? '', headers: res.headers, text: await res.text() };
  };

  /** The stand-in's identity choice (open id and nickname) as a Cookie header for its authorize page. */
  async function chooseIdentity(as: string, nickname?: string): Promise<string> {
    const q = new URLSearchParams({ as, ...(nickname === undefined ? {} : { nickname }) });
    const r = await s.call('GET', `/api/dev/wechat/identity?${q.toString()}`);
    return r.headers
      .getSetCookie()
      .map((line) => line.split(';')[0]!)
      .join('; ');
  }

  /** our authorize (`query`) -> the stand-in's authorize (as `as`, or the chosen identity) -> our callback. */
  async function roundTrip(query: string, opts: { as?: string; standInCookie?: string; app?: typeof s.app } = {}) {
    const start = await get(`/api/oauth/wechat/authorize?${query}`, {}, opts.app);
    expect(start.status).toBe(302);
    const authorizeUrl = new URL(start.location);
    if (opts.as) authorizeUrl.searchParams.set('as', opts.as);
    const provider = await get(authorizeUrl.toString(), opts.standInCookie ? { cookie: opts.standInCookie } : {});
    expect(provider.status).toBe(302);
    const back = await get(provider.location, {}, opts.app);
    return { start, provider, back, cookies: cookies(back.headers) };
  }
  const friendTrip = (from: string, opts: { as?: string; standInCookie?: string; app?: typeof s.app } = {}) =>
    roundTrip(`from=${encodeURIComponent(from)}&scope=userinfo`, opts);
  const friendTicket = async (as: string) => cookieValue((await friendTrip('/payfriend', { as })).cookies[FRIEND_TICKET_COOKIE])!;

  describe('GET /api/oauth/wechat/authorize', () => {
    it('scope=userinfo sends the browser to the provider with snsapi_userinfo, our callback and a state', async () => {
      const r = await get('/api/oauth/wechat/authorize?from=/payfriend&scope=userinfo');
      expect(r.status).toBe(302);
      const url = new URL(r.location);
      expect(`${url.origin}${url.pathname}`).toBe(`${origin}/api/dev/wechat/connect/oauth2/authorize`);
      expect(Object.fromEntries(url.searchParams)).toMatchObject({
        appid: STANDIN_APP_ID,
        redirect_uri: `${origin}/api/oauth/wechat/callback`,
        response_type: 'code',
        scope: 'snsapi_userinfo',
      });
      expect(url.searchParams.get('state')).toMatch(/^[A-Za-z0-9_-]{22}$/);
      expect(url.hash).toBe('#wechat_redirect');
    });

    it('scope absent or base: the silent snsapi_base, as before; any other scope is refused naming the field', async () => {
      for (const q of ['from=/x', 'from=/x&scope=base']) {
        const r = await get(`/api/oauth/wechat/authorize?${q}`);
        expect(new URL(r.location).searchParams.get('scope')).toBe('snsapi_base');
      }
      const bad = await get('/api/oauth/wechat/authorize?from=/x&scope=snsapi_login');
      expect(bad.status).toBe(400);
      expect(JSON.parse(bad.text)).toMatchObject({ field: 'scope' });
    });
  });

  describe('the callback of a user-info authorization', () => {
    it('sets only the wxFriend cookie (HttpOnly, path /, 10 minutes, SameSite Lax) and goes back to `from`', async () => {
      const bindings = await rows(s, openIdBindings);
      const before = await rows(s, sessions);
      const trip = await friendTrip('/payfriend?t=abc', { standInCookie: await chooseIdentity('o_friend_mei', '小美') });
      expect(trip.provider.location).toMatch(new RegExp(`^${origin}/api/oauth/wechat/callback\\?code=[^&]+&state=`));
      expect(trip.back.status).toBe(302);
      expect(trip.back.location).toBe('/payfriend?t=abc');
      expect(FRIEND_TICKET_COOKIE).toBe('wxFriend');
      expect(Object.keys(trip.cookies)).toEqual(['wxFriend']);
      const line = trip.cookies.wxFriend!;
      const attributes = line.split('; ').slice(1).sort();
      expect(attributes).toEqual(['HttpOnly', 'Max-Age=600', 'Path=/', 'SameSite=Lax']);
      const ticket = cookieValue(line)!;
      expect(ticket).toMatch(/^[A-Za-z0-9_-]{22}$/);
      expect(ticket).not.toContain('o_friend_mei');
      // the open id of an unbound friend is neither bound nor given a login ticket, and nobody logs in
      expect(await rows(s, openIdBindings)).toBe(bindings);
      expect(await rows(s, sessions)).toBe(before);

      expect(await friendPayer(s.deps.db, s.clock, ticket)).toEqual({ openId: 'o_friend_mei', nickname: '小美', avatar: null });
    });

    it('a friend who chose no nickname is named as the provider names them: 微信用户 and the last 4 characters', async () => {
      expect(await friendPayer(s.deps.db, s.clock, await friendTicket('o_friend_ab12'))).toEqual({
        openId: 'o_friend_ab12',
        nickname: '微信用户ab12',
        avatar: null,
      });
      // a nickname chosen for another identity is not this one's
      const cookie = await chooseIdentity('o_friend_other', 'Other');
      const trip = await friendTrip('/payfriend', { as: 'o_friend_cd34', standInCookie: cookie });
      expect(await friendPayer(s.deps.db, s.clock, cookieValue(trip.cookies.wxFriend))).toMatchObject({
        openId: 'o_friend_cd34',
        nickname: '微信用户cd34',
      });
    });

    it('a bound open id going through it is NOT logged in, and its binding stays as it is', async () => {
      const base = await roundTrip('from=/', { as: 'o_member_lin' });
      const member = await codeLogin(s, '13300000001', { openid: cookieValue(base.cookies.openId) });
      expect(member.body.data.wxBound).toBe(true);
      const before = await rows(s, sessions);
      const bindings = await s.deps.db.select().from(openIdBindings);

      const trip = await friendTrip('/payfriend?t=x', { standInCookie: await chooseIdentity('o_member_lin', 'Lin') });
      expect(trip.back.location).toBe('/payfriend?t=x');
      expect(Object.keys(trip.cookies)).toEqual(['wxFriend']);
      expect(await rows(s, sessions)).toBe(before);
      expect(await s.deps.db.select().from(openIdBindings)).toEqual(bindings);
      expect(await friendPayer(s.deps.db, s.clock, cookieValue(trip.cookies.wxFriend))).toEqual({
        openId: 'o_member_lin',
        nickname: 'Lin',
        avatar: null,
      });
    });

    it('a code the provider refuses: back to `from` with nothing set', async () => {
      const start = await get('/api/oauth/wechat/authorize?from=/payfriend&scope=userinfo');
      const state = new URL(start.location).searchParams.get('state')!;
      const tickets = await rows(s, openIdTickets);
      const r = await get(`/api/oauth/wechat/callback?code=forged&state=${state}`);
      expect(r.status).toBe(302);
      expect(r.location).toBe('/payfriend');
      expect(r.headers.getSetCookie()).toEqual([]);
      expect(await rows(s, openIdTickets)).toBe(tickets);
    });

    describe('a profile the provider refuses or cannot give: back to `from` with nothing set', () => {
      /** Our server with the real adapter whose provider is the stand-in, except that /sns/userinfo answers `answer`. */
      function serverWhoseProfileFails(answer: () => Promise<Response>) {
        const standIn = standInFetch(s.deps.config.oauth.apiBase, s.deps);
        const provider: FetchLike = (url, init) => (url.includes('/sns/userinfo?') ? answer() : standIn(url, init));
        const { authorizeBase, apiBase } = s.deps.config.oauth;
        const oauth = wechatOAuth({ appId: STANDIN_APP_ID, appSecret: STANDIN_APP_SECRET, authorizeBase, apiBase }, { fetch: provider });
        return createApp({ ...s.deps, gateways: { ...s.deps.gateways, oauth } });
      }

      for (const [name, answer, logged] of [
        ['48001 api unauthorized', async () => Response.json({ errcode: 48001, errmsg: 'api unauthorized' }), '48001'],
        ['an unreachable provider', async () => Promise.reject(new Error('connect ETIMEDOUT')), 'ETIMEDOUT'],
      ] as const) {
        it(name, async () => {
          const tickets = await rows(s, openIdTickets);
          const trip = await friendTrip('/payfriend?t=y', { as: 'o_friend_nope', app: serverWhoseProfileFails(answer) });
          expect(trip.back.status).toBe(302);
          expect(trip.back.location).toBe('/payfriend?t=y');
          expect(trip.back.headers.getSetCookie()).toEqual([]);
          expect(await rows(s, openIdTickets)).toBe(tickets);
          expect(s.log.lines.some((l) => l.msg === 'oauth userinfo refused' && String(l.fields?.error).includes(logged))).toBe(true);
        });
      }
    });
  });

  describe('friendPayer: a live user-info ticket', () => {
    it('is not spent by use: read again within its 10 minutes; gone at 10 minutes', async () => {
      const ticket = await friendTicket('o_friend_time');
      const payer = { openId: 'o_friend_time', nickname: '微信用户time', avatar: null };
      expect(await friendPayer(s.deps.db, s.clock, ticket)).toEqual(payer);
      s.clock.advance(10 * MINUTE - 1);
      expect(await friendPayer(s.deps.db, s.clock, ticket)).toEqual(payer);
      expect(await s.deps.db.transaction((tx) => friendPayer(tx, s.clock, ` ${ticket} `))).toEqual(payer);
      s.clock.advance(1);
      expect(await friendPayer(s.deps.db, s.clock, ticket)).toBeUndefined();
    });

    it('is undefined for a base ticket, an unknown or empty ticket, or none', async () => {
      const base = await roundTrip('from=/', { as: 'o_plain_visitor' });
      const baseTicket = cookieValue(base.cookies.openId)!;
      expect(baseTicket).toMatch(/^[A-Za-z0-9_-]{22}$/);
      for (const t of [baseTicket, 'o_plain_visitor', 'made-up-ticket', '', '  ', undefined]) {
        expect(await friendPayer(s.deps.db, s.clock, t), String(t)).toBeUndefined();
      }
    });

    it("a friend's ticket neither logs in by open id (10004) nor binds at a phone login", async () => {
      // o_member_lin is bound to 13300000001: were the friend's ticket taken, this would log in as them
      const bound = await friendTicket('o_member_lin');
      const r = await s.call('POST', '/api/oauth/login', { body: { loginType: 'openid', openid: bound } });
      expect(r.status).toBe(400);
      expect(r.body).toMatchObject({ code: 10004, status: false });
      const bindings = await rows(s, openIdBindings);
      const unbound = await friendTicket('o_friend_free');
      const phone = await codeLogin(s, '13300000002', { openid: unbound });
      expect(phone.body.data.wxBound).toBe(false);
      expect(await rows(s, openIdBindings)).toBe(bindings);
      // neither use spent it
      expect(await friendPayer(s.deps.db, s.clock, bound)).toMatchObject({ openId: 'o_member_lin' });
      expect(await friendPayer(s.deps.db, s.clock, unbound)).toMatchObject({ openId: 'o_friend_free' });
    });
  });

  describe('the stand-in', () => {
    const authorizeAt = (params: Record<string, string>, cookie = '') =>
      get(`/api/dev/wechat/connect/oauth2/authorize?${new URLSearchParams(params).toString()}`, cookie ? { cookie } : {});
    const good = { appid: STANDIN_APP_ID, redirect_uri: `${origin}/cb`, response_type: 'code', state: 's1' };
    const exchange = async (location: string) => {
      const code = new URL(location).searchParams.get('code')!;
      const q = new URLSearchParams({ appid: STANDIN_APP_ID, secret: STANDIN_APP_SECRET, code, grant_type: 'authorization_code' });
      return (await s.call('GET', `/api/dev/wechat/sns/oauth2/access_token?${q.toString()}`)).body;
    };
    const userinfo = async (params: Record<string, string>) =>
      (await s.call('GET', `/api/dev/wechat/sns/userinfo?${new URLSearchParams(params).toString()}`)).body;
    const grantFor = async (as: string, scope: string, cookie = '') =>
      exchange((await authorizeAt({ ...good, scope, ...(as ? { as } : {}) }, cookie)).location);

    it("answers each code's own scope; /sns/userinfo gives the profile in WeChat's shape", async () => {
      expect(await grantFor('o_hana', 'snsapi_base')).toMatchObject({ openid: 'o_hana', scope: 'snsapi_base', expires_in: 7200 });
      const grant = await grantFor('', 'snsapi_userinfo', await chooseIdentity('o_hana', ' 花  '));
      expect(grant).toMatchObject({ openid: 'o_hana', scope: 'snsapi_userinfo', expires_in: 7200 });
      expect(await userinfo({ access_token: grant.access_token, openid: 'o_hana', lang: 'zh_CN' })).toEqual({
        openid: 'o_hana',
        nickname: '花',
        sex: 0,
        province: '',
        city: '',
        country: '',
        headimgurl: '',
        privilege: [],
      });
    });

    it('refuses as WeChat does: 48001 a base token, 40001 a tampered or expired token, 40003 another open id, 41001/41009 missing', async () => {
      const base = await grantFor('o_iris', 'snsapi_base');
      expect(await userinfo({ access_token: base.access_token, openid: 'o_iris' })).toEqual({ errcode: 48001, errmsg: 'api unauthorized' });

      const grant = await grantFor('o_iris', 'snsapi_userinfo');
      const token = grant.access_token as string;
      const [note, signature] = token.split('.') as [string, string];
      const flip = (v: string, i: number) => `${v.slice(0, i)}${v[i] === 'A' ? 'B' : 'A'}${v.slice(i + 1)}`;
      const invalid = { errcode: 40001, errmsg: 'invalid credential, access_token is invalid or not latest' };
      // the note rewritten for another open id, under the original signature
      const forgedNote = Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(note, 'base64url').toString()), o: 'o_other' })).toString(
        'base64url',
      );
      for (const tampered of [
        `${flip(note, 3)}.${signature}`,
        `${note}.${flip(signature, 5)}`,
        `${forgedNote}.${signature}`,
        `${note}.${signature}.x`,
        note,
        `.${signature}`,
        `${note}.`,
        'nonsense',
      ]) {
        expect(await userinfo({ access_token: tampered, openid: 'o_iris' }), tampered).toEqual(invalid);
      }
      expect(await userinfo({ access_token: token, openid: 'o_other' })).toEqual({ errcode: 40003, errmsg: 'invalid openid' });
      expect(await userinfo({ openid: 'o_iris' })).toEqual({ errcode: 41001, errmsg: 'access_token missing' });
      expect(await userinfo({ access_token: token })).toEqual({ errcode: 41009, errmsg: 'missing openid' });
      expect(await userinfo({ access_token: token, openid: 'o_iris' })).toMatchObject({ openid: 'o_iris', nickname: '微信用户iris' });
      s.clock.advance(2 * HOUR - 1);
      expect(await userinfo({ access_token: token, openid: 'o_iris' })).toMatchObject({ openid: 'o_iris' });
      s.clock.advance(1);
      expect(await userinfo({ access_token: token, openid: 'o_iris' })).toEqual(invalid);
    });

    it('GET /identity keeps a nickname with the chosen open id (empty: the default), and clears both', async () => {
      const chosen = await s.call('GET', '/api/dev/wechat/identity?as=o_jade&nickname=%20Jade%20');
      expect(chosen.body.data).toEqual({ openId: 'o_jade', nickname: 'Jade' });
      const set = chosen.headers.getSetCookie();
      expect(set.map((l) => l.split(';')[0])).toEqual(['wxStandinAs=o_jade', 'wxStandinNickname=Jade']);
      expect(set.every((l) => l.includes('Path=/api/dev/wechat') && l.includes('HttpOnly'))).toBe(true);
      expect((await s.call('GET', '/api/dev/wechat/identity?as=o_jade')).body.data).toEqual({ openId: 'o_jade', nickname: null });
      // a nickname without an open id is no choice
      const orphan = await s.call('GET', '/api/dev/wechat/identity?nickname=Jade');
      expect(orphan.body.data).toEqual({ openId: null, nickname: null });
      expect(orphan.headers.getSetCookie().every((l) => l.includes('Max-Age=0'))).toBe(true);
      expect((await s.call('GET', '/api/dev/wechat/identity?as=bad%20id&nickname=x')).body.data).toEqual({ openId: null, nickname: null });
    });
  });
});
