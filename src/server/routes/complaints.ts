import { createRoute, z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { IdParam } from '../../contracts/common';
import {
  ComplaintBody,
  ComplaintImage,
  ComplaintImageBody,
  ComplaintQuery,
  ComplaintRateBody,
  ComplaintReplyBody,
  MyComplaint,
  StaffComplaint,
} from '../../contracts/complaints';
import { Errors } from '../../domain/errors';
import type { AppEnv, Caller } from '../env';
import { ApiError } from '../http/api-error';
import { requireAuth, requireAuthOrCookie } from '../http/auth';
import { idempotent } from '../http/idempotency';
import { createRouter, envelope, ErrorEnvelope, ok, refusals } from '../http/router';
import { photoRequestBody, photoTooLarge } from '../http/photo-body';
import {
  complaintImageBytes,
  complaintsForStaff,
  fileComplaint,
  myComplaint,
  myComplaints,
  rateComplaint,
  replyComplaint,
  staffComplaint,
  uploadComplaintImage,
} from '../services/complaints/complaints';
import { staffOnly } from './staff-guard';
import { auditOf } from '../http/audit';

const json = <T extends z.ZodTypeAny>(schema: T) => ({ description: 'OK', content: { 'application/json': { schema: envelope(schema) } } });
const err = (description: string) => ({ description, content: { 'application/json': { schema: ErrorEnvelope } } });
const tags = ['complaints'];
const me = (c: Context<AppEnv>) => (c.var.caller as Caller).accountId;
const all = { 400: refusals[400], 401: refusals[401], 403: refusals[403], 404: refusals[404], 409: refusals[409] } as const;
const ImageIdPath = z.object({ id: IdParam.openapi({ param: { name: 'id', in: 'path' }, example: 1 }) });
const image = (bytes: Buffer, contentType: string) =>
  new Response(new Uint8Array(bytes), {
    status: 200,
    headers: { 'Content-Type': contentType, 'Cache-Control': 'private, no-store', 'X-Content-Type-Options': 'nosniff' },
  });

/**
 * Complaints (spec §3, §5; decision 033): the member files one (content, optionally a club
 * and photos), staff of the club reply from the console, the member reads the reply and says whether
 * they are satisfied; unanswered for 48 hours it is flagged to staff. Another member's complaint is 404.
 */
export const complaintRoutes = createRouter()
  .openapi(
    createRoute({
      method: 'post',
      path: '/image',
      tags,
      summary: 'Upload one photo for a complaint (JPEG, PNG or WebP; 70009 too large); its id goes in the complaint',
      middleware: [requireAuth] as const,
      request: { body: photoRequestBody(ComplaintImageBody) },
      responses: {
        200: json(ComplaintImage),
        400: refusals[400],
        401: refusals[401],
        413: photoTooLarge,
        415: err('Not a JPEG, PNG or WebP image'),
      },
    }),
    async (c) =>
      ok(c, await uploadComplaintImage(c.var.deps.db, c.var.deps.clock, me(c), Buffer.from(c.req.valid('json').image, 'base64'))),
  )
  .openapi(
    createRoute({
      method: 'get',
      path: '/image/{id}',
      tags,
      summary: "One of my complaint photos (the token cookie works, so an <img> shows it); another member's 404",
      middleware: [requireAuthOrCookie] as const,
      request: { params: ImageIdPath },
      responses: {
        200: { description: 'the image', content: { 'image/jpeg': { schema: z.string() } } },
        401: refusals[401],
        404: refusals[404],
      },
    }),
    async (c) => {
      const img = await complaintImageBytes(c.var.deps.db, c.req.valid('param').id, { accountId: me(c) });
      if (!img) throw new ApiError(Errors.notFound);
      return image(img.bytes, img.contentType);
    },
  )
  .openapi(
    createRoute({
      method: 'post',
      path: '/',
      tags,
      summary:
        'File a complaint: content not empty (70140), optionally a club (70003 naming clubId when unknown) and up to 3 of my uploaded photos (70142, 70143). Idempotency-Key accepted.',
      middleware: [requireAuth, idempotent] as const,
      request: { body: { content: { 'application/json': { schema: ComplaintBody } }, required: true } },
      responses: { 200: json(MyComplaint), ...all },
    }),
    async (c) => {
      const row = await fileComplaint(c.var.deps.db, c.var.deps.clock, me(c), c.req.valid('json'));
      return ok(c, await myComplaint(c.var.deps.db, me(c), row.id, c.var.locale));
    },
  )
  .openapi(
    createRoute({
      method: 'get',
      path: '/',
      tags,
      summary: 'My complaints, newest first: replied or not, satisfied or not (spec §3)',
      middleware: [requireAuth] as const,
      responses: { 200: json(z.array(MyComplaint)), 401: refusals[401] },
    }),
    async (c) => ok(c, await myComplaints(c.var.deps.db, me(c), c.var.locale)),
  )
  .openapi(
    createRoute({
      method: 'get',
      path: '/detail',
      tags,
      summary: "One of my complaints with the reply; another member's 404",
      middleware: [requireAuth] as const,
      request: { query: ComplaintQuery },
      responses: { 200: json(MyComplaint), 400: refusals[400], 401: refusals[401], 404: refusals[404] },
    }),
    async (c) => ok(c, await myComplaint(c.var.deps.db, me(c), c.req.valid('query').id, c.var.locale)),
  )
  .openapi(
    createRoute({
      method: 'post',
      path: '/rate',
      tags,
      summary:
        "Say whether the reply satisfied me: once, after it was replied to (70141 otherwise); another member's 404. Idempotency-Key accepted.",
      middleware: [requireAuth, idempotent] as const,
      request: { body: { content: { 'application/json': { schema: ComplaintRateBody } }, required: true } },
      responses: { 200: json(MyComplaint), ...all },
    }),
    async (c) => {
      const b = c.req.valid('json');
      await rateComplaint(c.var.deps.db, c.var.deps.clock, me(c), b.id, b.satisfied);
      return ok(c, await myComplaint(c.var.deps.db, me(c), b.id, c.var.locale));
    },
  );

/** Staff: complaints of their club, and the reply (/api/staff/complaints). */
export const staffComplaintRoutes = createRouter()
  .openapi(
    createRoute({
      method: 'get',
      path: '/',
      tags,
      summary:
        'Staff: complaints of my clubs (and those naming no club) waiting for a reply, the ones unanswered for 48 hours first, then oldest first',
      middleware: [requireAuth, staffOnly()] as const,
      responses: { 200: json(z.array(StaffComplaint)), 401: refusals[401], 403: refusals[403] },
    }),
    async (c) => ok(c, await complaintsForStaff(c.var.deps.db, me(c), c.var.locale)),
  )
  .openapi(
    createRoute({
      method: 'get',
      path: '/image/{id}',
      tags,
      summary: 'Staff: a photo of a complaint of my clubs',
      middleware: [requireAuthOrCookie, staffOnly()] as const,
      request: { params: ImageIdPath },
      responses: {
        200: { description: 'the image', content: { 'image/jpeg': { schema: z.string() } } },
        401: refusals[401],
        403: refusals[403],
        404: refusals[404],
      },
    }),
    async (c) => {
      const img = await complaintImageBytes(c.var.deps.db, c.req.valid('param').id, { staffId: me(c) });
      if (!img) throw new ApiError(Errors.notFound);
      return image(img.bytes, img.contentType);
    },
  )
  .openapi(
    createRoute({
      method: 'post',
      path: '/reply',
      tags,
      summary:
        'Staff: reply to a complaint of my clubs (70144 empty; 70141 already replied; 404 outside my clubs); the member is notified. Idempotency-Key accepted.',
      middleware: [requireAuth, staffOnly(), idempotent] as const,
      request: { body: { content: { 'application/json': { schema: ComplaintReplyBody } }, required: true } },
      responses: { 200: json(StaffComplaint), ...all },
    }),
    async (c) => {
      const b = c.req.valid('json');
      await replyComplaint(c.var.deps.db, c.var.deps.clock, me(c), b.id, b.reply, auditOf(c));
      return ok(c, await staffComplaint(c.var.deps.db, me(c), b.id, c.var.locale));
    },
  );
