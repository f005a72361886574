import { z } from '@hono/zod-openapi';
import { AUDIT_ACTION_VALUES, AUDIT_SUBJECT_VALUES } from '../domain/audit';
import { IdParam } from './common';

/** The staff audit log (decision 055): who did or saw what, when, from where. */

const INT_MAX = 2_147_483_647;

/** GET /staff/audit?staffId=&action=: the newest entries, optionally one staff member's or one action's. */
export const AuditQuery = z.object({
  staffId: IdParam.optional().openapi({ param: { name: 'staffId', in: 'query' }, example: 3 }),
  action: z
    .enum(AUDIT_ACTION_VALUES)
    .optional()
    .openapi({ param: { name: 'action', in: 'query' }, example: 'transfer.id-number.reveal' }),
});
export type AuditQuery = z.infer<typeof AuditQuery>;

export const AuditEntry = z
  .object({
    id: z.number().int(),
    staffId: z.number().int(),
    staffName: z.string().nullable(),
    staffPhone: z.string(),
    action: z.enum(AUDIT_ACTION_VALUES),
    subjectKind: z.enum(AUDIT_SUBJECT_VALUES),
    subjectId: z.number().int().nullable(),
    reason: z.string().nullable(),
    clientIp: z.string(),
    requestId: z.string(),
    at: z.string().openapi({ example: '2026-11-20T02:00:00.000Z' }),
  })
  .openapi('AuditEntry');
export type AuditEntry = z.infer<typeof AuditEntry>;

/** POST /staff/transfers/reveal-id-number: the full ID number of an application, with the reason staff need it. */
export const RevealIdNumberBody = z
  .object({
    id: z.number().int().min(1).max(INT_MAX),
    reason: z
      .string()
      .trim()
      .min(1)
      .max(200)
      .openapi({ description: 'why staff need the whole number (kept in the audit log)', example: '核对身份证照片' }),
  })
  .openapi('RevealIdNumber');
export type RevealIdNumberBody = z.infer<typeof RevealIdNumberBody>;
export const RevealedIdNumber = z.object({ id: z.number().int(), idNumber: z.string() }).openapi('RevealedIdNumber');
export type RevealedIdNumber = z.infer<typeof RevealedIdNumber>;
