import { createRoute, z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { Errors } from '../../domain/errors';
import type { AppEnv, Caller } from '../env';
import { ApiError } from '../http/api-error';
import { requireAuth, requireAuthOrCookie } from '../http/auth';
import { idempotent } from '../http/idempotency';
import { createRouter, envelope, ErrorEnvelope, ok, refusals } from '../http/router';
import { photoRequestBody, photoTooLarge } from '../http/photo-body';
import {
  applyTransfer,
  cancelTransfer,
  memberByPhone,
  myTransfer,
  myTransferView,
  transferImageBytes,
  uploadTransferImage,
} from '../services/cards/transfer';
import { approveTransfer, rejectTransfer, revealTransferIdNumber, takeTransfer, transfersForStaff } from '../services/cards/transfer-staff';
import { RevealedIdNumber, RevealIdNumberBody } from '../../contracts/staff-audit';
import { auditOf } from '../http/audit';
import {
  MemberByPhone,
  MemberPhoneQuery,
  MyTransfer,
  MyTransferQuery,
  StaffTransfer,
  TransferApplyBody,
  TransferIdBody,
  TransferImage,
  TransferImageBody,
  TransferImagePath,
  TransferRejectBody,
} from '../../contracts/card-transfers';
import { staffOnly } from './staff-guard';

const json = <T extends z.ZodTypeAny>(schema: T, description = 'OK') => ({
  description,
  content: { 'application/json': { schema: envelope(schema) } },
});
const err = (description: string) => ({ description, content: { 'application/json': { schema: ErrorEnvelope } } });
const tags = ['card transfer'];
const me = (c: Context<AppEnv>) => (c.var.caller as Caller).accountId;
const all = { 400: refusals[400], 401: refusals[401], 403: refusals[403], 404: refusals[404], 409: refusals[409] } as const;
const staffOne = async (c: Context<AppEnv>, id: number) => (await transfersForStaff(c.var.deps.db, c.var.deps.gateways.keys, { id }))[0]!;

/**
 * Card transfer (spec §3, §4, §5; decision 026): the member's application and the staff queue. First the
 * receiver looked up by phone (/api/customers/members).
 */
export const memberLookupRoutes = createRouter().openapi(
  createRoute({
    method: 'get',
    path: '/phone',
    tags,
    summary:
      "Who a phone belongs to, before a transfer (spec §7): the member's name with all but its last character masked, or 30036 no such member; nothing more",
    middleware: [requireAuth] as const,
    request: { query: MemberPhoneQuery },
    responses: { 200: json(MemberByPhone), 400: refusals[400], 401: refusals[401], 404: refusals[404] },
  }),
  async (c) => ok(c, await memberByPhone(c.var.deps.db, c.req.valid('query').phone)),
);

/** My card transfers: ID photo, apply, cancel, mine (/api/customers/transfers). */
export const transferRoutes = createRouter()
  .openapi(
    createRoute({
      method: 'post',
      path: '/image',
      tags,
      summary: 'Upload one image for a transfer application (the ID photo or the photo of the recipient); its id goes in the application',
      middleware: [requireAuth] as const,
      request: { body: photoRequestBody(TransferImageBody) },
      responses: {
        200: json(TransferImage),
        400: refusals[400],
        401: refusals[401],
        413: photoTooLarge,
        415: err('Not a JPEG, PNG or WebP image'),
      },
    }),
    async (c) =>
      ok(
        c,
        await uploadTransferImage(
          c.var.deps.db,
          c.var.deps.clock,
          c.var.deps.gateways.keys,
          me(c),
          Buffer.from(c.req.valid('json').image, 'base64'),
        ),
      ),
  )
  .openapi(
    createRoute({
      method: 'post',
      path: '/apply',
      tags,
      summary:
        "Apply to transfer one of my cards to another member (spec §5): refused with 30033 to myself, 30034 a family card, 30031/30030 a group-buy card in its period or the 3 days after (the club phone in the message), 30032 a card received by transfer, 30004 an unfinished application, 30010-30014 its status, 30035 bookings ahead, 30036 no such member; another member's card 404. Idempotency-Key accepted.",
      middleware: [requireAuth, idempotent] as const,
      request: { body: { content: { 'application/json': { schema: TransferApplyBody } }, required: true } },
      responses: { 200: json(MyTransfer), ...all },
    }),
    async (c) => {
      const { agreed: _agreed, ...input } = c.req.valid('json');
      const t = await applyTransfer(c.var.deps.db, c.var.deps.clock, c.var.deps.gateways.keys, me(c), input);
      return ok(c, await myTransferView(c.var.deps.db, t));
    },
  )
  .openapi(
    createRoute({
      method: 'post',
      path: '/cancel',
      tags,
      summary: 'Cancel my transfer application while it waits for review (30037 once staff took it or it ended). Idempotency-Key accepted.',
      middleware: [requireAuth, idempotent] as const,
      request: { body: { content: { 'application/json': { schema: TransferIdBody } }, required: true } },
      responses: { 200: json(MyTransfer), ...all },
    }),
    async (c) =>
      ok(c, await myTransferView(c.var.deps.db, await cancelTransfer(c.var.deps.db, c.var.deps.clock, me(c), c.req.valid('json').id))),
  )
  .openapi(
    createRoute({
      method: 'get',
      path: '/mine',
      tags,
      summary:
        'My latest transfer application on one of my cards (null when none): pending, under review, approved, rejected with the reason, cancelled',
      middleware: [requireAuth] as const,
      request: { query: MyTransferQuery },
      responses: { 200: json(MyTransfer.nullable()), 400: refusals[400], 401: refusals[401], 404: refusals[404] },
    }),
    async (c) => ok(c, (await myTransfer(c.var.deps.db, me(c), c.req.valid('query').cardId)) ?? null),
  );

/** Staff: the transfer review queue (/api/staff/transfers). */
export const staffTransferRoutes = createRouter()
  .openapi(
    createRoute({
      method: 'get',
      path: '/',
      tags,
      summary: 'Staff: transfer applications pending or under review, oldest first (the ID number masked)',
      middleware: [requireAuth, staffOnly()] as const,
      responses: { 200: json(z.array(StaffTransfer)), 401: refusals[401], 403: refusals[403] },
    }),
    async (c) => ok(c, await transfersForStaff(c.var.deps.db, c.var.deps.gateways.keys)),
  )
  .openapi(
    createRoute({
      method: 'post',
      path: '/reveal-id-number',
      tags,
      summary:
        "Staff: the whole ID number of an application's recipient, with the reason staff need it (70003 naming reason when it is missing); recorded in the audit log",
      middleware: [requireAuth, staffOnly()] as const,
      request: { body: { content: { 'application/json': { schema: RevealIdNumberBody } }, required: true } },
      responses: { 200: json(RevealedIdNumber), 400: refusals[400], 401: refusals[401], 403: refusals[403], 404: refusals[404] },
    }),
    async (c) => {
      const b = c.req.valid('json');
      return ok(c, await revealTransferIdNumber(c.var.deps.db, c.var.deps.gateways.keys, auditOf(c), b.id, b.reason));
    },
  )
  .openapi(
    createRoute({
      method: 'get',
      path: '/{id}/image/{which}',
      tags,
      summary: "Staff: an application's ID photo or photo (each view recorded in the audit log)",
      middleware: [requireAuthOrCookie, staffOnly()] as const,
      request: { params: TransferImagePath },
      responses: {
        200: { description: 'the image', content: { 'image/jpeg': { schema: z.string() } } },
        401: refusals[401],
        403: refusals[403],
        404: refusals[404],
      },
    }),
    async (c) => {
      const { id, which } = c.req.valid('param');
      const img = await transferImageBytes(c.var.deps.db, c.var.deps.gateways.keys, id, which);
      if (!img) throw new ApiError(Errors.notFound);
      await auditOf(c)(c.var.deps.db, {
        action: which === 'id-photo' ? 'transfer.id-photo.view' : 'transfer.photo.view',
        subjectKind: 'transfer',
        subjectId: id,
      });
      return new Response(new Uint8Array(img.bytes), {
        status: 200,
        headers: { 'Content-Type': img.contentType, 'Cache-Control': 'private, no-store', 'X-Content-Type-Options': 'nosniff' },
      });
    },
  )
  .openapi(
    createRoute({
      method: 'post',
      path: '/take',
      tags,
      summary: 'Staff: take a pending application for review (who and when kept). Idempotency-Key accepted.',
      middleware: [requireAuth, staffOnly(), idempotent] as const,
      request: { body: { content: { 'application/json': { schema: TransferIdBody } }, required: true } },
      responses: { 200: json(StaffTransfer), ...all },
    }),
    async (c) => {
      const t = await takeTransfer(c.var.deps.db, c.var.deps.clock, me(c), c.req.valid('json').id, auditOf(c));
      return ok(c, await staffOne(c, t.id));
    },
  )
  .openapi(
    createRoute({
      method: 'post',
      path: '/approve',
      tags,
      summary:
        'Staff: approve an application under review: in one transaction the card is transferred and the recipient gets a card with its uses and validity end; both notified. The rules are checked again (their 30xxx codes). Idempotency-Key accepted.',
      middleware: [requireAuth, staffOnly(), idempotent] as const,
      request: { body: { content: { 'application/json': { schema: TransferIdBody } }, required: true } },
      responses: { 200: json(StaffTransfer), ...all },
    }),
    async (c) => {
      const t = await approveTransfer(c.var.deps.db, c.var.deps.clock, me(c), c.req.valid('json').id, auditOf(c));
      return ok(c, await staffOne(c, t.id));
    },
  )
  .openapi(
    createRoute({
      method: 'post',
      path: '/reject',
      tags,
      summary: 'Staff: reject an application under review with the reason the member reads (who and when kept). Idempotency-Key accepted.',
      middleware: [requireAuth, staffOnly(), idempotent] as const,
      request: { body: { content: { 'application/json': { schema: TransferRejectBody } }, required: true } },
      responses: { 200: json(StaffTransfer), ...all },
    }),
    async (c) => {
      const b = c.req.valid('json');
      const t = await rejectTransfer(c.var.deps.db, c.var.deps.clock, me(c), b.id, b.reason, auditOf(c));
      return ok(c, await staffOne(c, t.id));
    },
  );
