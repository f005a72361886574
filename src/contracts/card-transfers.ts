import { z } from '@hono/zod-openapi';
import { TRANSFER_STATE_VALUES } from '../domain/card-transfer';
import { validIdNumber, validRealName } from '../domain/identity';
import { IdField, IdParam } from './common';
import { Base64Image } from './photos';

/** Card transfer (spec §3 transfer, §4, §5; decision 026): the member's application and the staff queue. */

const IsoTime = z.string().openapi({ example: '2026-11-20T02:00:00.000Z' });

/** GET /customers/members/phone?phone=: who a phone belongs to, as little as the member needs to be sure. */
export const MemberPhoneQuery = z.object({
  phone: z
    .string()
    .trim()
    .max(32)
    .openapi({ param: { name: 'phone', in: 'query' }, example: '13700000001' }),
});
export const MemberByPhone = z
  .object({
    name: z.string().nullable().openapi({
      description:
        'the member’s real name from their personal information, else their account name, all but its last character masked; null when they have neither',
      example: '**明',
    }),
  })
  .openapi('MemberByPhone');
export type MemberByPhone = z.infer<typeof MemberByPhone>;

/** POST /customers/transfers/image: one image for an application (the ID photo or the photo). */
export const TransferImageBody = z.object({ image: Base64Image }).openapi('TransferImageUpload');
export type TransferImageBody = z.input<typeof TransferImageBody>;
export const TransferImage = z.object({ imageId: z.number().int() }).openapi('TransferImage');

/** POST /customers/transfers/apply (spec §5: recipient queried first, name and ID number checked, policy accepted). */
export const TransferApplyBody = z
  .object({
    cardId: IdField,
    phone: z.string().trim().min(1).max(32).openapi({ description: "the recipient's phone (a member)" }),
    name: z
      .string()
      .trim()
      .refine(validRealName, 'name')
      .openapi({ description: "the recipient's real name: 1-20 characters, not a number" }),
    idNumber: z
      .string()
      .trim()
      .refine(validIdNumber, 'ID number')
      .transform((s) => s.toUpperCase())
      .openapi({ description: "the recipient's 18-character ID number" }),
    idPhotoId: IdField.openapi({ description: 'my uploaded image of the ID' }),
    photoId: IdField.openapi({ description: 'my uploaded photo of the recipient' }),
    agreed: z.literal(true).openapi({ description: 'the transfer policy accepted' }),
  })
  .openapi('TransferApply');
export type TransferApplyBody = z.input<typeof TransferApplyBody>;

/** POST /customers/transfers/cancel and the staff decisions: which application. */
export const TransferIdBody = z.object({ id: IdField }).openapi('TransferId');
export const TransferRejectBody = z.object({ id: IdField, reason: z.string().trim().min(1).max(200) }).openapi('TransferReject');

/** GET /customers/transfers/mine?cardId=: my latest application on one of my cards. */
export const MyTransferQuery = z.object({ cardId: IdParam.openapi({ param: { name: 'cardId', in: 'query' }, example: 1 }) });

/** An application as its member sees it. */
export const MyTransfer = z
  .object({
    id: z.number().int(),
    cardId: z.number().int(),
    state: z.enum(TRANSFER_STATE_VALUES),
    recipientName: z.string(),
    recipientPhone: z.string().openapi({ description: 'masked: 137****0001' }),
    reason: z.string().nullable().openapi({ description: 'why staff rejected it' }),
    createdAt: IsoTime,
    decidedAt: IsoTime.nullable(),
    canCancel: z.boolean(),
  })
  .openapi('MyTransfer');
export type MyTransfer = z.infer<typeof MyTransfer>;

/** An application in the staff queue. */
export const StaffTransfer = z
  .object({
    id: z.number().int(),
    state: z.enum(TRANSFER_STATE_VALUES),
    cardId: z.number().int(),
    cardName: z.string(),
    cardNumber: z.string(),
    fromPhone: z.string(),
    fromName: z.string().nullable().openapi({ description: "the giver's shown name, masked all but its last character; null when none" }),
    toPhone: z.string(),
    recipientName: z.string(),
    idNumber: z.string(),
    reason: z.string().nullable(),
    reviewedBy: z.number().int().nullable(),
    reviewedAt: IsoTime.nullable(),
    decidedBy: z.number().int().nullable(),
    decidedAt: IsoTime.nullable(),
    newCardId: z.number().int().nullable(),
    createdAt: IsoTime,
  })
  .openapi('StaffTransfer');
export type StaffTransfer = z.infer<typeof StaffTransfer>;

export const TransferImagePath = z.object({
  id: IdParam.openapi({ param: { name: 'id', in: 'path' }, example: 1 }),
  which: z.enum(['id-photo', 'photo']).openapi({ param: { name: 'which', in: 'path' }, example: 'photo' }),
});
