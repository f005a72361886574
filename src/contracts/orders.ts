import { z } from '@hono/zod-openapi';
import { GOODS_KIND_VALUES } from '../domain/catalog';
import {
  FRIEND_INVITATION_STATE_VALUES,
  ORDER_ACTIONS,
  ORDER_LIST_FILTERS,
  ORDER_STATES,
  type OrderListFilter,
  PART_ACTIONS,
  PART_HOLDERS,
  PAY_METHODS,
  PAYMENT_PART_STATE_VALUES,
  REFUND_STATE_VALUES,
} from '../domain/orders';
import { IdField, pagingQuery, type PageQuery } from './common';

/** Orders, checkout quotes and payment: the requests and answers the server documents and checks and the app reads. */
const IsoTime = z.string().openapi({ example: '2026-11-22T02:00:00.000Z' });

export const QuoteBody = z
  .object({
    goodsId: IdField.optional(),
    phaseId: IdField.optional(),
    teacherId: IdField.optional(),
    couponId: IdField.optional(),
    useBalance: z.boolean().optional(),
  })
  .openapi('QuoteBody');
/** What a checkout sends to be priced or ordered (the server prices it; the client's numbers are never sent). */
export type QuoteBody = z.input<typeof QuoteBody>;

export const QuoteCoupon = z
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
/** A coupon of mine as the quote offers it for these goods. */
export type QuoteCoupon = z.infer<typeof QuoteCoupon>;

export const Quote = z
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
    coupons: z
      .array(QuoteCoupon)
      .openapi({ description: 'my unused coupons for these goods (those under their minimum spend with usable false)' }),
  })
  .openapi('Quote');
/** POST /orders/quote: the server's price of a checkout before the order exists. */
export type Quote = z.infer<typeof Quote>;

/** Who paid one line of an order's money, and how (decision 101). */
export const MoneyPayer = z
  .object({
    who: z
      .enum(['me', 'friend'])
      .openapi({ description: "me: the order's member (their balance or their own trade); friend: a friend's payment of an invitation" }),
    name: z.string().nullable().openapi({
      description:
        'a friend: the name they chose to show in the messaging app, else the name other members see (masked); null: me, or a friend with neither',
    }),
    method: z.enum(['balance', 'wechat', 'alipay']),
    paidCents: z.number().int().openapi({ description: 'what this payer paid by this method (applied payments)' }),
    refundedCents: z.number().int().openapi({ description: 'of it, back with this payer by the same method' }),
    refundingCents: z.number().int().openapi({ description: 'of it, on its way back' }),
  })
  .openapi('MoneyPayer');
export type MoneyPayer = z.infer<typeof MoneyPayer>;

/**
 * An order's money told one way on every screen (decision 101): what the goods cost, the coupon, each
 * payer's line (method, friend's name, refunds) and what is left to pay. `paidCents` (实付) is always
 * the sum of the payers' `paidCents`, the balance included. Scope `share`: the friend's page, only the
 * share asked of the friend (its amount as `goodsTotalCents`, no coupon) and the friend's own payment.
 */
export const MoneyBreakdown = z
  .object({
    scope: z.enum(['order', 'share']),
    goodsTotalCents: z.number().int().openapi({ description: 'order: the price before the coupon; share: the amount asked' }),
    couponCents: z.number().int(),
    paidCents: z.number().int().openapi({ description: "实付: the sum of the payers' paidCents, the balance included" }),
    refundedCents: z.number().int().openapi({ description: "the sum of the payers' refundedCents" }),
    refundingCents: z.number().int(),
    toPayCents: z.number().int().openapi({ description: 'what is still to pay (the live parts waiting for money)' }),
    payers: z.array(MoneyPayer).openapi({ description: 'one line per payer and method, in the order they paid' }),
  })
  .openapi('MoneyBreakdown');
export type MoneyBreakdown = z.infer<typeof MoneyBreakdown>;

