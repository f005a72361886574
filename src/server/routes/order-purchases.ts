import { createRoute, z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { Errors } from '../../domain/errors';
import type { AppEnv, Caller } from '../env';
import { requireAuth } from '../http/auth';
import { createRouter, envelope, ok, refusals } from '../http/router';
import { translate } from '../i18n';
import { checkFlashSale } from '../services/flash-sale/flash-sale';
import { couponsFor, priceCheckout } from '../services/orders/checkout';
import { myCourses, myPurchases } from '../services/orders/mine';
import { balanceOf } from '../services/orders/balance';
import { loc } from '../services/catalog';
import { paged, pagingQuery } from '../../contracts/common';
import { MemberCourse, Purchase } from '../../contracts/cards';
import { Quote, QuoteBody } from '../../contracts/orders';

const json = <T extends z.ZodTypeAny>(schema: T, description = 'OK') => ({
  description,
  content: { 'application/json': { schema: envelope(schema) } },
});
const tags = ['buying'];
const me = (c: Context<AppEnv>) => (c.var.caller as Caller).accountId;
/** The checkout quote (/api/orders/quote); my courses and purchases below. */
export const buyingRoutes = createRouter().openapi(
  createRoute({
    method: 'post',
    path: '/',
    tags,
    summary: 'Price a checkout on the server before creating the order (no side effects): price, coupon, balance, amount to pay',
    middleware: [requireAuth] as const,
    request: { body: { content: { 'application/json': { schema: QuoteBody } }, required: true } },
    responses: { 200: json(Quote), 400: refusals[400], 401: refusals[401], 404: refusals[404], 409: refusals[409] },
  }),
  async (c) => {
    const { deps, locale } = c.var;
    const accountId = me(c);
    const input = c.req.valid('json');
    // a sold-out, upcoming or ended flash sale refuses the quote as order creation would (decision 009)
    if (input.goodsId) await checkFlashSale(deps.db, input.goodsId, deps.clock.now());
    const balance = await balanceOf(deps.db, accountId);
    const {
      goods: g,
      phase,
      teacherId,
      coupon,
      quote,
    } = await priceCheckout(deps.db, deps.clock, accountId, input, balance, { lock: false });
    const coupons = await couponsFor(deps.db, accountId, g, quote.priceCents, deps.clock.now());
    return ok(c, {
      goodsId: g.id,
      goodsName: loc(locale, g.name, g.nameEn),
      kind: g.kind,
      phaseId: phase?.id ?? null,
      teacherId,
      couponId: coupon?.id ?? null,
      ...quote,
      balanceCents: balance,
      coupons: coupons.map((x) => ({
        id: x.coupon.id,
        name: loc(locale, x.coupon.name, x.coupon.nameEn),
        offCents: x.coupon.offCents,
        percentOff: x.coupon.percentOff,
        minSpendCents: x.coupon.minSpendCents,
        validUntil: x.coupon.validUntil.toISOString(),
        deductionCents: x.deductionCents,
        usable: x.refusal === null,
        code: x.refusal ? Errors[x.refusal].code : null,
        message: x.refusal ? translate(locale, Errors[x.refusal].message) : null,
      })),
    });
  },
);

/** My courses (/api/customers/courses). */
export const courseRoutes = createRouter().openapi(
  createRoute({
    method: 'get',
    path: '/',
    tags,
    summary: 'My goods (/mycourse): courses I bought with their uses left, newest first',
    middleware: [requireAuth] as const,
    request: { query: z.object(pagingQuery(10)) },
    responses: { 200: json(paged(MemberCourse)), 400: refusals[400], 401: refusals[401] },
  }),
  async (c) => {
    const { pagenum, pagesize } = c.req.valid('query');
    return ok(c, await myCourses(c.var.deps.db, c.var.deps.clock.now(), me(c), c.var.locale, pagenum, pagesize));
  },
);

/** My purchases (/api/customers/purchases). */
export const purchaseRoutes = createRouter().openapi(
  createRoute({
    method: 'get',
    path: '/',
    tags,
    summary: 'My purchase history (/myPurchaseHistory): paid orders (and refunding or refunded), newest first',
    middleware: [requireAuth] as const,
    request: { query: z.object(pagingQuery(10)) },
    responses: { 200: json(paged(Purchase)), 400: refusals[400], 401: refusals[401] },
  }),
  async (c) => {
    const { pagenum, pagesize } = c.req.valid('query');
    return ok(c, await myPurchases(c.var.deps.db, me(c), c.var.locale, pagenum, pagesize));
  },
);
