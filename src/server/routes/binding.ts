import { createRoute, z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { getCookie, setCookie } from 'hono/cookie';
import { Errors } from '../../domain/errors';
import type { AppEnv, Caller } from '../env';
import { ApiError } from '../http/api-error';
import { optionalAuth, requireAuth, requireAuthOrCookie } from '../http/auth';
import { clientIp } from '../http/client-ip';
import { createRouter, envelope, ok, refusals } from '../http/router';
import { photoRequestBody, photoTooLarge } from '../http/photo-body';
import { setSessionCookies } from '../http/session-cookies';
import { profileOf } from '../services/auth/accounts';
import {
  bindingsForStaff,
  issueBindCode,
  listBindCodes,
  revokeBindCode,
  teachersForStaff,
  unbindForStaff,
} from '../services/binding/codes';
import type { BindOutcome } from '../services/binding/common';
import {
  confirmTeacherRequest,
  pendingTeacherRequests,
  refuseTeacherRequest,
  submitTeacherRequest,
  teacherRequestByKey,
  teacherRequestPhoto,
} from '../services/binding/requests';
import { bindStaff } from '../services/binding/staff-bind';
import { bindStatus } from '../services/binding/status';
import { bindTeacher } from '../services/binding/teacher-bind';
import { IdParam } from '../../contracts/common';
import {
  BindCodeIssued,
  BindCodeView,
  BindingRow,
  BindResult,
  BindStatus,
  BindStatusQuery,
  IdBody,
  IssueBindCodeBody,
  NewTeacherBody,
  RefuseRequestBody,
  StaffBindBody,
  StaffTeacherRow,
  TeacherBindBody,
  TeacherRequestQuery,
  TeacherRequestSent,
  TeacherRequestView,
  UnbindBody,
} from '../../contracts/binding';
import { staffOnly } from './staff-guard';
import { auditOf } from '../http/audit';

const tags = ['binding'];
const body = <T extends z.ZodTypeAny>(schema: T) => ({ content: { 'application/json': { schema } }, required: true });
const json = <T extends z.ZodTypeAny>(schema: T) => ({ description: 'OK', content: { 'application/json': { schema: envelope(schema) } } });
const image = (bytes: Buffer, contentType: string) =>
  new Response(new Uint8Array(bytes), {
    status: 200,
    headers: { 'Content-Type': contentType, 'Cache-Control': 'private, no-store', 'X-Content-Type-Options': 'nosniff' },
  });

/** The cookie the new-teacher request's key is kept in (HttpOnly: only the server reads it). */
const REQUEST_COOKIE = 'bindRequest';
const REQUEST_COOKIE_DAYS = 30;

/** The open-id ticket a binding uses: the body's, else the openId cookie the silent login set. */
const ticketOf = (c: Context<AppEnv>, given: string | null | undefined) => (given?.trim() ? given : getCookie(c, 'openId'));

/** A binding logs the teacher or staff member in: the session cookies and the login's answer. */
function loggedIn(c: Context<AppEnv>, { token, account }: BindOutcome) {
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
  return c.json(
    {
      code: 200,
      status: true,
      token,
      data: { ...p, weixinPicture: p.wxAvatar, nicName: p.wxNickname, wxBound: true, mustChangePassword: false },
    },
    200,
  );
}

/** A database failure while binding is spec §8's "bind failed" (retry), never a 500. */
async function binding<T>(c: Context<AppEnv>, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (err) {
    if (err instanceof ApiError) throw err;
    c.var.deps.log.error('binding failed', { error: err instanceof Error ? err.message : String(err) });
    throw new ApiError(Errors.bindFailed);
  }
}

const bindAnswer = {
  200: {
    description: 'Bound and logged in',
    content: { 'application/json': { schema: envelope(BindResult).extend({ token: z.string() }) } },
  },
};

/**
 * Binding (spec §5, §6, §8; decision 028): teachers by a bind code staff issued, staff by their
 * account's username and password, new teachers by a request staff confirm. Every binding needs the
 * open id of the silent login (the open-id ticket, decision 003) and logs in with the role bound.
 */
export const bindingRoutes = createRouter()
  .openapi(
    createRoute({
      method: 'get',
      path: '/status',
      tags,
      summary: 'What /bindPage shows: an open id here, the current binding, the new-teacher request sent from here',
      description: '60009 (503) when the lookup itself fails: the app offers a retry.',
      middleware: [optionalAuth] as const,
      request: { query: BindStatusQuery },
      responses: { 200: json(BindStatus), 400: refusals[400], 503: refusals[400] },
    }),
    async (c) => {
      const q = c.req.valid('query');
      return ok(c, await bindStatus(c.var.deps, c.var.caller, ticketOf(c, q.openid), q.key ?? getCookie(c, REQUEST_COOKIE), c.var.locale));
    },
  )
  .openapi(
    createRoute({
      method: 'post',
      path: '/teacher',
      tags,
      summary: 'A teacher binds their open id with a bind code, and is logged in as the teacher',
      description:
        '60001 empty open id, 60002 code missing, 60003 invalid (unknown, used or revoked), 60004 expired, 60005 teacher missing (404), 60006 this open id is bound already, 60007 this teacher is bound already, 60008 bind failed.',
      request: { body: body(TeacherBindBody) },
      responses: { ...bindAnswer, 400: refusals[400], 404: refusals[404], 409: refusals[409] },
    }),
    async (c) => {
      const b = c.req.valid('json');
      return loggedIn(c, await binding(c, () => bindTeacher(c.var.deps, { code: b.code, openid: ticketOf(c, b.openid) })));
    },
  )
  .openapi(
    createRoute({
      method: 'post',
      path: '/staff',
      tags,
      summary: "A staff member binds their open id with their staff account's username and password",
      description:
        '60001 empty open id, 60010 fill form, 10017 a password formed from the phone (expired), 60011 wrong credentials (counted like wrong logins; 10015 past the limit), 60012 not a staff account, 60006/60007 already bound; the login guard as a login (10009, 10020 asks for the security check: send its answer as `captcha`, 10021, 10022).',
      request: { body: body(StaffBindBody) },
      responses: { ...bindAnswer, 400: refusals[400], 409: refusals[409], 429: refusals[429] },
    }),
    async (c) => {
      const b = c.req.valid('json');
      return loggedIn(
        c,
        await binding(c, () =>
          bindStaff({ ...c.var.deps, captcha: c.var.deps.gateways.captcha }, { ...b, openid: ticketOf(c, b.openid) }, clientIp(c)),
        ),
      );
    },
  )
  .openapi(
    createRoute({
      method: 'post',
      path: '/new-teacher',
      tags,
      summary: 'A teacher not yet in the system asks to be added and bound; staff confirm or refuse',
      description:
        '60001 empty open id, 60010 fill form (the field named), 10010 phone, 10003 SMS code, 60012 bind info wrong (club, styles, phone taken), 60006 open id bound, 60013 a request is pending, 70009/70047 photo.',
      request: { body: photoRequestBody(NewTeacherBody) },
      responses: { 200: json(TeacherRequestSent), 400: refusals[400], 409: refusals[409], 413: photoTooLarge, 415: refusals[400] },
    }),
    async (c) => {
      const b = c.req.valid('json');
      const sent = await binding(c, () => submitTeacherRequest(c.var.deps, { ...b, openid: ticketOf(c, b.openid) }));
      const secure = c.var.deps.config.publicUrl.startsWith('https://');
      setCookie(c, REQUEST_COOKIE, sent.key, { path: '/', sameSite: 'Lax', httpOnly: true, secure, maxAge: REQUEST_COOKIE_DAYS * 86_400 });
      return ok(c, sent);
    },
  )
  .openapi(
    createRoute({
      method: 'get',
      path: '/new-teacher',
      tags,
      summary: 'Where the new-teacher request sent from here stands (pending, confirmed, refused with the reason)',
      request: { query: TeacherRequestQuery },
      responses: { 200: json(TeacherRequestView), 404: refusals[404] },
    }),
    async (c) => {
      const view = await teacherRequestByKey(c.var.deps.db, c.req.valid('query').key ?? getCookie(c, REQUEST_COOKIE));
      if (!view) throw new ApiError(Errors.notFound, { field: 'key' });
      return ok(c, view);
    },
  )
  .openapi(
    createRoute({
      method: 'get',
      path: '/new-teacher/{id}/photo',
      tags,
      summary: "A confirmed new teacher's photo (their catalogue photo)",
      request: { params: z.object({ id: IdParam.openapi({ param: { name: 'id', in: 'path' } }) }) },
      responses: { 200: { description: 'the image', content: { 'image/jpeg': { schema: z.string() } } }, 404: refusals[404] },
    }),
    async (c) => {
      const p = await teacherRequestPhoto(c.var.deps.db, c.var.deps.gateways.keys, c.req.valid('param').id, true);
      if (!p) throw new ApiError(Errors.notFound);
      return image(p.bytes, p.contentType);
    },
  );

/** Staff: the teachers a bind code can name (/api/staff/teachers). */
export const staffTeacherRoutes = createRouter().openapi(
  createRoute({
    method: 'get',
    path: '/',
    tags,
    summary: 'Staff: every teacher, with their login and whether it is bound',
    middleware: [requireAuth, staffOnly()] as const,
    responses: { 200: json(z.array(StaffTeacherRow)), 401: refusals[401], 403: refusals[403] },
  }),
  async (c) => ok(c, await teachersForStaff(c.var.deps.db, c.var.locale)),
);

/** Staff: bind codes, made, listed and revoked (/api/staff/bind-codes). */
export const staffBindCodeRoutes = createRouter()
  .openapi(
    createRoute({
      method: 'post',
      path: '/',
      tags,
      summary: 'Staff: issue a bind code for one teacher (shown once; 72 hours unless `ttlHours`)',
      description: '60005 teacher missing; a teacher without a login needs `phone` (60010), one that is no login yet (60012).',
      middleware: [requireAuth, staffOnly()] as const,
      request: { body: body(IssueBindCodeBody) },
      responses: {
        200: json(BindCodeIssued),
        400: refusals[400],
        401: refusals[401],
        403: refusals[403],
        404: refusals[404],
        409: refusals[409],
      },
    }),
    async (c) =>
      ok(
        c,
        await issueBindCode(
          c.var.deps.db,
          c.var.deps.clock,
          (c.var.caller as Caller).accountId,
          c.req.valid('json'),
          c.var.locale,
          auditOf(c),
        ),
      ),
  )
  .openapi(
    createRoute({
      method: 'get',
      path: '/',
      tags,
      summary: 'Staff: the latest bind codes and their status',
      middleware: [requireAuth, staffOnly()] as const,
      responses: { 200: json(z.array(BindCodeView)), 401: refusals[401], 403: refusals[403] },
    }),
    async (c) => ok(c, await listBindCodes(c.var.deps.db, c.var.deps.clock, c.var.locale)),
  )
  .openapi(
    createRoute({
      method: 'post',
      path: '/revoke',
      tags,
      summary: 'Staff: revoke a live bind code (60003 when it is used, revoked or expired)',
      middleware: [requireAuth, staffOnly()] as const,
      request: { body: body(IdBody) },
      responses: { 200: json(BindCodeView), 400: refusals[400], 401: refusals[401], 403: refusals[403], 404: refusals[404] },
    }),
    async (c) => ok(c, await revokeBindCode(c.var.deps.db, c.var.deps.clock, c.var.locale, c.req.valid('json').id, auditOf(c))),
  );

/** Staff: new teachers' requests to bind (/api/staff/teacher-requests). */
export const staffTeacherRequestRoutes = createRouter()
  .openapi(
    createRoute({
      method: 'get',
      path: '/',
      tags,
      summary: 'Staff: new-teacher requests to decide, oldest first',
      middleware: [requireAuth, staffOnly()] as const,
      responses: { 200: json(z.array(TeacherRequestView)), 401: refusals[401], 403: refusals[403] },
    }),
    async (c) => ok(c, await pendingTeacherRequests(c.var.deps.db)),
  )
  .openapi(
    createRoute({
      method: 'get',
      path: '/{id}/photo',
      tags,
      summary: "Staff: a request's photo (each view recorded in the audit log)",
      middleware: [requireAuthOrCookie, staffOnly()] as const,
      request: { params: z.object({ id: IdParam.openapi({ param: { name: 'id', in: 'path' } }) }) },
      responses: {
        200: { description: 'the image', content: { 'image/jpeg': { schema: z.string() } } },
        401: refusals[401],
        403: refusals[403],
        404: refusals[404],
      },
    }),
    async (c) => {
      const p = await teacherRequestPhoto(c.var.deps.db, c.var.deps.gateways.keys, c.req.valid('param').id, false);
      if (!p) throw new ApiError(Errors.notFound);
      await auditOf(c)(c.var.deps.db, { action: 'teacher-request.photo.view', subjectKind: 'teacher-request', subjectId: p.id });
      return image(p.bytes, p.contentType);
    },
  )
  .openapi(
    createRoute({
      method: 'post',
      path: '/confirm',
      tags,
      summary: 'Staff: confirm a new teacher (teacher, login and binding made at once)',
      description: '60014 decided already; 60012 the phone became a login meanwhile; 60006 the open id was bound meanwhile.',
      middleware: [requireAuth, staffOnly()] as const,
      request: { body: body(IdBody) },
      responses: {
        200: json(TeacherRequestView),
        400: refusals[400],
        401: refusals[401],
        403: refusals[403],
        404: refusals[404],
        409: refusals[409],
      },
    }),
    async (c) =>
      ok(
        c,
        await confirmTeacherRequest(
          c.var.deps.db,
          c.var.deps.clock,
          (c.var.caller as Caller).accountId,
          c.req.valid('json').id,
          auditOf(c),
        ),
      ),
  )
  .openapi(
    createRoute({
      method: 'post',
      path: '/refuse',
      tags,
      summary: 'Staff: refuse a new teacher with the reason they read',
      middleware: [requireAuth, staffOnly()] as const,
      request: { body: body(RefuseRequestBody) },
      responses: {
        200: json(TeacherRequestView),
        400: refusals[400],
        401: refusals[401],
        403: refusals[403],
        404: refusals[404],
        409: refusals[409],
      },
    }),
    async (c) => {
      const b = c.req.valid('json');
      return ok(
        c,
        await refuseTeacherRequest(c.var.deps.db, c.var.deps.clock, (c.var.caller as Caller).accountId, b.id, b.reason, auditOf(c)),
      );
    },
  );

/** Staff: the bindings made, and unbinding one (/api/staff/bindings). */
export const staffBindingRoutes = createRouter()
  .openapi(
    createRoute({
      method: 'get',
      path: '/',
      tags,
      summary: 'Staff: teacher and staff accounts with a bound open id',
      middleware: [requireAuth, staffOnly()] as const,
      responses: { 200: json(z.array(BindingRow)), 401: refusals[401], 403: refusals[403] },
    }),
    async (c) => ok(c, await bindingsForStaff(c.var.deps.db)),
  )
  .openapi(
    createRoute({
      method: 'post',
      path: '/unbind',
      tags,
      summary: "Staff: unbind a teacher's or staff member's open id (their sessions end)",
      middleware: [requireAuth, staffOnly()] as const,
      request: { body: body(UnbindBody) },
      responses: {
        200: json(z.object({ unbound: z.number().int() })),
        400: refusals[400],
        401: refusals[401],
        403: refusals[403],
        404: refusals[404],
      },
    }),
    async (c) => ok(c, await unbindForStaff(c.var.deps.db, c.var.deps.clock, c.req.valid('json').accountId, auditOf(c))),
  );
