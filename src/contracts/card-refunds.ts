import { z } from '@hono/zod-openapi';
import { CARD_REFUND_STATE_VALUES } from '../domain/card-refund';
import { ORDER_STATES } from '../domain/orders';
import { IdField, IdParam } from './common';
import { MoneyBack, MoneyBreakdown } from './orders';

/** Card refund (spec §4, §5 "refund requires agreeing to the refund policy"; decision 030). */

const IsoTime = z.string().openapi({ example: '2026-11-20T02:00:00.000Z' });

/** GET /customers/cards/refund/quote?cardId= and /customers/cards/refund/mine?cardId=: which card. */
export const CardRefundQuery = z.object({ cardId: IdParam.openapi({ param: { name: 'cardId', in: 'query' }, example: 1 }) });

/** What the refund policy gives back for a card now (decision 030), shown before the member confirms. */
export const CardRefundQuote = z
  .object({
    cardId: z.number().int(),
    paidCents: z.number().int().openapi({ description: 'what the order took from its payers, less anything already given back' }),
    leftPerMille: z.number().int().openapi({
      description:
        'the part of the card left, thousandths (uses left of uses bought, or whole days left of validity days; 1000 for a card never used)',
    }),
    feePercent: z
      .number()
      .int()
      .openapi({ description: "the card type's handling fee on a started card, percent (0 for a card never used)" }),
    amountCents: z.number().int().openapi({ description: 'what goes back: paid × left × (100 − fee) %, cents rounded down' }),
    money: MoneyBreakdown.openapi({ description: "the order's money now (decision 101)" }),
    back: z.array(MoneyBack).openapi({
      description: 'what would go back to each payer, by the way they paid: the amount shared over the payments by what is left of each',
    }),
  })
  .openapi('CardRefundQuote');
export type CardRefundQuote = z.infer<typeof CardRefundQuote>;

/** POST /customers/cards/refund: ask for the refund, having agreed to the policy and seen the amount. */
export const CardRefundBody = z
  .object({
    cardId: IdField,
    agreed: z.literal(true).openapi({ description: 'the refund policy accepted (spec §5)' }),
  })
  .openapi('CardRefundRequest');
export type CardRefundBody = z.input<typeof CardRefundBody>;

/** GET /staff/card-refunds: the pending requests, or (`decided=1`) the latest decided by staff. */
export const StaffCardRefundsQuery = z.object({
  decided: z
    .enum(['1'])
    .optional()
    .openapi({ param: { name: 'decided', in: 'query' }, description: '1: the latest 20 approved or rejected, newest decision first' }),
});

/** POST /customers/cards/refund/cancel and the staff decisions: which request. */
export const CardRefundIdBody = z.object({ id: IdField }).openapi('CardRefundId');
export const CardRefundRejectBody = z.object({ id: IdField, reason: z.string().trim().min(1).max(200) }).openapi('CardRefundReject');

/** A request as its member sees it, with how far the money is (its order's state). */
export const MyCardRefund = z
  .object({
    id: z.number().int(),
    cardId: z.number().int(),
    state: z.enum(CARD_REFUND_STATE_VALUES),
    quotedCents: z.number().int(),
    amountCents: z.number().int().nullable().openapi({ description: 'what was given back, by the policy at approval' }),
    reason: z.string().nullable().openapi({ description: 'why staff rejected it' }),
    orderNo: z.string(),
    orderState: z.enum(ORDER_STATES).openapi({ description: 'refunding, refunded (refund done) or refund_failed once approved' }),
    failure: z
      .string()
      .nullable()
      .openapi({ description: "why the money did not go back (the provider's words) while the order is refund failed; null otherwise" }),
    createdAt: IsoTime,
    decidedAt: IsoTime.nullable(),
    canCancel: z.boolean(),
    money: MoneyBreakdown.openapi({
      description: "the order's money: each payer's line with what is back with them and on its way (decision 101)",
    }),
  })
  .openapi('MyCardRefund');
export type MyCardRefund = z.infer<typeof MyCardRefund>;

/** What approving a pending request would give back now, per payment: shown in the staff's confirm before it is sent. */
export const StaffCardRefundApproval = z
  .object({
    amountCents: z
      .number()
      .int()
      .openapi({ description: "the policy's amount today (it may differ from the amount quoted when the member asked)" }),
    parts: z.array(
      z.object({
        method: z.enum(['wechat', 'alipay', 'balance']).openapi({ description: 'the way it was paid, and goes back' }),
        cents: z.number().int(),
        payer: z.enum(['member', 'friend']).openapi({ description: 'the member, or a friend who paid a part (friend pay)' }),
        payerName: z
          .string()
          .nullable()
          .openapi({ description: "the payer's shown name, masked; null when unknown (a friend by open id)" }),
      }),
    ),
  })
  .openapi('StaffCardRefundApproval');
export type StaffCardRefundApproval = z.infer<typeof StaffCardRefundApproval>;

/** A request in the staff queue (or one just decided). */
export const StaffCardRefund = z
  .object({
    id: z.number().int(),
    state: z.enum(CARD_REFUND_STATE_VALUES),
    cardId: z.number().int(),
    cardName: z.string(),
    cardNumber: z.string(),
    memberPhone: z.string(),
    memberName: z
      .string()
      .nullable()
      .openapi({ description: "the member's shown name, masked all but its last character; null when none" }),
    orderNo: z.string(),
    orderState: z.enum(ORDER_STATES),
    quotedCents: z.number().int(),
    approval: StaffCardRefundApproval.nullable().openapi({
      description: 'what approving would give back now (the pending queue only); null once decided or while the rules refuse it',
    }),
    amountCents: z.number().int().nullable(),
    reason: z.string().nullable(),
    decidedBy: z.number().int().nullable(),
    decidedByName: z.string().nullable().openapi({ description: "who decided: the account's name, else its phone" }),
    decidedAt: IsoTime.nullable(),
    createdAt: IsoTime,
  })
  .openapi('StaffCardRefund');
export type StaffCardRefund = z.infer<typeof StaffCardRefund>;
