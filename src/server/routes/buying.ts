import { createRoute, z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { CARD_STATUSES } from '../../domain/booking-rules';
import { GOODS_KIND_VALUES } from '../../domain/catalog';
import { Errors } from '../../domain/errors';
import { ORDER_STATES } from '../../domain/orders';
import { COUPON_STATES } from '../../domain/pricing';
import type { AppEnv, Caller } from '../env';
import { ApiError } from '../http/api-error';
import { requireAuth } from '../http/auth';
import { idempotent } from '../http/idempotency';
import { createRouter, envelope, ok, refusals } from '../http/router';
import { translate } from '../i18n';
import { activateCard } from '../services/cards/activate';
import { checkFlashSale } from '../services/flash-sale/flash-sale';
import { couponsFor, priceCheckout } from '../services/orders/checkout';
import { myCardDetail, myCardHistory, myCoupons, myCourses, myPurchases } from '../services/orders/mine';
import { balanceOf } from '../services/orders/orders';
import { loc } from '../services/catalog';
import { MemberCard } from './booking-schemas';
import { IdParam, IdQuery, paged, pagingQuery } from './catalog-schemas';

const json = <T extends z.ZodTypeAny>(schema: T, description = 'OK') => ({ description, content: { 'application/json': { schema: envelope(schema) } } });
const tags = ['buying'];
const me = (c: Context<AppEnv>) => (c.var.caller as Caller).accountId;
const IsoTime = z.string().openapi({ example: '2026-11-22T02:00:00.000Z' });

const QuoteBody = z
  .object({
    goodsId: IdParam.optional(),
    phaseId: IdParam.optional(),
    teacherId: IdParam.optional(),
    couponId: IdParam.optional(),
    useBalance: z.boolean().optional(),
  })
  .openapi('QuoteBody');

const QuoteCoupon = z
  .object({
    id: z.number().int(),
    name: z.string(),
    offCents: z.number().int(),
    percentOff: z.number().int().nullable(),
    minSpendCents: z.number().int(),
    validUntil: IsoTime,
    deductionCents: z.number().int().openapi({ description: 'what it would take off this price' }),
    usable: z.boolean(),
    code: z.number().int().nullable(),
    message: z.string().nullable(),
  })
  .openapi('QuoteCoupon');

const Quote = z
  .object({
    goodsId: z.number().int(),
    goodsName: z.string(),
    kind: z.enum(GOODS_KIND_VALUES),
    phaseId: z.number().int().nullable(),
    teacherId: z.number().int().nullable(),
    couponId: z.number().int().nullable(),
    listPriceCents: z.number().int(),
    memberPriceCents: z.number().int(),
    priceCents: z.number().int(),
    couponDeductionCents: z.number().int(),
    balanceCents: z.number().int().openapi({ description: 'my balance now' }),
    balanceUsedCents: z.number().int(),
    amountToPayCents: z.number().int(),
    coupons: z.array(QuoteCoupon).openapi({ description: 'my unused coupons for these goods (those under their minimum spend with usable false)' }),
  })
  .openapi('Quote');

const MemberCoupon = z
  .object({
    id: z.number().int(),
    name: z.string(),
    offCents: z.number().int(),
    percentOff: z.number().int().nullable(),
    minSpendCents: z.number().int(),
    appliesTo: z.array(z.string()),
    validFrom: IsoTime,
    validUntil: IsoTime,
    state: z.enum(COUPON_STATES),
    usedAt: IsoTime.nullable(),
  })
  .openapi('MemberCoupon');

const MemberCourse = z
  .object({
    id: z.number().int(),
    goodsId: z.number().int(),
    kind: z.enum(GOODS_KIND_VALUES),
    name: z.string(),
    image: z.string(),
    phaseId: z.number().int().nullable(),
    phaseName: z.string().nullable(),
    teacherId: z.number().int().nullable(),
    teacherName: z.string().nullable(),
    clubId: z.number().int().nullable(),
    clubName: z.string().nullable(),
    usesTotal: z.number().int().nullable(),
    usesLeft: z.number().int().nullable(),
    startsAt: IsoTime.nullable(),
    endsAt: IsoTime.nullable(),
    validUntil: IsoTime.nullable(),
    status: z.enum(['active', 'used_up', 'expired']),
    orderNo: z.string(),
    boughtAt: IsoTime,
  })
  .openapi('MemberCourse');

const Purchase = z
  .object({
    orderNo: z.string(),
    goodsId: z.number().int(),
    goodsName: z.string(),
    goodsKind: z.enum(GOODS_KIND_VALUES),
    image: z.string(),
    phaseName: z.string().nullable(),
    teacherName: z.string().nullable(),
    priceCents: z.number().int(),
    couponDeductionCents: z.number().int(),
    balanceUsedCents: z.number().int(),
    amountToPayCents: z.number().int(),
    state: z.enum(ORDER_STATES),
    payMethod: z.string().nullable(),
    paidAt: IsoTime.nullable(),
  })
  .openapi('Purchase');

const CardHistoryItem = z
  .object({
    kind: z.enum(['bought', 'activated', 'class']),
    at: IsoTime,
    orderNo: z.string().optional().openapi({ description: 'bought' }),
    paidCents: z.number().int().optional().openapi({ description: 'bought: price less the coupon' }),
    bookingId: z.number().int().optional().openapi({ description: 'class' }),
    state: z.string().optional().openapi({ description: 'class: the booking state' }),
    usesSpent: z.number().int().optional().openapi({ description: 'class: 0 once cancelled (uses given back)' }),
    classTitle: z.string().optional(),
    clubName: z.string().optional(),
    classStartsAt: IsoTime.optional(),
  })
  .openapi('CardHistoryItem');

const CardDetail = MemberCard.extend({
  status: z.enum(CARD_STATUSES).openapi({ description: 'as the member sees it: in use past its validity reads expired' }),
  goodsId: z.number().int().nullable(),
  clubName: z.string().nullable(),
  usesUsed: z.number().int().nullable(),
  operations: z.array(z.enum(['activate', 'freeze', 'unfreeze', 'transfer', 'extend', 'refund'])).openapi({ description: 'what the card chart allows now and this server has an endpoint for (services/cards/operations.ts)' }),
}).openapi('CardDetail');

/** Checkout quote, my coupons, my goods, my purchases and a card's detail (issue 4). */
export const buyingRoutes = createRouter()
  .openapi(
    createRoute({
      method: 'post',
      path: '/orders/quote',
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
      const { goods: g, phase, teacherId, coupon, quote } = await priceCheckout(deps.db, deps.clock, accountId, input, balance, { lock: false });
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
  )
  .openapi(
    createRoute({
      method: 'get',
      path: '/customers/coupons',
      tags,
      summary: 'My coupons by spec §4 tab (unused, used, expired, transferred), paged',
      middleware: [requireAuth] as const,
      request: { query: z.object({ ...pagingQuery(20), state: z.enum(COUPON_STATES).optional().openapi({ param: { name: 'state', in: 'query' } }) }) },
      responses: { 200: json(paged(MemberCoupon)), 400: refusals[400], 401: refusals[401] },
    }),
    async (c) => {
      const { pagenum, pagesize, state } = c.req.valid('query');
      return ok(c, await myCoupons(c.var.deps.db, c.var.deps.clock.now(), me(c), state, c.var.locale, pagenum, pagesize));
    },
  )
  .openapi(
    createRoute({
      method: 'get',
      path: '/customers/courses',
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
  )
  .openapi(
    createRoute({
      method: 'get',
      path: '/customers/purchases',
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
  )
  .openapi(
    createRoute({
      method: 'get',
      path: '/customers/cards/detail',
      tags,
      summary: "One of my cards with its history (another member's card is 404)",
      middleware: [requireAuth] as const,
      request: { query: IdQuery },
      responses: { 200: json(CardDetail), 400: refusals[400], 401: refusals[401], 404: refusals[404] },
    }),
    async (c) => {
      const detail = await myCardDetail(c.var.deps.db, c.var.deps.clock.now(), me(c), c.req.valid('query').id, c.var.locale);
      if (!detail) throw new ApiError(Errors.notFound, { field: 'id' });
      return ok(c, detail);
    },
  )
  .openapi(
    createRoute({
      method: 'post',
      path: '/customers/cards/activate',
      tags,
      summary: 'Activate one of my inactive cards (the card chart decides; 30001 otherwise). Idempotency-Key accepted.',
      middleware: [requireAuth, idempotent] as const,
      request: { body: { content: { 'application/json': { schema: z.object({ id: IdParam }).openapi('CardIdBody') } }, required: true } },
      responses: { 200: json(CardDetail), 400: refusals[400], 401: refusals[401], 404: refusals[404], 409: refusals[409] },
    }),
    async (c) => {
      const { deps, locale } = c.var;
      const card = await activateCard(deps.db, deps.clock, me(c), c.req.valid('json').id);
      return ok(c, (await myCardDetail(deps.db, deps.clock.now(), me(c), card.id, locale))!);
    },
  )
  .openapi(
    createRoute({
      method: 'get',
      path: '/customers/cards/history',
      tags,
      summary: "One of my cards' history, newest first: bought, activated, classes booked with it (paged)",
      middleware: [requireAuth] as const,
      request: { query: z.object({ ...IdQuery.shape, ...pagingQuery(20) }) },
      responses: { 200: json(paged(CardHistoryItem)), 400: refusals[400], 401: refusals[401], 404: refusals[404] },
    }),
    async (c) => {
      const { id, pagenum, pagesize } = c.req.valid('query');
      const page = await myCardHistory(c.var.deps.db, me(c), id, c.var.locale, pagenum, pagesize);
      if (!page) throw new ApiError(Errors.notFound, { field: 'id' });
      return ok(c, page);
    },
  );
