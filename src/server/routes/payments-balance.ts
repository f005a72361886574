import { createRoute, z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import type { AppEnv, Caller } from '../env';
import { requireAuth } from '../http/auth';
import { createRouter, envelope, ok, refusals } from '../http/router';
import { balanceOf } from '../services/orders/balance';
import { myBalanceHistory } from '../services/payments-balance-history';
import { paged, pagingQuery } from '../../contracts/common';
import { BalanceLedgerRow } from '../../contracts/payments';
import { Balance } from '../../contracts/orders';

const json = <T extends z.ZodTypeAny>(schema: T, description = 'OK') => ({
  description,
  content: { 'application/json': { schema: envelope(schema) } },
});
const tags = ['orders'];

const me = (c: Context<AppEnv>) => (c.var.caller as Caller).accountId;

/** My balance and its history (/api/customers/balance). */
export const balanceRoutes = createRouter()
  .openapi(
    createRoute({
      method: 'get',
      path: '/',
      tags,
      summary: 'My balance in cents (the sum of my ledger)',
      middleware: [requireAuth] as const,
      responses: { 200: json(Balance), 401: refusals[401] },
    }),
    async (c) => ok(c, { balanceCents: await balanceOf(c.var.deps.db, me(c)) }),
  )
  .openapi(
    createRoute({
      method: 'get',
      path: '/history',
      tags,
      summary:
        'My balance history (/mine/balanceHistory): my ledger newest first (paged), each change with why, its order and goods, and my balance after it',
      middleware: [requireAuth] as const,
      request: { query: z.object(pagingQuery(20)) },
      responses: { 200: json(paged(BalanceLedgerRow)), 400: refusals[400], 401: refusals[401] },
    }),
    async (c) => {
      const { pagenum, pagesize } = c.req.valid('query');
      return ok(c, await myBalanceHistory(c.var.deps.db, me(c), c.var.locale, pagenum, pagesize));
    },
  );
