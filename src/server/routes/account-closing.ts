import { createRoute, z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import {
  ClosingConfirmBody,
  ClosingRefuseBody,
  ClosingRequestBody,
  MyAccountClosing,
  StaffAccountClosing,
} from '../../contracts/account-closing';
import type { AppEnv, Caller } from '../env';
import { auditOf } from '../http/audit';
import { requireAuth } from '../http/auth';
import { idempotent } from '../http/idempotency';
import { createRouter, envelope, ok, refusals } from '../http/router';
import {
  closingsForStaff,
  confirmClosing,
  myClosing,
  refuseClosing,
  requestClosing,
  staffClosing,
  withdrawClosing,
} from '../services/account-closing/account-closing';
import { staffOnly } from './staff-guard';

const json = <T extends z.ZodTypeAny>(schema: T) => ({ description: 'OK', content: { 'application/json': { schema: envelope(schema) } } });
const tags = ['account'];
const me = (c: Context<AppEnv>) => (c.var.caller as Caller).accountId;
const all = { 400: refusals[400], 401: refusals[401], 403: refusals[403], 404: refusals[404], 409: refusals[409] } as const;

/**
 * Closing an account (PIPL; decision 057): the member asks (refused while they hold a live card or
 * course, 10030; an order with money moving, 10031; a balance, 10032; a booking to come, 10033; a
 * transfer or card refund staff have not decided, 10034; a request open already, 10035), reads it and
 * withdraws it (10036 when none is open); staff confirm it (the personal data erased, money and legal
 * records kept) or refuse it with a reason (10037 empty). Both staff decisions are in the audit log.
 */
export const accountClosingRoutes = createRouter()
  .openapi(
    createRoute({
      method: 'post',
      path: '/',
      tags,
      summary:
        'Ask to close my account (members only: 70008); 10030-10034 while I hold something of value or undecided, 10035 one open already. Idempotency-Key accepted.',
      middleware: [requireAuth, idempotent] as const,
      request: { body: { content: { 'application/json': { schema: ClosingRequestBody } }, required: true } },
      responses: { 200: json(MyAccountClosing), ...all },
    }),
    async (c) => ok(c, await requestClosing(c.var.deps.db, c.var.deps.clock, me(c), c.req.valid('json').note)),
  )
  .openapi(
    createRoute({
      method: 'get',
      path: '/',
      tags,
      summary: 'My latest request to close my account (null when I never asked): its state, the reason when refused',
      middleware: [requireAuth] as const,
      responses: { 200: json(MyAccountClosing.nullable()), 401: refusals[401] },
    }),
    async (c) => ok(c, await myClosing(c.var.deps.db, me(c))),
  )
  .openapi(
    createRoute({
      method: 'post',
      path: '/withdraw',
      tags,
      summary: 'Withdraw my open request to close my account (10036 none open: decided or withdrawn already). Idempotency-Key accepted.',
      middleware: [requireAuth, idempotent] as const,
      responses: { 200: json(MyAccountClosing), ...all },
    }),
    async (c) => ok(c, await withdrawClosing(c.var.deps.db, c.var.deps.clock, me(c))),
  );

/** Staff: closing requests, confirmed or refused (/api/staff/account-closings). */
export const staffAccountClosingRoutes = createRouter()
  .openapi(
    createRoute({
      method: 'get',
      path: '/',
      tags,
      summary: 'Staff: requests to close an account waiting to be confirmed or refused, oldest first',
      middleware: [requireAuth, staffOnly()] as const,
      responses: { 200: json(z.array(StaffAccountClosing)), 401: refusals[401], 403: refusals[403] },
    }),
    async (c) => ok(c, await closingsForStaff(c.var.deps.db)),
  )
  .openapi(
    createRoute({
      method: 'post',
      path: '/confirm',
      tags,
      summary:
        'Staff: confirm a request: the personal data erased or anonymised, sessions revoked, no login afterwards; orders, payments, ledger, invoices and audit kept (10030-10034 when the member holds something again; 10036 decided already). Audited. Idempotency-Key accepted.',
      middleware: [requireAuth, staffOnly(), idempotent] as const,
      request: { body: { content: { 'application/json': { schema: ClosingConfirmBody } }, required: true } },
      responses: { 200: json(StaffAccountClosing), ...all },
    }),
    async (c) => {
      const { id } = c.req.valid('json');
      await confirmClosing(c.var.deps.db, c.var.deps.clock, me(c), id, auditOf(c));
      return ok(c, await staffClosing(c.var.deps.db, id));
    },
  )
  .openapi(
    createRoute({
      method: 'post',
      path: '/refuse',
      tags,
      summary:
        'Staff: refuse a request with the reason the member reads (10037 empty; 10036 decided already). Audited. Idempotency-Key accepted.',
      middleware: [requireAuth, staffOnly(), idempotent] as const,
      request: { body: { content: { 'application/json': { schema: ClosingRefuseBody } }, required: true } },
      responses: { 200: json(StaffAccountClosing), ...all },
    }),
    async (c) => {
      const b = c.req.valid('json');
      await refuseClosing(c.var.deps.db, c.var.deps.clock, me(c), b.id, b.reason, auditOf(c));
      return ok(c, await staffClosing(c.var.deps.db, b.id));
    },
  );
