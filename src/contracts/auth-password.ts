import { z } from '@hono/zod-openapi';

/** Password reset in two steps (spec §7 /oauth/resetPasswordVerify, /oauth/resetPassword) and the change of /mine/changepassword. */

/** Reset step one: the phone and the SMS code it was texted. */
export const ResetVerifyBody = z
  .object({
    username: z.string().max(64).openapi({ description: 'phone' }),
    password: z.string().max(32).openapi({ description: 'the SMS code' }),
  })
  .openapi('ResetVerifyRequest');
export type ResetVerifyBody = z.infer<typeof ResetVerifyBody>;

/** Step one's answer: a single-use ticket (10 minutes), sent as the Authorization-token of step two. */
export const ResetTicket = z.object({ ticket: z.string(), expiresIn: z.number().int() }).openapi('ResetTicket');
export type ResetTicket = z.infer<typeof ResetTicket>;

/** Reset step two: the new password (the ticket names the account). */
export const ResetPasswordBody = z
  .object({
    password: z.string().max(128),
    username: z.string().max(64).optional().openapi({ description: 'ignored; the ticket names the account' }),
  })
  .openapi('ResetPasswordRequest');
export type ResetPasswordBody = z.infer<typeof ResetPasswordBody>;

export const ChangePasswordBody = z
  .object({ oldPassword: z.string().max(128), newPassword: z.string().max(128) })
  .openapi('ChangePasswordRequest');
export type ChangePasswordBody = z.infer<typeof ChangePasswordBody>;
