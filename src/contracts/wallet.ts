import { z } from '@hono/zod-openapi';
import { LEDGER_REASONS } from '../domain/balance-ledger';
import { GOODS_KIND_VALUES } from '../domain/catalog';
import { COUPON_STATES } from '../domain/pricing';
import { pagingQuery } from './common';

/** My coupons (spec §3 coupon: discount, validity) and my balance history (decision 021). */
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

/**
 * One row of my balance history (GET /customers/balance/history, newest first): a change of my
 * balance, why, the order it belongs to, and my balance after it (the running sum of my ledger up to
 * this row, computed by the query, never stored).
 */
export const BalanceLedgerRow = z
  .object({
    id: z.number().int(),
    changeCents: z.number().int().openapi({ description: 'signed: money in is positive, money out negative' }),
    reason: z.enum(LEDGER_REASONS),
    orderId: z.number().int().nullable().openapi({ description: 'the order it belongs to (null for a top-up or grant)' }),
    orderNo: z.string().nullable(),
    goodsName: z.string().nullable().openapi({ description: "the order's goods, in the caller's language" }),
    createdAt: IsoTime,
    balanceAfterCents: z
      .number()
      .int()
      .openapi({ description: 'my balance after this change: the sum of my ledger up to and including this row' }),
  })
  .openapi('BalanceLedgerRow');
export type BalanceLedgerRow = z.infer<typeof BalanceLedgerRow>;

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
