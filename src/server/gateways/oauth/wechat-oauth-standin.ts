import { createRoute, z } from '@hono/zod-openapi';
import { and, eq, gt, isNull } from 'drizzle-orm';
import { getCookie, setCookie } from 'hono/cookie';
import { COOKIE_MAX_AGE_SECONDS } from '../../../domain/limits';
import { wechatStandInCodes, wechatStandInOpenIds } from '../../db/schema/index';
import type { Deps } from '../../env';
import { createRouter, envelope, ok } from '../../http/router';
import { cleanNickname } from '../../services/auth/rules';
import { newSecret } from '../../services/auth-tokens';
import type { FetchLike } from '../sms';
import { readStandInToken, signStandInToken } from './wechat-oauth-standin-token';

/**
 * A local stand-in for the messaging app's OAuth server (demo mode and tests only), mounted under
 * /api/dev/wechat and speaking WeChat's protocol, so our real adapter code runs against it.
 *
 * Which identity comes back, first match wins:
 *   1. `as=<openid>` on the authorize URL;
 *   2. the `wxStandinAs` cookie, set by GET /api/dev/wechat/identity?as=<openid> (empty `as` clears it);
 *   3. a per-browser device id (cookie `wxStandinDevice`): open id `o_standin_<device>`, stable per browser.
 *
 * The nickname /sns/userinfo answers (scope snsapi_userinfo): the one chosen with the identity
 * (`&nickname=` on /identity, cookie `wxStandinNickname`), else `微信用户` + the open id's last 4 characters.
 * Access tokens are signed notes (wechat-oauth-standin-token.ts): no table, and /sns/userinfo refuses as
 * WeChat does (40001 bad or expired token, 40003 token of another open id, 48001 token of snsapi_base).
 */
export const STANDIN_APP_ID = 'wx-standin-app';
export const STANDIN_APP_SECRET = 'wx-standin-secret';
const CODE_TTL_MS = 5 * 60_000;
const TOKEN_TTL_S = 7200;
const COOKIE_PATH = '/api/dev/wechat';
const OPEN_ID = /^[A-Za-z0-9_-]{1,64}$/;

const authorize = createRoute({
  method: 'get',
  path: '/connect/oauth2/authorize',
  tags: ['dev'],
  summary: 'Stand-in: authorize (302 back to redirect_uri with code and state)',
  request: {
    query: z.object({
      appid: z.string().optional(),
      redirect_uri: z.string().optional(),
      response_type: z.string().optional(),
      scope: z.string().optional(),
      state: z.string().optional(),
      as: z.string().optional().openapi({ description: 'the open id to come back as (test hook)' }),
    }),
  },
  responses: {
    302: { description: 'Back to redirect_uri with ?code&state' },
    400: { description: 'Bad authorize parameters', content: { 'text/plain': { schema: z.string() } } },
  },
});

const AccessToken = z.object({
  access_token: z.string().optional(),
  expires_in: z.number().optional(),
  refresh_token: z.string().optional(),
  openid: z.string().optional(),
  scope: z.string().optional(),
  errcode: z.number().optional(),
  errmsg: z.string().optional(),
});

const accessToken = createRoute({
  method: 'get',
  path: '/sns/oauth2/access_token',
  tags: ['dev'],
  summary: 'Stand-in: exchange a code for the open id (WeChat answer shape)',
  request: {
    query: z.object({
      appid: z.string().optional(),
      secret: z.string().optional(),
      code: z.string().optional(),
      grant_type: z.string().optional(),
    }),
  },
  responses: { 200: { description: 'The open id, or errcode/errmsg', content: { 'application/json': { schema: AccessToken } } } },
});

const UserInfo = z.object({
  openid: z.string().optional(),
  nickname: z.string().optional(),
  sex: z.number().optional(),
  province: z.string().optional(),
  city: z.string().optional(),
  country: z.string().optional(),
  headimgurl: z.string().optional(),
  privilege: z.array(z.string()).optional(),
  errcode: z.number().optional(),
  errmsg: z.string().optional(),
});

