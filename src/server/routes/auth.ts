import { createRoute, z } from '@hono/zod-openapi';
import { Errors } from '../../domain/errors';
import { isValidPhone, trimInput } from '../../domain/validation';
import { ApiError } from '../http/api-error';
import { requireSession } from '../http/auth';
import { clientIp } from '../http/client-ip';
import { createRouter, envelope, ok, refusalEnvelope, refusals } from '../http/router';
import { clearSessionCookies, setSessionCookies } from '../http/session-cookies';
import { profileOf } from '../services/auth/accounts';
import { login } from '../services/auth/login';
import { checkToken, revokeSession } from '../services/auth/sessions';
import { issueCode } from '../services/auth/sms-codes';
import { SMS_CODE_TTL_MS } from '../../domain/limits';
import { CodeQuery, CodeSent, CodeTooSoon, LoginBody, LoginData, TokenCheck, TokenVerifyBody } from '../../contracts/auth';

const json = <T extends z.ZodTypeAny>(schema: T) => ({ content: { 'application/json': { schema } }, required: true });

/** Spec §7 login calls: POST /oauth/login, GET /oauth/valid-code, POST /oauth/logout, POST /oauth/token/verify. */
export const auth = createRouter()
  .openapi(
    createRoute({
      method: 'post',
      path: '/login',
      tags: ['auth'],
      summary: 'Log in by phone and password, phone and SMS code, or open-id ticket',
      description:
        'Refusals are never HTTP 401: 10002 wrong phone or password, 10003 wrong or expired code, 10004 open id not bound, 10005 wrong login type, 10006 banned (403), 10010 invalid phone, 10011 password length, 10015 too many wrong passwords (429), 10017 a password formed from the phone (expired: log in by code and set a password; 403), 10009 too many wrong tries from this network (429), 10020 the security check is needed first (429; `data.captchaAppId` opens the widget; send its answer as `captcha`), 10021 the security check failed, 10022 wait `data.retryAfter` seconds (429). A valid open-id ticket in `openid` on a phone login binds that open id. Sets the session cookies. `data.mustChangePassword`: an initial password from the front desk; the session may only set a new password (decision 054).',
      request: { body: json(LoginBody) },
      responses: {
        200: { description: 'Logged in', content: { 'application/json': { schema: envelope(LoginData).extend({ token: z.string() }) } } },
        400: refusals[400],
        403: refusals[403],
        429: refusals[429],
      },
    }),
    async (c) => {
      const body = c.req.valid('json');
      const { token, account, wxBound, mustChangePassword } = await login(
        { ...c.var.deps, captcha: c.var.deps.gateways.captcha },
        body,
        clientIp(c),
      );
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
      return c.json(
        { code: 200, status: true, token, data: { ...p, weixinPicture: p.wxAvatar, nicName: p.wxNickname, wxBound, mustChangePassword } },
        200,
      );
    },
  )
  .openapi(
    createRoute({
      method: 'get',
      path: '/valid-code',
      tags: ['auth'],
      summary: 'Send a 6-digit SMS code (valid 5 minutes, single use)',
      description:
        'The same answer whether or not the phone is registered. 10007 within the resend cooldown of the last code (`SMS_RESEND_COOLDOWN_S`, 60 s; `data.retryAfter` and the message say how long is left), 10008 over the per-phone hour/day cap, 10009 over the per-network cap, 10010 invalid phone, 10020 the security check is needed first (a network that asked for several codes or keeps failing; `data.captchaAppId`; send the widget answer as `ticket` and `randstr`), 10021 it failed.',
      request: { query: CodeQuery },
      responses: {
        200: { description: 'Sent', content: { 'application/json': { schema: envelope(CodeSent) } } },
        400: refusals[400],
        429: {
          description: 'Too many codes; 10007 says the seconds left in `data`',
          content: { 'application/json': { schema: refusalEnvelope(CodeTooSoon.nullable()) } },
        },
      },
    }),
    async (c) => {
      const query = c.req.valid('query');
      const phone = trimInput(query.phone);
      if (!isValidPhone(phone)) throw new ApiError(Errors.invalidPhone, { field: 'phone' });
      if ((query.ticket === undefined) !== (query.randstr === undefined))
        throw new ApiError(Errors.invalidField, {
          field: query.ticket === undefined ? 'ticket' : 'randstr',
          values: { field: query.ticket === undefined ? 'ticket' : 'randstr' },
        });
      const { db, clock, config, log, gateways } = c.var.deps;
      const captcha = query.ticket && query.randstr ? { ticket: query.ticket, randstr: query.randstr } : undefined;
      await issueCode({ db, clock, config, log, sms: gateways.sms, captcha: gateways.captcha }, phone, clientIp(c), captcha);
      return ok(c, { expiresIn: SMS_CODE_TTL_MS / 1000, resendAfter: config.sms.resendCooldownS });
    },
  )
  .openapi(
    createRoute({
      method: 'post',
      path: '/logout',
      tags: ['auth'],
      summary: 'End this session (revoked server-side) and clear the session cookies',
      middleware: [requireSession] as const,
      responses: {
        200: { description: 'Logged out', content: { 'application/json': { schema: envelope(z.null()) } } },
        401: refusals[401],
      },
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
      path: '/token/verify',
      tags: ['auth'],
      summary: 'Is a token live?',
      description:
        '`valid: true` with the account id and level while the session is neither revoked nor expired and the account is not banned; every other case (unknown, revoked, expired, banned) answers `valid: false, id: null, level: null` alike.',
      request: { body: json(TokenVerifyBody) },
      responses: { 200: { description: 'Checked', content: { 'application/json': { schema: envelope(TokenCheck) } } }, 400: refusals[400] },
    }),
    async (c) => {
      const { token } = c.req.valid('json');
      return ok(c, await checkToken(c.var.deps.db, token.trim(), c.var.deps.clock));
    },
  );
