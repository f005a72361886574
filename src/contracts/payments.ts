import { z } from '@hono/zod-openapi';
import { LEDGER_REASONS } from '../domain/balance-ledger';

/** Payment: what the member's money did (decision 021). */
const IsoTime = z.string().openapi({ example: '2026-11-22T02:00:00.000Z' });

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