/** What a refund gives back to one payer by one method (decision 101). */
export const MoneyBack = MoneyPayer.pick({ who: true, name: true, method: true }).extend({ cents: z.number().int() }).openapi('MoneyBack');
export type MoneyBack = z.infer<typeof MoneyBack>;

/** One of my orders as the server answers it: money in integer cents, actions from the order chart. */
export const Order = z
  .object({
    orderNo: z.string(),
    goodsId: z.number().int(),
    goodsName: z.string().openapi({ description: "in the caller's language" }),
    goodsKind: z.enum(GOODS_KIND_VALUES),
    goodsImage: z.string(),
    quantity: z.number().int(),
    listPriceCents: z.number().int(),
    memberPriceCents: z.number().int(),
    priceCents: z.number().int(),
    couponDeductionCents: z.number().int(),
    balanceUsedCents: z.number().int(),
    amountToPayCents: z.number().int(),
    state: z.enum(ORDER_STATES),
    payMethod: z.string().nullable(),
    issuedCardId: z.number().int().nullable(),
    issuedCourseId: z.number().int().nullable(),
    issuedCouponId: z.number().int().nullable(),
    phaseId: z.number().int().nullable(),
    teacherId: z.number().int().nullable(),
    couponId: z.number().int().nullable(),
    expiresAt: z.string().nullable().openapi({ description: 'an unpaid order not paid by then is cancelled (decision 008)' }),
    actions: z.array(z.enum(ORDER_ACTIONS)).openapi({
      description:
        "what the order accepts now, by the rule its handlers check (decision 058): 'pay' (a share the member may pay: to pay, or their own trade open, paid again by the same or another method), 'cancel', 'split' (one unpaid share nobody holds, at least 2 cents), 'unsplit' (split; open trades are ended first), 'invite' (a share nobody holds may go to a friend). Past its pay deadline only 'cancel'.",
    }),
    createdAt: z.string(),
    paidAt: z.string().nullable(),
    cancelledAt: z.string().nullable(),
    breakdown: MoneyBreakdown,
  })
  .openapi('Order');
export type Order = z.infer<typeof Order>;

/** One part of an order's money (decision 021): the balance deduction (seq 0) or a share to pay. */
export const OrderPart = z
  .object({
    seq: z.number().int(),
    kind: z.enum(['deduction', 'share']),
    amountCents: z.number().int(),
    state: z.enum(PAYMENT_PART_STATE_VALUES),
    /** how it was paid: balance, wechat or alipay; null while unpaid */
    paidBy: z.enum(['balance', 'wechat', 'alipay']).nullable(),
    /** paid by a friend: the name their messaging app gave ('' when it gave none); null otherwise */
    friendName: z.string().nullable(),
    /** sent to a friend whose link is still open: the friend's to pay now */
    withFriend: z.boolean(),
    holder: z.enum(PART_HOLDERS).nullable().openapi({
      description:
        "who holds the unpaid share now: the member's own trade, a friend's trade, a friend's open link; null: nobody (a deduction, or paid)",
    }),
    actions: z
      .array(z.enum(PART_ACTIONS))
      .openapi({ description: "what the share accepts now (decision 058): 'pay', 'invite' (to a friend), 'withdraw' (the friend's link)" }),
    /** the share's latest trade failed and nothing holds it: paid again by any way */
    payFailed: z.boolean(),
  })
  .openapi('OrderPart');
export type OrderPart = z.infer<typeof OrderPart>;

/** An order's money, summed from its payments, parts and refunds (decision 021). */
export const OrderMoney = z
  .object({
    appliedCents: z.number().int().openapi({ description: 'payments applied to the order' }),
    takenCents: z.number().int().openapi({ description: "all the payers' money taken for it, applied or not" }),
    refundedCents: z.number().int().openapi({ description: 'refunds back with their payers' }),
    refundingCents: z.number().int().openapi({ description: 'refunds on their way' }),
    outstandingCents: z.number().int().openapi({ description: 'still to pay' }),
    liveCents: z.number().int(),
  })
  .openapi('OrderMoney');

