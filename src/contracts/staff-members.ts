import { z } from '@hono/zod-openapi';

/** Members registered by staff at the front desk (decision 045). */

/** POST /staff/members: the new member's phone and name. */
export const StaffMemberBody = z
  .object({
    phone: z.string().max(32).openapi({ description: 'a mainland mobile number (10010 otherwise)' }),
    name: z.string().max(64).openapi({ description: 'real name: 1 to 20 characters, not numeric (70169 otherwise)' }),
  })
  .openapi('StaffMemberRequest');
export type StaffMemberBody = z.infer<typeof StaffMemberBody>;

/** How a default password is formed: a prefix, then the phone's last digits (never a password). */
export const DefaultPasswordRuleView = z.object({ prefix: z.string(), digits: z.number().int() }).openapi('DefaultPasswordRule');

/** The member registered, and how their default password is formed, for the desk to tell them. */
export const StaffMemberRegistered = z
  .object({ id: z.number().int(), phone: z.string(), name: z.string(), defaultPassword: DefaultPasswordRuleView })
  .openapi('StaffMemberRegistered');
export type StaffMemberRegistered = z.infer<typeof StaffMemberRegistered>;

/** GET /staff/members/form: what the registration form shows the desk. */
export const StaffMemberForm = z.object({ defaultPassword: DefaultPasswordRuleView }).openapi('StaffMemberForm');
export type StaffMemberForm = z.infer<typeof StaffMemberForm>;
