import { z } from '@hono/zod-openapi';

/**
 * GET /staff/counts (decision 097): how many items wait in each staff queue, in one answer, so the
 * console's home shows every section's number with one request. Each count is scoped like the queue's
 * own list (a staff member's clubs where that list is), so the number is what the page then shows.
 */
export const StaffCounts = z
  .object({
    teacherRequests: z.number().int(),
    photos: z.number().int(),
    transfers: z.number().int(),
    cardRefunds: z.number().int(),
    complaints: z.number().int(),
    invoices: z.number().int(),
    accountClosings: z.number().int(),
    refunds: z.number().int(),
    declinedClasses: z.number().int().openapi({ description: "this week's classes declined or lapsed (unconfirmed), to reassign" }),
  })
  .openapi('StaffCounts');
export type StaffCounts = z.infer<typeof StaffCounts>;
