import { createRoute, z } from '@hono/zod-openapi';
import { Errors } from '../../domain/errors';
import { isValidPhone, trimInput } from '../../domain/validation';
import { ApiError } from '../http/api-error';
import { requireAuth } from '../http/auth';
import { clientIp } from '../http/client-ip';
import { createRouter, envelope, ok, refusals } from '../http/router';
import { clearSessionCookies, setSessionCookies } from '../http/session-cookies';
import { profileOf } from '../services/auth/accounts';
import { login } from '../services/auth/login';
import { checkToken, revokeSession } from '../services/auth/sessions';
import { issueCode } from '../services/auth/sms-codes';
import { SMS_CODE_TTL_MS } from '../../domain/limits';

const json = <T extends z.ZodTypeAny>(schema: T) => ({ content: { 'application/json': { schema } }, required: true });

const LoginIn = z
  .object({
    username: z.string().max(64).nullish().openapi({ description: 'phone (trimmed); unused for openid' }),
    password: z.string().max(128).nullish().openapi({ description: 'password or 6-digit code (trimmed)' }),
    loginType: z.string().max(16).openapi({ description: 'password | code | openid' }),
    openid: z.string().max(128).nullish().openapi({ description: 'an open-id ticket (never a raw open id)' }),
    weixinPicture: z.string().max(1000).nullish(),
    nicName: z.string().max(100).nullish(),
  })
  .openapi('LoginRequest');

export const Profile = z
  .object({
    id: z.number().int(),
    username: z.string(),
    phone: z.string(),
    level: z.string(),
    role: z.string(),
    name: z.string().nullable(),
    wxAvatar: z.string().nullable(),
    wxNickname: z.string().nullable(),
    avatarUrl: z.string().nullable(),
  })
  .openapi('Profile');

const LoginData = Profile.extend({
  weixinPicture: z.string().nullable(),
  nicName: z.string().nullable(),
  wxBound: z.boolean().openapi({ description: 'an open id is bound to this account' }),
}).openapi('LoginData');

const TokenCheck = z.object({ valid: z.boolean(), id: z.number().int().nullable(), level: z.string().nullable() }).openapi('TokenCheck');

/** Spec §7 login calls: POST /oauth/login, GET /oauth/valid-code, POST /oauth/logout, POST /oauth/token/verify. */
export const auth = createRouter()
  .openapi(
    createRoute({
      method: 'post',
      path: '/oauth/login',
      tags: ['auth'],
      summary: 'Log in by phone and password, phone and SMS code, or open-id ticket',
      description:
        'Refusals are never HTTP 401: 10002 wrong phone or password, 10003 wrong or expired code, 10004 open id not bound, 10005 wrong login type, 10006 banned (403), 10010 invalid phone, 10011 password length, 10015 too many wrong passwords (429). A valid open-id ticket in `openid` on a phone login binds that open id. Sets the session cookies.',
      request: { body: json(LoginIn) },
      responses: {
        200: { description: 'Logged in', content: { 'application/json': { schema: envelope(LoginData).extend({ token: z.string() }) } } },
        400: refusals[400],
        403: refusals[403],
        429: refusals[429],
      },
    }),
    async (c) => {
      const body = c.req.valid('json');
      const { token, account, wxBound } = await login(c.var.deps, body);
      const p = profileOf(account);
      setSessionCookies(c, {
        token,
        openId: '',
        username: p.username,
        userLevel: p.level,
        wxAvatar: p.wxAvatar ?? '',
        wxNicName: p.wxNickname ?? '',
        customerId: String(p.id),
      });
      // spec §7: the token also sits at the top level of the login answer
      return c.json({ code: 200, status: true, token, data: { ...p, weixinPicture: p.wxAvatar, nicName: p.wxNickname, wxBound } }, 200);
    },
  )
  .openapi(
    createRoute({
      method: 'get',
      path: '/oauth/valid-code',
      tags: ['auth'],
      summary: 'Send a 6-digit SMS code (valid 5 minutes, single use)',
      description:
        'The same answer whether or not the phone is registered. 10007 within the resend cooldown of the last code (`SMS_RESEND_COOLDOWN_S`, 60 s; `data.retryAfter` and the message say how long is left), 10008 over the per-phone hour/day cap, 10009 over the per-network cap, 10010 invalid phone.',
      request: { query: z.object({ phone: z.string().max(64).optional() }) },
      responses: {
        200: {
          description: 'Sent',
          content: { 'application/json': { schema: envelope(z.object({ expiresIn: z.number().int(), resendAfter: z.number().int().openapi({ description: 'seconds before this phone can be texted another code (the app counts them down)' }) })) } },
        },
        400: refusals[400],
        429: refusals[429],
      },
    }),
    async (c) => {
      const phone = trimInput(c.req.valid('query').phone);
      if (!isValidPhone(phone)) throw new ApiError(Errors.invalidPhone, { field: 'phone' });
      const { db, clock, config, log, gateways } = c.var.deps;
      await issueCode({ db, clock, config, log, sms: gateways.sms }, phone, clientIp(c));
      return ok(c, { expiresIn: SMS_CODE_TTL_MS / 1000, resendAfter: config.sms.resendCooldownS });
    },
  )
  .openapi(
    createRoute({
      method: 'post',
      path: '/oauth/logout',
      tags: ['auth'],
      summary: 'End this session (revoked server-side) and clear the session cookies',
      middleware: [requireAuth] as const,
      responses: { 200: { description: 'Logged out', content: { 'application/json': { schema: envelope(z.null()) } } }, 401: refusals[401] },
    }),
    async (c) => {
      await revokeSession(c.var.deps.db, c.var.caller!.sessionId, c.var.deps.clock);
      clearSessionCookies(c);
      return ok(c, null);
    },
  )
  .openapi(
    createRoute({
      method: 'post',
      path: '/oauth/token/verify',
      tags: ['auth'],
      summary: 'Is a token live?',
      description:
        '`valid: true` with the account id and level while the session is neither revoked nor expired and the account is not banned; every other case (unknown, revoked, expired, banned) answers `valid: false, id: null, level: null` alike.',
      request: { body: json(z.object({ token: z.string().max(256) }).openapi('TokenVerifyRequest')) },
      responses: { 200: { description: 'Checked', content: { 'application/json': { schema: envelope(TokenCheck) } } }, 400: refusals[400] },
    }),
    async (c) => {
      const { token } = c.req.valid('json');
      return ok(c, await checkToken(c.var.deps.db, token.trim(), c.var.deps.clock));
    },
  );
