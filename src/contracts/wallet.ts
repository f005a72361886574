import { z } from '@hono/zod-openapi';
import { GOODS_KIND_VALUES } from '../domain/catalog';
import { COUPON_STATES } from '../domain/pricing';
import { pagingQuery } from './common';

/** My coupons (spec §3 coupon: discount, validity); the balance ledger row is in ./orders (LedgerRow). */
const IsoTime = z.string().openapi({ example: '2026-11-22T02:00:00.000Z' });

/** One of my coupons; `state` is the spec §4 tab it shows under. */
export const MemberCoupon = z
  .object({
    id: z.number().int(),
    name: z.string(),
    offCents: z.number().int(),
    percentOff: z.number().int().nullable(),
    minSpendCents: z.number().int(),
    appliesTo: z.array(z.enum(GOODS_KIND_VALUES)).openapi({ description: 'goods kinds it applies to; empty = every kind but coupons' }),
    validFrom: IsoTime,
    validUntil: IsoTime,
    state: z.enum(COUPON_STATES),
    usedAt: IsoTime.nullable(),
  })
  .openapi('MemberCoupon');
export type MemberCoupon = z.infer<typeof MemberCoupon>;

/** GET /customers/coupons: a page of one tab (or of all). */
export const CouponsQuery = z.object({ ...pagingQuery(20), state: z.enum(COUPON_STATES).optional().openapi({ param: { name: 'state', in: 'query' } }) });
export type CouponsQuery = z.infer<typeof CouponsQuery>;
