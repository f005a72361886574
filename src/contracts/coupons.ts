import { z } from '@hono/zod-openapi';
import { GOODS_KIND_VALUES } from '../domain/catalog';
import { COUPON_STATES } from '../domain/pricing';
import { pagingQuery } from './common';

/** My coupons (spec §3 coupon: discount, validity). */
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
    giftedAt: IsoTime.nullable().openapi({ description: 'when I gave it away (transferred)' }),
    giftedTo: z.string().nullable().openapi({ description: 'to whom I gave it: the phone masked' }),
    giftedFrom: z.string().nullable().openapi({ description: 'a coupon I received as a gift: the giver’s phone masked' }),
  })
  .openapi('MemberCoupon');
export type MemberCoupon = z.infer<typeof MemberCoupon>;

/** GET /customers/coupons: a page of one tab (or of all). */
export const CouponsQuery = z.object({
  ...pagingQuery(20),
  state: z
    .enum(COUPON_STATES)
    .optional()
    .openapi({ param: { name: 'state', in: 'query' } }),
});
export type CouponsQuery = z.infer<typeof CouponsQuery>;

/** POST /customers/coupons/gift (spec §5 "coupon gift needs agreement and a phone"; decision 032). */
export const CouponGiftBody = z
  .object({
    couponId: z.number().int().min(1).max(2_147_483_647),
    phone: z.string().trim().min(1).max(32).openapi({ description: "the friend's phone (a member)" }),
    agreed: z.literal(true).openapi({ description: 'the gifting terms accepted' }),
  })
  .openapi('CouponGift');
export type CouponGiftBody = z.input<typeof CouponGiftBody>;

/** The gift as the giver sees it: the coupon now transferred, to whom (masked), and the gifts left. */
export const CouponGift = z
  .object({
    couponId: z.number().int(),
    state: z.enum(COUPON_STATES),
    recipientName: z.string().openapi({ description: 'the friend’s name, all but the last character masked' }),
    recipientPhone: z.string().openapi({ example: '137****0001' }),
    giftsLeft: z.number().int().openapi({ description: 'gifts the giver may still make in the period' }),
  })
  .openapi('CouponGiftDone');
export type CouponGift = z.infer<typeof CouponGift>;