/** A refund of one of the order's payments; a failed one carries the provider's reason. */
export const OrderRefund = z
  .object({
    amountCents: z.number().int(),
    cause: z.enum(['order_cancelled', 'split_undone', 'unwanted_payment', 'amount_mismatch', 'order_refund']),
    state: z.enum(REFUND_STATE_VALUES),
    to: z.enum(['balance', 'wechat', 'alipay']).openapi({ description: 'where the money goes back: the payment it returns' }),
    failureMessage: z.string().nullable(),
    createdAt: z.string(),
    settledAt: z.string().nullable(),
  })
  .openapi('OrderRefund');

/** One of my orders with its money: parts, sums and refunds. */
export const OrderDetail = Order.extend({ parts: z.array(OrderPart), money: OrderMoney, refunds: z.array(OrderRefund) }).openapi(
  'OrderDetail',
);
export type OrderDetail = z.infer<typeof OrderDetail>;

export const OrderNo = z.string().min(1).max(64);
/** One of my orders, by number. */
export const OrderNoQuery = z.object({ orderNo: OrderNo.openapi({ param: { name: 'orderNo', in: 'query' } }) });
/** GET /orders/mine: a page of my orders, newest first, of one tab of the order list (decision 096). */
export const MyOrdersQuery = z.object({
  ...pagingQuery(10),
  status: z
    .enum(ORDER_LIST_FILTERS)
    .default('all')
    .openapi({
      param: { name: 'status', in: 'query' },
      description:
        "which orders, by the order chart's tags: 'all'; 'to_pay' still waiting for my money (awaitingMoney); 'paid' (everPaid, no refund asked); 'refunds' a refund asked for (refundAsked); 'cancelled' (neither waiting for money nor ever paid)",
    }),
});
/** What the app sends for a page of my orders (the tab may be left out: every order). */
export type MyOrdersQuery = PageQuery & { status?: OrderListFilter };
export const CreateBody = z
  .object({
    goodsId: IdField.optional(),
    phaseId: IdField.optional().openapi({ description: 'required when the goods has phases (50007)' }),
    teacherId: IdField.optional().openapi({ description: 'required when the goods has teachers to choose from (50008)' }),
    couponId: IdField.optional().openapi({ description: 'one of my unused coupons (40007, 40008)' }),
    useBalance: z.boolean().optional(),
    expectedAmountToPayCents: z.number().int().min(0).optional().openapi({
      description:
        'the amount to pay the member was shown (from /orders/quote); the server prices anyway and refuses with 40010 when it differs',
    }),
    agreementAccepted: z.literal(true).openapi({
      description:
        'the member accepted the purchase agreement (/agreement/CommonAgreement); anything else is refused (70003 naming this field)',
    }),
  })
  .openapi('CreateOrderBody');
export type CreateBody = z.input<typeof CreateBody>;
export const OrderNoBody = z.object({ orderNo: OrderNo }).openapi('OrderNoBody');
export const PayBody = z
  .object({
    orderNo: OrderNo,
    method: z.enum(PAY_METHODS),
    partSeq: z
      .number()
      .int()
      .min(1)
      .max(1000)
      .optional()
      .openapi({ description: 'the part of a split order to pay (its seq); absent: the only unpaid share' }),
  })
  .openapi('PayOrderBody');
/** Divides what is left to pay into 2-10 parts (whole cents, each above zero and below the amount to pay, summing to it exactly). */
export const SplitBody = z
  .object({
    orderNo: OrderNo,
    parts: z
      .array(z.number().int())
      .min(1)
      .max(1000)
      .openapi({ description: 'the parts in cents: 2-10 (more: 40016), each > 0 and < the amount to pay (40017), summing to it (70003)' }),
  })
  .openapi('SplitOrderBody');
