import { createRoute, z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import {
  InvoiceableOrder,
  InvoiceIssueBody,
  InvoicePath,
  InvoiceRefuseBody,
  InvoiceRequestBody,
  MyInvoice,
  StaffInvoice,
} from '../../contracts/invoices';
import type { AppEnv, Caller } from '../env';
import { requireAuth, requireAuthOrCookie } from '../http/auth';
import { idempotent } from '../http/idempotency';
import { createRouter, envelope, ok, refusals } from '../http/router';
import {
  invoiceableOrders,
  invoicesForStaff,
  issueInvoice,
  myInvoice,
  myInvoicePdf,
  myInvoices,
  refuseInvoice,
  requestInvoice,
  staffInvoice,
} from '../services/invoices/invoices';
import { staffOnly } from './staff-guard';
import { auditOf } from '../http/audit';

const json = <T extends z.ZodTypeAny>(schema: T) => ({ description: 'OK', content: { 'application/json': { schema: envelope(schema) } } });
const tags = ['invoices'];
const me = (c: Context<AppEnv>) => (c.var.caller as Caller).accountId;
const all = { 400: refusals[400], 401: refusals[401], 403: refusals[403], 404: refusals[404], 409: refusals[409] } as const;

/**
 * Invoices (spec §3, §5; decision 044): the member asks for one invoice over some of their
 * paid orders not yet invoiced; staff of the orders' club issue it (the server writes its number and
 * PDF) or refuse it with a reason; the member downloads the PDF. Another member's request is 404.
 */
export const invoiceRoutes = createRouter()
  .openapi(
    createRoute({
      method: 'get',
      path: '/orders',
      tags,
      summary: 'My paid orders not yet invoiced or asked for (not being refunded), newest first, with the amount each adds',
      middleware: [requireAuth] as const,
      responses: { 200: json(z.array(InvoiceableOrder)), 401: refusals[401] },
    }),
    async (c) => ok(c, await invoiceableOrders(c.var.deps.db, me(c), c.var.locale)),
  )
  .openapi(
    createRoute({
      method: 'post',
      path: '/',
      tags,
      summary:
        'Ask for one invoice over my paid orders: title (70180), taxpayer number (70181 shape, 70182 check character), address (70183) required; phone (70184), bank name, bank account (70185) optional; each order mine (404), paid (70186), not invoiced or asked for (70187). Idempotency-Key accepted.',
      middleware: [requireAuth, idempotent] as const,
      request: { body: { content: { 'application/json': { schema: InvoiceRequestBody } }, required: true } },
      responses: { 200: json(MyInvoice), ...all },
    }),
    async (c) => {
      const row = await requestInvoice(c.var.deps.db, c.var.deps.clock, me(c), c.req.valid('json'));
      return ok(c, await myInvoice(c.var.deps.db, me(c), row.id, c.var.locale));
    },
  )
  .openapi(
    createRoute({
      method: 'get',
      path: '/',
      tags,
      summary: 'My invoice requests, newest first: state, number when issued, the reason when refused',
      middleware: [requireAuth] as const,
      responses: { 200: json(z.array(MyInvoice)), 401: refusals[401] },
    }),
    async (c) => ok(c, await myInvoices(c.var.deps.db, me(c), c.var.locale)),
  )
  .openapi(
    createRoute({
      method: 'get',
      path: '/{id}/pdf',
      tags,
      summary:
        "The PDF of one of my issued invoices (the token cookie works, so a link downloads it); not issued, voided or another member's: 404",
      middleware: [requireAuthOrCookie] as const,
      request: { params: InvoicePath },
      responses: {
        200: { description: 'the invoice', content: { 'application/pdf': { schema: z.string() } } },
        400: refusals[400],
        401: refusals[401],
        404: refusals[404],
      },
    }),
    async (c) => {
      const { number, pdf } = await myInvoicePdf(c.var.deps.db, me(c), c.req.valid('param').id);
      return new Response(new Uint8Array(pdf), {
        status: 200,
        headers: {
          'Content-Type': 'application/pdf',
          'Content-Disposition': `attachment; filename="${number}.pdf"`,
          'Cache-Control': 'private, no-store',
          'X-Content-Type-Options': 'nosniff',
        },
      });
    },
  );

/** Staff: invoice requests, issued or refused (/api/staff/invoices). */
export const staffInvoiceRoutes = createRouter()
  .openapi(
    createRoute({
      method: 'get',
      path: '/',
      tags,
      summary: 'Staff: invoice requests of my clubs (and those spanning clubs) waiting to be issued or refused, oldest first',
      middleware: [requireAuth, staffOnly()] as const,
      responses: { 200: json(z.array(StaffInvoice)), 401: refusals[401], 403: refusals[403] },
    }),
    async (c) => ok(c, await invoicesForStaff(c.var.deps.db, me(c), c.var.locale)),
  )
  .openapi(
    createRoute({
      method: 'post',
      path: '/issue',
      tags,
      summary:
        'Staff: issue a request of my clubs (its number and PDF written; 70186 when an order was refunded meanwhile; 70188 decided already; 404 outside my clubs); the member is notified. Idempotency-Key accepted.',
      middleware: [requireAuth, staffOnly(), idempotent] as const,
      request: { body: { content: { 'application/json': { schema: InvoiceIssueBody } }, required: true } },
      responses: { 200: json(StaffInvoice), ...all },
    }),
    async (c) => {
      const { id } = c.req.valid('json');
      await issueInvoice(c.var.deps.db, c.var.deps.clock, me(c), id, auditOf(c));
      return ok(c, await staffInvoice(c.var.deps.db, me(c), id, c.var.locale));
    },
  )
  .openapi(
    createRoute({
      method: 'post',
      path: '/refuse',
      tags,
      summary:
        'Staff: refuse a request of my clubs with the reason the member reads (70189 empty; 70188 decided already); its orders may be asked for again. Idempotency-Key accepted.',
      middleware: [requireAuth, staffOnly(), idempotent] as const,
      request: { body: { content: { 'application/json': { schema: InvoiceRefuseBody } }, required: true } },
      responses: { 200: json(StaffInvoice), ...all },
    }),
    async (c) => {
      const b = c.req.valid('json');
      await refuseInvoice(c.var.deps.db, c.var.deps.clock, me(c), b.id, b.reason, auditOf(c));
      return ok(c, await staffInvoice(c.var.deps.db, me(c), b.id, c.var.locale));
    },
  );
