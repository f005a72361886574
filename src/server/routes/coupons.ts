import { createRoute, z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { CouponGift, CouponGiftBody, CouponsQuery, MemberCoupon } from '../../contracts/coupons';
import { IdQuery, paged } from '../../contracts/common';
import { Errors } from '../../domain/errors';
import type { AppEnv, Caller } from '../env';
import { ApiError } from '../http/api-error';
import { requireAuth } from '../http/auth';
import { idempotent } from '../http/idempotency';
import { createRouter, envelope, ok, refusals } from '../http/router';
import { giftCoupon, giftsLeft } from '../services/coupons/gift';
import { myCoupons } from '../services/orders/mine';

const json = <T extends z.ZodTypeAny>(schema: T) => ({ description: 'OK', content: { 'application/json': { schema: envelope(schema) } } });
const tags = ['coupons'];
const me = (c: Context<AppEnv>) => (c.var.caller as Caller).accountId;

/** One of my coupons and gifting it (spec §2 /mine/coupons/all/Donation, §5, §8; decision 032). */
export const couponRoutes = createRouter()
  .openapi(
    createRoute({
      method: 'get',
      path: '/',
      tags,
      summary: 'My coupons by spec §4 tab (unused, used, expired, transferred), paged',
      middleware: [requireAuth] as const,
      request: { query: CouponsQuery },
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
      path: '/detail',
      tags,
      summary: 'One of my coupons (another member’s is 404), with the gifts I may still make',
      middleware: [requireAuth] as const,
      request: { query: IdQuery },
      responses: {
        200: json(z.object({ coupon: MemberCoupon, giftsLeft: z.number().int() })),
        400: refusals[400],
        401: refusals[401],
        404: refusals[404],
      },
    }),
    async (c) => {
      const { deps } = c.var;
      const page = await myCoupons(deps.db, deps.clock.now(), me(c), undefined, c.var.locale, 0, 1, c.req.valid('query').id);
      const coupon = page.list[0];
      if (!coupon) throw new ApiError(Errors.notFound, { field: 'id' });
      return ok(c, { coupon, giftsLeft: Math.min(999, await giftsLeft(deps.db, me(c), deps.clock.now())) });
    },
  )
  .openapi(
    createRoute({
      method: 'post',
      path: '/gift',
      tags,
      summary:
        'Give one of my unused coupons to another member by phone, the gifting terms accepted: in one transaction it leaves me (transferred) and arrives with them. 30036 no such member, 70112 to myself, 70110 not unused or past its validity, 70111 gift limit reached; another member’s coupon 404. Idempotency-Key accepted.',
      middleware: [requireAuth, idempotent] as const,
      request: { body: { content: { 'application/json': { schema: CouponGiftBody } }, required: true } },
      responses: { 200: json(CouponGift), 400: refusals[400], 401: refusals[401], 404: refusals[404], 409: refusals[409] },
    }),
    async (c) => {
      const { couponId, phone } = c.req.valid('json');
      return ok(c, await giftCoupon(c.var.deps.db, c.var.deps.clock, me(c), { couponId, phone }));
    },
  );
