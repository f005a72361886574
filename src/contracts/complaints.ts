import { z } from '@hono/zod-openapi';
import { COMPLAINT_MAX_CHARS, COMPLAINT_MAX_PHOTOS, COMPLAINT_STATE_VALUES } from '../domain/complaint';
import { IdField, IdParam } from './common';
import { Base64Image } from './photos';

/** Complaints (spec §3 complaint: content, replied or not, satisfied or not; §5 content not empty; decision 033). */

const IsoTime = z.string().openapi({ example: '2026-11-20T02:00:00.000Z' });

/** POST /customers/complaints/image: one photo, uploaded before the complaint is filed; its id goes in the complaint. */
export const ComplaintImageBody = z.object({ image: Base64Image }).openapi('ComplaintImageUpload');
export type ComplaintImageBody = z.input<typeof ComplaintImageBody>;
export const ComplaintImage = z.object({ imageId: z.number().int() }).openapi('ComplaintImage');

/** POST /customers/complaints: the content (not empty once trimmed, 70140), optionally a club and photos. */
export const ComplaintBody = z
  .object({
    content: z.string().max(COMPLAINT_MAX_CHARS).openapi({ description: 'what happened; 70140 when empty once trimmed' }),
    clubId: IdField.nullable().optional().openapi({ description: 'the club it is about; none: the chain' }),
    imageIds: z
      .array(IdField)
      .max(20)
      .default([])
      .openapi({ description: `photos uploaded by me and not yet filed, at most ${COMPLAINT_MAX_PHOTOS} (70142, 70143)` }),
  })
  .openapi('ComplaintFile');
export type ComplaintBody = z.input<typeof ComplaintBody>;

/** POST /customers/complaints/rate: satisfied or not with the reply. */
export const ComplaintRateBody = z.object({ id: IdField, satisfied: z.boolean() }).openapi('ComplaintRate');
export type ComplaintRateBody = z.input<typeof ComplaintRateBody>;

/** POST /staff/complaints/reply. */
export const ComplaintReplyBody = z
  .object({ id: IdField, reply: z.string().max(COMPLAINT_MAX_CHARS).openapi({ description: '70144 when empty once trimmed' }) })
  .openapi('ComplaintReply');
export type ComplaintReplyBody = z.input<typeof ComplaintReplyBody>;

/** GET /customers/complaints/detail?id=. */
export const ComplaintQuery = z.object({ id: IdParam.openapi({ param: { name: 'id', in: 'query' }, example: 1 }) });

/** A complaint as its member sees it. */
export const MyComplaint = z
  .object({
    id: z.number().int(),
    state: z.enum(COMPLAINT_STATE_VALUES),
    content: z.string(),
    clubId: z.number().int().nullable(),
    clubName: z.string().nullable(),
    imageIds: z.array(z.number().int()),
    replied: z.boolean().openapi({ description: 'spec §3 "replied or not"' }),
    reply: z.string().nullable(),
    repliedAt: IsoTime.nullable(),
    satisfied: z.boolean().nullable().openapi({ description: 'spec §3 "satisfied or not"; null until rated' }),
    canRate: z.boolean(),
    createdAt: IsoTime,
  })
  .openapi('MyComplaint');
export type MyComplaint = z.infer<typeof MyComplaint>;

/** A complaint in a staff queue (or one just replied to). */
export const StaffComplaint = MyComplaint.extend({
  memberPhone: z.string(),
  overdue: z.boolean().openapi({ description: 'unanswered for 48 hours: flagged, first in the queue' }),
  repliedBy: z.number().int().nullable(),
}).openapi('StaffComplaint');
export type StaffComplaint = z.infer<typeof StaffComplaint>;
