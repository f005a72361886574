import { createRoute, z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import {
  CardRefundBody,
  CardRefundIdBody,
  CardRefundQuery,
  CardRefundQuote,
  CardRefundRejectBody,
  MyCardRefund,
  StaffCardRefund,
  StaffCardRefundsQuery,
} from '../../contracts/card-refunds';
import type { AppEnv, Caller } from '../env';
import { requireAuth } from '../http/auth';
import { idempotent } from '../http/idempotency';
import { createRouter, envelope, ok, refusals } from '../http/router';
import { cancelCardRefund, myCardRefund, myCardRefundView, quoteCardRefund, requestCardRefund } from '../services/cards/refund';
import { approveCardRefund, cardRefundsForStaff, rejectCardRefund } from '../services/cards/refund-staff';
import { staffOnly } from './staff-guard';
import { auditOf } from '../http/audit';

const json = <T extends z.ZodTypeAny>(schema: T, description = 'OK') => ({
  description,
  content: { 'application/json': { schema: envelope(schema) } },
});
const tags = ['card refund'];
const me = (c: Context<AppEnv>) => (c.var.caller as Caller).accountId;
const all = { 400: refusals[400], 401: refusals[401], 403: refusals[403], 404: refusals[404], 409: refusals[409] } as const;
const staffOne = async (c: Context<AppEnv>, id: number) => (await cardRefundsForStaff(c.var.deps.db, { id }))[0]!;
const REFUSALS =
  "30010-30014 the card's status, 30041 not bought by me in a paid order (a card received or granted), 30040 a type never refunded, 30004 an unfinished application, 30043 bookings ahead, 30042 nothing left to give back";

/** Card refund (decision 030): the member's request with the policy's amount, and the staff queue. */
export const cardRefundRoutes = createRouter()
  .openapi(
    createRoute({
      method: 'get',
      path: '/quote',
      tags,
      summary: `What the refund policy gives back for one of my cards now (shown before confirming); refused with ${REFUSALS}; another member's card 404`,
      middleware: [requireAuth] as const,
      request: { query: CardRefundQuery },
      responses: { 200: json(CardRefundQuote), 400: refusals[400], 401: refusals[401], 404: refusals[404], 409: refusals[409] },
    }),
    async (c) => ok(c, await quoteCardRefund(c.var.deps.db, c.var.deps.clock, me(c), c.req.valid('query').cardId)),
  )
  .openapi(
    createRoute({
      method: 'post',
      path: '/',
      tags,
      summary: `Ask for one of my cards to be refunded, the refund policy agreed to (spec §5; 70003 naming \`agreed\` otherwise): the request waits for staff. Refused with ${REFUSALS}. Idempotency-Key accepted.`,
      middleware: [requireAuth, idempotent] as const,
      request: { body: { content: { 'application/json': { schema: CardRefundBody } }, required: true } },
      responses: { 200: json(MyCardRefund), ...all },
    }),
    async (c) =>
      ok(
        c,
        await myCardRefundView(c.var.deps.db, await requestCardRefund(c.var.deps.db, c.var.deps.clock, me(c), c.req.valid('json').cardId)),
      ),
  )
  .openapi(
    createRoute({
      method: 'post',
      path: '/cancel',
      tags,
      summary: 'Cancel my refund request while it waits (30044 once decided). Idempotency-Key accepted.',
      middleware: [requireAuth, idempotent] as const,
      request: { body: { content: { 'application/json': { schema: CardRefundIdBody } }, required: true } },
      responses: { 200: json(MyCardRefund), ...all },
    }),
    async (c) =>
      ok(c, await myCardRefundView(c.var.deps.db, await cancelCardRefund(c.var.deps.db, c.var.deps.clock, me(c), c.req.valid('json').id))),
  )
  .openapi(
    createRoute({
      method: 'get',
      path: '/mine',
      tags,
      summary:
        "My latest refund request on one of my cards (null when none), with its order's state (refunding, refund done, refund failed once approved)",
      middleware: [requireAuth] as const,
      request: { query: CardRefundQuery },
      responses: { 200: json(MyCardRefund.nullable()), 400: refusals[400], 401: refusals[401], 404: refusals[404] },
    }),
    async (c) => ok(c, (await myCardRefund(c.var.deps.db, me(c), c.req.valid('query').cardId)) ?? null),
  );

/** Staff: card refunds, approved or rejected (/api/staff/card-refunds). */
export const staffCardRefundRoutes = createRouter()
  .openapi(
    createRoute({
      method: 'get',
      path: '/',
      tags,
      summary:
        'Staff: card refund requests waiting for a decision, oldest first; with decided=1 the latest 20 approved or rejected, newest decision first, with who decided and when',
      middleware: [requireAuth, staffOnly()] as const,
      request: { query: StaffCardRefundsQuery },
      responses: { 200: json(z.array(StaffCardRefund)), 400: refusals[400], 401: refusals[401], 403: refusals[403] },
    }),
    async (c) => {
      const decided = c.req.valid('query').decided === '1';
      const { db, clock } = c.var.deps;
      return ok(c, await cardRefundsForStaff(db, decided ? { decided } : { preview: { now: clock.now() } }));
    },
  )
  .openapi(
    createRoute({
      method: 'post',
      path: '/approve',
      tags,
      summary:
        "Staff: approve a pending request: in one transaction the card becomes invalid, the order refunding, and each payer's share is refunded the way they paid (balance at once; WeChat Pay and Alipay by their refund APIs); the rules are checked again (their 30xxx codes). Who and when kept. Idempotency-Key accepted.",
      middleware: [requireAuth, staffOnly(), idempotent] as const,
      request: { body: { content: { 'application/json': { schema: CardRefundIdBody } }, required: true } },
      responses: { 200: json(StaffCardRefund), ...all },
    }),
    async (c) => {
      const r = await approveCardRefund(c.var.deps, me(c), c.req.valid('json').id, auditOf(c));
      return ok(c, await staffOne(c, r.id));
    },
  )
  .openapi(
    createRoute({
      method: 'post',
      path: '/reject',
      tags,
      summary: 'Staff: reject a pending request with the reason the member reads (who and when kept). Idempotency-Key accepted.',
      middleware: [requireAuth, staffOnly(), idempotent] as const,
      request: { body: { content: { 'application/json': { schema: CardRefundRejectBody } }, required: true } },
      responses: { 200: json(StaffCardRefund), ...all },
    }),
    async (c) => {
      const b = c.req.valid('json');
      const r = await rejectCardRefund(c.var.deps.db, c.var.deps.clock, me(c), b.id, b.reason, auditOf(c));
      return ok(c, await staffOne(c, r.id));
    },
  );
