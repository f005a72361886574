import { z } from '@hono/zod-openapi';

/** Members registered by staff at the front desk (decision 054). */

/** POST /staff/members: the new member's phone and name. */
export const StaffMemberBody = z
  .object({
    phone: z.string().max(32).openapi({ description: 'a mainland mobile number (10010 otherwise)' }),
    name: z.string().max(64).openapi({ description: 'real name: 1 to 20 characters, not numeric (70169 otherwise)' }),
  })
  .openapi('StaffMemberRequest');
export type StaffMemberBody = z.infer<typeof StaffMemberBody>;

/** The member registered, with their random initial password: in this answer only, for the desk to hand over. */
export const StaffMemberRegistered = z
  .object({
    id: z.number().int(),
    phone: z.string(),
    name: z.string(),
    initialPassword: z
      .string()
      .openapi({ description: 'shown once: stored only as its hash, never kept for a replay; the first login with it must set a new one' }),
  })
  .openapi('StaffMemberRegistered');
export type StaffMemberRegistered = z.infer<typeof StaffMemberRegistered>;

/** GET /staff/members/form: what the registration form tells the desk. */
export const StaffMemberForm = z
  .object({ initialPasswordLength: z.number().int().openapi({ description: 'how many characters the random initial password has' }) })
  .openapi('StaffMemberForm');
export type StaffMemberForm = z.infer<typeof StaffMemberForm>;