export type SplitBody = z.input<typeof SplitBody>;
/** What the page needs to start paying with an outside provider: src/domain/payment-start.ts's PaymentStart. */
export const PaymentStart = z
  .discriminatedUnion('method', [
    z.object({
      method: z.literal('wechat'),
      prepayId: z.string(),
      jsapi: z.object({
        appId: z.string(),
        timeStamp: z.string(),
        nonceStr: z.string(),
        package: z.string(),
        signType: z.literal('RSA'),
        paySign: z.string(),
      }),
    }),
    z.object({
      method: z.literal('alipay'),
      url: z.string().openapi({ description: 'GET this URL (a redirect) to open the mobile cashier' }),
      form: z
        .object({ action: z.string(), fields: z.record(z.string(), z.string()) })
        .openapi({ description: "or POST these fields to `action` (the SDK's auto-submitting form)" }),
    }),
  ])
  .openapi('PaymentStart');
export type PaymentStart = z.infer<typeof PaymentStart>;

export const PayAnswer = z
  .object({
    order: Order,
    payment: PaymentStart.nullable().openapi({ description: 'null when paid by balance (the order is paid at once)' }),
  })
  .openapi('PayOrderAnswer');
export type PayAnswer = z.infer<typeof PayAnswer>;
export const PayMethods = z
  .object({
    methods: z.array(z.enum(PAY_METHODS)).openapi({ description: 'what the caller can pay with (a visitor: everything offered)' }),
    standIn: z.boolean().openapi({ description: 'demo mode: the providers are local stand-ins' }),
    unavailable: z
      .array(
        z.object({
          method: z.enum(PAY_METHODS),
          code: z.number().int(),
          message: z.string().openapi({ description: "in the caller's language" }),
        }),
      )
      .openapi({ description: 'offered, but not to this member now (WeChat Pay without a bound open id: 40012)' }),
  })
  .openapi('PayMethods');
/** The payment methods this server offers; `standIn`: demo mode, the providers' local stand-ins answer. */
export type PayMethods = z.infer<typeof PayMethods>;

export const Balance = z.object({ balanceCents: z.number().int() });
export type Balance = z.infer<typeof Balance>;

/** A provider payment taken for an order already paid or over, for staff to refund (decision 013). */
export const PaymentToRefund = z
  .object({
    paymentId: z.number().int(),
    orderNo: z.string(),
    accountId: z.number().int(),
    provider: z.enum(['wechat', 'alipay']),
    outTradeNo: z.string().nullable(),
    providerTxnId: z.string().nullable(),
    amountCents: z.number().int(),
    createdAt: z.string(),
  })
  .openapi('PaymentToRefund');
export type PaymentToRefund = z.infer<typeof PaymentToRefund>;

/** Invites a friend to pay one unpaid share: a split order's part (`partSeq`), or the whole order's. */
export const InviteBody = z
  .object({
    orderNo: OrderNo,
    partSeqs: z.array(z.number().int().min(1).max(1000)).min(1).max(10).optional().openapi({
      description:
        'the unpaid parts to send (their seq): one part, or several merged into one share; absent: every unpaid part not yet sent (the whole amount still to pay)',
    }),
  })
  .openapi('FriendInviteBody');
/** What inviting a friend (or withdrawing the invitation) sends. */
export type InviteBody = z.input<typeof InviteBody>;

/** Withdraws the open invitation of a part (its seq), or the order's only open one. */
export const WithdrawBody = z
  .object({
    orderNo: OrderNo,
    partSeq: z
      .number()
      .int()
      .min(1)
      .max(1000)
      .optional()
      .openapi({ description: "the invited part's seq; absent: the order's only open invitation" }),
  })
  .openapi('FriendWithdrawBody');
export type WithdrawBody = z.infer<typeof WithdrawBody>;