const userInfo = createRoute({
  method: 'get',
  path: '/sns/userinfo',
  tags: ['dev'],
  summary: "Stand-in: the user's profile for an access token of scope snsapi_userinfo (WeChat answer shape)",
  request: { query: z.object({ access_token: z.string().optional(), openid: z.string().optional(), lang: z.string().optional() }) },
  responses: { 200: { description: 'The profile, or errcode/errmsg', content: { 'application/json': { schema: UserInfo } } } },
});

const identity = createRoute({
  method: 'get',
  path: '/identity',
  tags: ['dev'],
  summary: 'Stand-in: choose the open id (and nickname) this browser comes back as (empty clears the choice)',
  request: {
    query: z.object({
      as: z.string().optional(),
      nickname: z
        .string()
        .optional()
        .openapi({ description: 'the nickname /sns/userinfo answers for this open id (default 微信用户 + its last 4 characters)' }),
    }),
  },
  responses: {
    200: {
      description: 'The chosen open id and nickname',
      content: { 'application/json': { schema: envelope(z.object({ openId: z.string().nullable(), nickname: z.string().nullable() })) } },
    },
  },
});

export const wechatStandIn = createRouter()
  .openapi(authorize, async (c) => {
    const q = c.req.valid('query');
    const { db, clock, config } = c.var.deps;
    if (q.appid !== STANDIN_APP_ID) return c.text('invalid appid', 400);
    if (q.response_type !== 'code' || (q.scope !== 'snsapi_base' && q.scope !== 'snsapi_userinfo'))
      return c.text('invalid scope or response_type', 400);
    let back: URL;
    try {
      back = new URL(q.redirect_uri ?? '');
    } catch {
      return c.text('invalid redirect_uri', 400);
    }
    if (back.origin !== new URL(config.publicUrl).origin) return c.text('redirect_uri domain mismatch', 400);
    const chosen = getCookie(c, 'wxStandinAs') ?? '';
    let openId = q.as?.trim() || chosen;
    if (!openId) {
      let device = getCookie(c, 'wxStandinDevice');
      if (!device || !OPEN_ID.test(device)) {
        device = newSecret();
        setCookie(c, 'wxStandinDevice', device, { path: COOKIE_PATH, maxAge: COOKIE_MAX_AGE_SECONDS, sameSite: 'Lax', httpOnly: true });
      }
      openId = `o_standin_${device}`;
    }
    if (!OPEN_ID.test(openId)) return c.text('invalid as', 400);
    const code = newSecret();
    // the chosen nickname belongs to the chosen identity only
    const nickname = (openId === chosen && getCookie(c, 'wxStandinNickname')) || null;
    await db
      .insert(wechatStandInCodes)
      .values({ code, appId: STANDIN_APP_ID, openId, scope: q.scope, nickname, expiresAt: new Date(clock.now().getTime() + CODE_TTL_MS) });
    // the open id is this user's for this app from now on (the WeChat Pay stand-in takes only such payers)
    await db.insert(wechatStandInOpenIds).values({ appId: STANDIN_APP_ID, openId, createdAt: clock.now() }).onConflictDoNothing();
    back.searchParams.set('code', code);
    back.searchParams.set('state', q.state ?? '');
    return c.redirect(back.toString(), 302);
  })
  .openapi(accessToken, async (c) => {
    const q = c.req.valid('query');
    const { db, clock } = c.var.deps;
    const fail = (errcode: number, errmsg: string) => c.json({ errcode, errmsg }, 200);
    if (q.appid !== STANDIN_APP_ID) return fail(40013, 'invalid appid');
    if (q.secret !== STANDIN_APP_SECRET) return fail(40125, 'invalid appsecret');
    if (q.grant_type !== 'authorization_code') return fail(40002, 'invalid grant_type');
    if (!q.code) return fail(41008, 'missing code');
    const [spent] = await db
      .update(wechatStandInCodes)
      .set({ usedAt: clock.now() })
      .where(and(eq(wechatStandInCodes.code, q.code), isNull(wechatStandInCodes.usedAt), gt(wechatStandInCodes.expiresAt, clock.now())))
      .returning({ openId: wechatStandInCodes.openId, scope: wechatStandInCodes.scope, nickname: wechatStandInCodes.nickname });
    if (!spent) {
      const [row] = await db
        .select({ usedAt: wechatStandInCodes.usedAt })
        .from(wechatStandInCodes)
        .where(eq(wechatStandInCodes.code, q.code))
        .limit(1);
      return row?.usedAt ? fail(40163, 'code been used') : fail(40029, 'invalid code');
    }
    const expiresAt = clock.now().getTime() + TOKEN_TTL_S * 1000;
    const token = signStandInToken(STANDIN_APP_SECRET, { openId: spent.openId, scope: spent.scope, nickname: spent.nickname, expiresAt });
    return c.json(
      { access_token: token, expires_in: TOKEN_TTL_S, refresh_token: newSecret(), openid: spent.openId, scope: spent.scope },
      200,
    );
  })
  .openapi(userInfo, (c) => {
    const q = c.req.valid('query');
    const fail = (errcode: number, errmsg: string) => c.json({ errcode, errmsg }, 200);
    if (!q.access_token) return fail(41001, 'access_token missing');
    if (!q.openid) return fail(41009, 'missing openid');
    const grant = readStandInToken(STANDIN_APP_SECRET, q.access_token, c.var.deps.clock.now());
    if (!grant) return fail(40001, 'invalid credential, access_token is invalid or not latest');
    if (grant.openId !== q.openid) return fail(40003, 'invalid openid');
    if (grant.scope !== 'snsapi_userinfo') return fail(48001, 'api unauthorized');
    const nickname = grant.nickname ?? defaultNickname(grant.openId);
    return c.json({ openid: grant.openId, nickname, sex: 0, province: '', city: '', country: '', headimgurl: '', privilege: [] }, 200);
  })
  .openapi(identity, (c) => {
    const q = c.req.valid('query');
    const as = q.as?.trim() ?? '';
    if (as && !OPEN_ID.test(as)) return ok(c, { openId: null, nickname: null });
    const nickname = (as && cleanNickname(q.nickname)) || '';
    setCookie(c, 'wxStandinAs', as, { path: COOKIE_PATH, maxAge: as ? COOKIE_MAX_AGE_SECONDS : 0, sameSite: 'Lax', httpOnly: true });
    setCookie(c, 'wxStandinNickname', nickname, {
      path: COOKIE_PATH,
      maxAge: nickname ? COOKIE_MAX_AGE_SECONDS : 0,
      sameSite: 'Lax',
      httpOnly: true,
    });
    return ok(c, { openId: as || null, nickname: nickname || null });
  });

/** What the stand-in calls a user who chose no nickname: 微信用户 and the open id's last 4 characters. */
function defaultNickname(openId: string): string {
  return `微信用户${openId.slice(-4)}`;
}

/**
 * The fetch our real adapter uses in demo mode: requests to the stand-in's base go straight to the
 * stand-in's handlers in this process (a real Request/Response round trip, no port or network).
 */
export function standInFetch(apiBase: string, deps: Omit<Deps, 'gateways'>): FetchLike {
  const prefix = new URL(apiBase).pathname.replace(/\/+$/, '');
  const loop = createRouter();
  loop.use('*', async (c, next) => {
    c.set('deps', deps as Deps);
    await next();
  });
  loop.route(prefix, wechatStandIn);
  loop.onError((err, c) => c.json({ errcode: -1, errmsg: err instanceof Error ? err.message : 'error' }, 500));
  return async (url, init) => (url.startsWith(apiBase) ? loop.request(url, init) : fetch(url, init));
}
