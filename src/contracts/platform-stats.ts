import { z } from '@hono/zod-openapi';

/** Spec §2: every navigation reports a page view (POST /stats/pageview). */
export const PageViewBody = z
  .object({
    path: z
      .string()
      .min(1)
      .max(512)
      .regex(/^\/[^\s]*$/, 'an app path starting with /')
      .openapi({ example: '/club/detail?id=1' }),
    visitorId: z
      .string()
      .regex(/^[A-Za-z0-9_-]{8,64}$/)
      .optional()
      .openapi({ description: "the app's random id for a visitor without a session", example: 'v_3f9c2a7b1d' }),
  })
  .openapi('PageView');
export type PageViewBody = z.infer<typeof PageViewBody>;

/** The page view recorded. */
export const PageViewRecorded = z.object({ id: z.number().int() }).openapi('PageViewRecorded');
export type PageViewRecorded = z.infer<typeof PageViewRecorded>;
