import { createRoute, z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { RefundIdBody, StaffRefund } from '../../contracts/refunds';
import type { AppEnv, Caller } from '../env';
import { requireAuth } from '../http/auth';
import { auditOf } from '../http/audit';
import { idempotent } from '../http/idempotency';
import { createRouter, envelope, ok, refusals } from '../http/router';
import { refundsNeedingAttention, releaseRefund, settleRefund } from '../services/refunds/staff';
import { paymentsToRefund } from '../services/orders/read';
import { PaymentToRefund } from '../../contracts/orders';
import { staffOnly } from './staff-guard';

const json = <T extends z.ZodTypeAny>(schema: T, description = 'OK') => ({
  description,
  content: { 'application/json': { schema: envelope(schema) } },
});
const tags = ['refunds'];
const staffRefusals = { 400: refusals[400], 401: refusals[401], 403: refusals[403], 404: refusals[404], 409: refusals[409] } as const;
const RefundState = z.object({ refundId: z.number().int(), state: z.string() });
const me = (c: Context<AppEnv>) => (c.var.caller as Caller).accountId;

/** Staff: refunds needing attention, released or settled (decision 021; replaces decision 013's hand-refund list in time). */
export const staffRefundRoutes = createRouter()
  .openapi(
    createRoute({
      method: 'get',
      path: '/attention',
      tags,
      summary: 'Staff: refunds that failed at the provider (with its reason) or were held from before refunds existed, newest first',
      middleware: [requireAuth, staffOnly()] as const,
      responses: { 200: json(z.array(StaffRefund)), 401: refusals[401], 403: refusals[403] },
    }),
    async (c) =>
      ok(
        c,
        (await refundsNeedingAttention(c.var.deps.db)).map((r) => ({ ...r, createdAt: r.createdAt.toISOString() })),
      ),
  )
  .openapi(
    createRoute({
      method: 'post',
      path: '/release',
      tags,
      summary: 'Staff: a held refund is asked of its provider now (then by its job). Idempotency-Key accepted.',
      middleware: [requireAuth, staffOnly(), idempotent] as const,
      request: { body: { content: { 'application/json': { schema: RefundIdBody } }, required: true } },
      responses: { 200: json(RefundState), ...staffRefusals },
    }),
    async (c) => {
      const r = await releaseRefund(c.var.deps, c.req.valid('json').refundId, auditOf(c));
      return ok(c, { refundId: r.id, state: r.state });
    },
  )
  .openapi(
    createRoute({
      method: 'post',
      path: '/settle',
      tags,
      summary: 'Staff: a held or failed refund was given back another way (recorded with who did it). Idempotency-Key accepted.',
      middleware: [requireAuth, staffOnly(), idempotent] as const,
      request: { body: { content: { 'application/json': { schema: RefundIdBody } }, required: true } },
      responses: { 200: json(RefundState), ...staffRefusals },
    }),
    async (c) => {
      const r = await settleRefund(c.var.deps, me(c), c.req.valid('json').refundId, auditOf(c));
      return ok(c, { refundId: r.id, state: r.state });
    },
  );

/** Staff: provider payments to refund (/api/staff/payments), the list the refund desk works from. */
export const staffPaymentRoutes = createRouter().openapi(
  createRoute({
    method: 'get',
    path: '/needs-refund',
    tags: ['orders'],
    summary: 'Staff: provider payments taken for an order already paid or over, to refund (decision 013)',
    middleware: [requireAuth, staffOnly()] as const,
    responses: {
      200: json(z.array(PaymentToRefund)),
      401: refusals[401],
      403: refusals[403],
    },
  }),
  async (c) =>
    ok(
      c,
      (await paymentsToRefund(c.var.deps.db)).map((p) => ({ ...p, createdAt: p.createdAt.toISOString() })),
    ),
);