/** An invitation as its member sees it: the link to share, open for an hour. */
export const FriendInvitation = z
  .object({
    orderNo: z.string(),
    partSeq: z.number().int(),
    amountCents: z.number().int(),
    state: z.enum(FRIEND_INVITATION_STATE_VALUES),
    token: z.string(),
    link: z.string().openapi({ description: 'the /payfriend page for the friend (share it, or copy it outside the messaging app)' }),
    expiresAt: z.string(),
  })
  .openapi('FriendInvitation');
export type FriendInvitation = z.infer<typeof FriendInvitation>;

export const InviteAnswer = z.object({ order: Order, invitation: FriendInvitation }).openapi('FriendInviteAnswer');
export type InviteAnswer = z.infer<typeof InviteAnswer>;

/** What the friend's page shows of an invitation (no account needed). */
export const FriendInvitationView = z
  .object({
    state: z
      .enum(FRIEND_INVITATION_STATE_VALUES)
      .openapi({ description: "an open one past its hour reads expired; refunded: the friend's money went back with the part" }),
    goodsName: z.string(),
    amountCents: z.number().int(),
    expiresAt: z.string(),
    member: z
      .object({
        name: z.string().openapi({
          description:
            "who asks: the member's messaging-app nickname, else their name as other members see it (masked), else the masked phone",
        }),
        avatar: z.string().nullable().openapi({ description: "the member's messaging-app avatar, else the account's; null: none" }),
      })
      .openapi({ description: 'the member who asks the friend to pay (decision 099)' }),
    money: MoneyBreakdown.openapi({
      description:
        "scope share (decision 101): the amount asked, the friend's own payment of it and what went back; never the member's balance or other payers",
    }),
  })
  .openapi('FriendInvitationView');
export type FriendInvitationView = z.infer<typeof FriendInvitationView>;

export const InvitationTokenQuery = z.object({
  t: z
    .string()
    .min(1)
    .max(64)
    .openapi({ param: { name: 't', in: 'query' } }),
});

/** Which invitation the member re-opens: the order's latest, or its part's (`partSeq`). */
export const MemberInvitationQuery = z.object({
  orderNo: OrderNo.openapi({ param: { name: 'orderNo', in: 'query' } }),
  partSeq: z.coerce
    .number()
    .int()
    .min(1)
    .max(1000)
    .optional()
    .openapi({ param: { name: 'partSeq', in: 'query' }, description: "a split order's part; absent: the order's latest invitation" }),
});
export type MemberInvitationQuery = z.input<typeof MemberInvitationQuery>;

/** What happened to the member's latest invitation (decision 099): paid by whom and how, expired, withdrawn, or still open. */
export const MemberInvitationAnswer = z
  .object({
    goodsName: z.string(),
    invitation: FriendInvitation.extend({
      friendName: z
        .string()
        .nullable()
        .openapi({ description: "paid: the friend's messaging-app nickname ('' when none); null otherwise" }),
      paidBy: z.enum(['wechat', 'alipay']).nullable().openapi({ description: 'paid: how the friend paid; null otherwise' }),
      endedAt: z.string().nullable(),
    })
      .nullable()
      .openapi({ description: 'null: no invitation was made for it' }),
    actions: z
      .array(z.enum(PART_ACTIONS))
      .openapi({ description: "what the share (or the order) accepts now: 'invite' again, 'pay' another way, 'withdraw'" }),
  })
  .openapi('FriendMemberInvitation');
export type MemberInvitationAnswer = z.infer<typeof MemberInvitationAnswer>;

/** The friend pays an invitation (its token from the link). */
export const FriendPayBody = z.object({ t: z.string().min(1).max(64) }).openapi('FriendPayBody');
export type FriendPayBody = z.input<typeof FriendPayBody>;
export const FriendPayAnswer = z
  .object({
    payment: PaymentStart.openapi({ description: "WeChat Pay JSAPI: what the friend's page passes to the pay sheet" }),
    amountCents: z.number().int(),
  })
  .openapi('FriendPayAnswer');
export type FriendPayAnswer = z.infer<typeof FriendPayAnswer>;
