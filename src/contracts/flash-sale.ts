import { z } from '@hono/zod-openapi';

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
  })
  .openapi('FlashSaleActivity');
export type FlashSaleActivity = z.infer<typeof FlashSaleActivity>;
