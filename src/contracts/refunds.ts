import { z } from '@hono/zod-openapi';
import { REFUND_STATE_VALUES } from '../domain/orders';
import { IdField } from './common';

/** Refunds staff look at (decision 021): failed at the provider, or held from before refunds existed. */
export const StaffRefund = z
  .object({
    refundId: z.number().int(),
    orderNo: z.string(),
    accountId: z.number().int(),
    to: z.enum(['balance', 'wechat', 'alipay']).openapi({ description: 'the payment it returns' }),
    outTradeNo: z.string().nullable(),
    providerTxnId: z.string().nullable(),
    amountCents: z.number().int(),
    cause: z.enum(['order_cancelled', 'split_undone', 'unwanted_payment', 'amount_mismatch', 'order_refund']),
    state: z.enum(REFUND_STATE_VALUES),
    failureCode: z.string().nullable(),
    failureMessage: z.string().nullable().openapi({ description: "the provider's words when it refused or failed" }),
    createdAt: z.string(),
  })
  .openapi('StaffRefund');
export type StaffRefund = z.infer<typeof StaffRefund>;

/** One refund, by id. */
export const RefundIdBody = z.object({ refundId: IdField });
