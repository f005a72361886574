import { z } from '@hono/zod-openapi';
import { PHOTO_MAX_BASE64, PHOTO_MAX_BYTES, PHOTO_REVIEW_STATES } from '../domain/photo-review';
import { IdParam } from './common';

/** The member's front photo for face check-in and its review by staff (spec §4, decision 007). */

/** My front photo's review state (decision 007). */
export const PhotoView = z
  .object({
    status: z.enum(['none', ...PHOTO_REVIEW_STATES]),
    photoId: z.number().int().nullable(),
    reason: z.string().nullable().openapi({ description: 'why staff rejected it' }),
    uploadedAt: z.string().nullable(),
    reviewedAt: z.string().nullable(),
    canUpload: z.boolean(),
  })
  .openapi('PhotoView');
export type PhotoView = z.infer<typeof PhotoView>;

/** The issue a photo's text longer than PHOTO_MAX_BASE64 raises: the server answers it 70009 naming the limit. */
export const IMAGE_TOO_LARGE_ISSUE = 'image too large';

/**
 * A photo: base64 of at most PHOTO_MAX_BYTES (a data: URL prefix is accepted). Its longest text follows
 * from that limit (decision 053); the decoded size is checked again where the bytes are read.
 */
export const Base64Image = z
  .string()
  .max(PHOTO_MAX_BASE64, IMAGE_TOO_LARGE_ISSUE)
  .transform((s) => s.replace(/^data:[\w/+.-]+;base64,/, ''))
  .refine((s) => /^[A-Za-z0-9+/]+={0,2}$/.test(s), 'base64')
  .openapi({ description: `JPEG, PNG or WebP, base64; at most ${PHOTO_MAX_BYTES} bytes decoded (413, 70009 beyond)` });

/** POST /customers/photo. */
export const PhotoUploadBody = z.object({ image: Base64Image }).openapi('PhotoUpload');
export type PhotoUploadBody = z.input<typeof PhotoUploadBody>;

/** One photo waiting for review, as the front desk lists it (oldest first). */
export const PhotoToReview = z
  .object({
    id: z.number().int(),
    accountId: z.number().int(),
    name: z.string().nullable(),
    phone: z.string(),
    createdAt: z.string(),
    size: z.number().int(),
  })
  .openapi('PhotoToReview');
export type PhotoToReview = z.infer<typeof PhotoToReview>;

/** One photo, by id in the path (staff). */
export const PhotoIdPath = z.object({ id: IdParam.openapi({ param: { name: 'id', in: 'path' }, example: 1 }) });

/** Staff pass a photo, or reject it saying why (the member reads the reason). */
export const PhotoReviewBody = z
  .discriminatedUnion('decision', [
    z.object({ decision: z.literal('pass') }),
    z.object({ decision: z.literal('reject'), reason: z.string().trim().min(1).max(200) }),
  ])
  .openapi('PhotoReviewDecision');
export type PhotoReviewBody = z.infer<typeof PhotoReviewBody>;

/** A photo reviewed: its new state. */
export const PhotoReviewed = z.object({ photoId: z.number().int(), state: z.enum(PHOTO_REVIEW_STATES) }).openapi('PhotoReviewed');
export type PhotoReviewed = z.infer<typeof PhotoReviewed>;

/** Staff find a member by phone: who, and their photo (to allow another upload, decision 042). */
export const MemberPhoto = z
  .object({ accountId: z.number().int(), name: z.string().nullable(), phone: z.string(), photo: PhotoView })
  .openapi('MemberPhoto');
export type MemberPhoto = z.infer<typeof MemberPhoto>;

/** GET /staff/photos/member?phone=: the member's phone. */
export const MemberPhotoQuery = z.object({
  phone: z
    .string()
    .trim()
    .min(1)
    .max(32)
    .openapi({ param: { name: 'phone', in: 'query' }, example: '13700000001' }),
});
