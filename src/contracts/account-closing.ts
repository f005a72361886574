import { z } from '@hono/zod-openapi';
import { ACCOUNT_CLOSING_STATE_VALUES, CLOSING_NOTE_MAX, CLOSING_REASON_MAX } from '../domain/account-closing';
import { IdField } from './common';

/** Closing an account (PIPL; decision 057): the member's request, its state, and the staff decisions. */

const IsoTime = z.string().openapi({ example: '2026-12-02T02:00:00.000Z' });

/** POST /customers/me/closing: the member asks; a note is optional. */
export const ClosingRequestBody = z
  .object({
    note: z
      .string()
      .max(CLOSING_NOTE_MAX)
      .nullable()
      .optional()
      .openapi({ description: 'anything the member wants staff to know (optional)' }),
  })
  .openapi('AccountClosingRequest');

/** POST /staff/account-closings/confirm. */
export const ClosingConfirmBody = z.object({ id: IdField }).openapi('AccountClosingConfirm');
/** POST /staff/account-closings/refuse: the reason the member reads (10037 when empty once trimmed). */
export const ClosingRefuseBody = z.object({ id: IdField, reason: z.string().max(CLOSING_REASON_MAX) }).openapi('AccountClosingRefuse');

/** A closing request as its member sees it. */
export const MyAccountClosing = z
  .object({
    id: z.number().int(),
    state: z.enum(ACCOUNT_CLOSING_STATE_VALUES),
    note: z.string().nullable(),
    reason: z.string().nullable().openapi({ description: 'why staff refused it' }),
    createdAt: IsoTime,
    decidedAt: IsoTime.nullable(),
    withdrawnAt: IsoTime.nullable(),
  })
  .openapi('MyAccountClosing');
export type MyAccountClosing = z.infer<typeof MyAccountClosing>;

/** A request in the staff queue. */
export const StaffAccountClosing = MyAccountClosing.extend({
  accountId: z.number().int(),
  memberPhone: z.string(),
  memberName: z.string().nullable(),
}).openapi('StaffAccountClosing');
export type StaffAccountClosing = z.infer<typeof StaffAccountClosing>;
