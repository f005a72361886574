import { z } from '@hono/zod-openapi';
import { ORDER_STATES } from '../domain/orders';
import { IdParam } from './common';

/** GET /product/goods/activity (spec §3 card activity detail, §7; decision 009): a flash sale as the app shows it. */
export const FlashSaleActivity = z
  .object({
    id: z.number().int(),
    sellNumber: z.number().int(),
    maxNumber: z.number().int(),
    isUable: z.boolean(),
    message: z.string().nullable(),
    phase: z.enum(['upcoming', 'live', 'sold_out', 'ended']),
    goodsId: z.number().int(),
    activityId: z.number().int().nullable(),
    title: z.string(),
    startsAt: z.string(),
    endsAt: z.string(),
    /** the server's clock, so the app's countdown does not trust the phone's */
    serverNow: z.string(),
    /** the caller already holds a place (limit one per person); false for visitors */
    mine: z.boolean(),
    myOrder: z
      .object({ orderNo: z.string(), state: z.enum(ORDER_STATES) })
      .nullable()
      .openapi({ description: "the order that holds the caller's place (to pay it, or to see it paid); null without a place" }),
  })
  .openapi('FlashSaleActivity');
export type FlashSaleActivity = z.infer<typeof FlashSaleActivity>;

/** Which sale; without an id, the live or next one. */
export const FlashSaleQuery = z.object({ id: IdParam.optional().openapi({ param: { name: 'id', in: 'query' }, example: 1 }) });
export type FlashSaleQuery = z.infer<typeof FlashSaleQuery>;
