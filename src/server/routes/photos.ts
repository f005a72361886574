import { createRoute, z } from '@hono/zod-openapi';
import { Errors } from '../../domain/errors';
import type { Caller } from '../env';
import { ApiError } from '../http/api-error';
import { requireAuth, requireAuthOrCookie } from '../http/auth';
import { createRouter, envelope, ErrorEnvelope, ok, refusals } from '../http/router';
import { photoRequestBody, photoTooLarge } from '../http/photo-body';
import { allowAnotherPhoto, memberPhotoByPhone, myPhoto, photoBytes, photosToReview, reviewPhoto, uploadPhoto } from '../services/photos';
import {
  MemberPhoto,
  MemberPhotoQuery,
  PhotoIdPath,
  PhotoReviewBody,
  PhotoReviewed,
  PhotoToReview,
  PhotoUploadBody,
  PhotoView,
} from '../../contracts/photos';
import { staffOnly } from './staff-guard';
import { auditOf } from '../http/audit';

const json = <T extends z.ZodTypeAny>(schema: T) => ({ description: 'OK', content: { 'application/json': { schema: envelope(schema) } } });
const tags = ['photo review'];
const err = (description: string) => ({ description, content: { 'application/json': { schema: ErrorEnvelope } } });

const image = (bytes: Buffer, contentType: string) =>
  new Response(new Uint8Array(bytes), {
    status: 200,
    headers: { 'Content-Type': contentType, 'Cache-Control': 'private, no-store', 'X-Content-Type-Options': 'nosniff' },
  });

/**
 * Photo review (spec §4, decision 007): the member's front photo for face check-in, reviewed by
 * staff (under review, rejected with a reason, passed). Members upload when they have none or it
 * was rejected (or staff allowed another); staff list the photos waiting and pass or reject each once.
 * The same photo is the member's avatar (/mine/setavatar, /uploadTop, /uploadTop_yoga; decision 042).
 */
export const photoRoutes = createRouter()
  .openapi(
    createRoute({
      method: 'get',
      path: '/',
      tags,
      summary: 'My front photo: none, under review, rejected (with the reason) or passed',
      middleware: [requireAuth] as const,
      responses: { 200: json(PhotoView), 401: refusals[401] },
    }),
    async (c) => ok(c, await myPhoto(c.var.deps.db, (c.var.caller as Caller).accountId)),
  )
  .openapi(
    createRoute({
      method: 'post',
      path: '/',
      tags,
      summary: 'Upload my front photo (also my avatar) for review (when I have none, it was rejected, or staff allowed another)',
      middleware: [requireAuth] as const,
      request: { body: photoRequestBody(PhotoUploadBody) },
      responses: {
        200: json(PhotoView),
        400: refusals[400],
        401: refusals[401],
        409: refusals[409],
        413: photoTooLarge,
        415: err('Not a JPEG, PNG or WebP image'),
        503: err('The photo store is unreachable'),
      },
    }),
    async (c) => {
      const bytes = Buffer.from(c.req.valid('json').image, 'base64');
      return ok(
        c,
        await uploadPhoto(
          c.var.deps.db,
          c.var.deps.clock,
          c.var.deps.gateways.keys,
          (c.var.caller as Caller).accountId,
          bytes,
          c.var.deps.gateways.storage,
        ),
      );
    },
  )
  .openapi(
    createRoute({
      method: 'get',
      path: '/image',
      tags,
      summary: 'The image of my latest photo (the token cookie works, so an <img> shows it)',
      middleware: [requireAuthOrCookie] as const,
      responses: {
        200: { description: 'the image', content: { 'image/jpeg': { schema: z.string() } } },
        401: refusals[401],
        404: refusals[404],
      },
    }),
    async (c) => {
      const p = await photoBytes(
        c.var.deps.db,
        c.var.deps.gateways.keys,
        { accountId: (c.var.caller as Caller).accountId },
        c.var.deps.gateways.storage,
      );
      if (!p) throw new ApiError(Errors.notFound);
      return image(p.bytes, p.contentType);
    },
  );

/** Staff: the photo review queue (/api/staff/photos). */
export const staffPhotoRoutes = createRouter()
  .openapi(
    createRoute({
      method: 'get',
      path: '/',
      tags,
      summary: 'Front desk: photos waiting for review, oldest first',
      middleware: [requireAuth, staffOnly()] as const,
      responses: {
        200: json(z.array(PhotoToReview)),
        401: refusals[401],
        403: refusals[403],
      },
    }),
    async (c) => ok(c, await photosToReview(c.var.deps.db)),
  )
  .openapi(
    createRoute({
      method: 'get',
      path: '/{id}/image',
      tags,
      summary: 'Front desk: the image of a photo (each view recorded in the audit log)',
      middleware: [requireAuthOrCookie, staffOnly()] as const,
      request: { params: PhotoIdPath },
      responses: {
        200: { description: 'the image', content: { 'image/jpeg': { schema: z.string() } } },
        401: refusals[401],
        403: refusals[403],
        404: refusals[404],
      },
    }),
    async (c) => {
      const p = await photoBytes(
        c.var.deps.db,
        c.var.deps.gateways.keys,
        { photoId: c.req.valid('param').id },
        c.var.deps.gateways.storage,
      );
      if (!p) throw new ApiError(Errors.notFound);
      await auditOf(c)(c.var.deps.db, { action: 'photo.view', subjectKind: 'photo', subjectId: p.id });
      return image(p.bytes, p.contentType);
    },
  )
  .openapi(
    createRoute({
      method: 'post',
      path: '/{id}/review',
      tags,
      summary: 'Front desk: pass or reject a photo under review (a rejection says why)',
      middleware: [requireAuth, staffOnly()] as const,
      request: {
        params: PhotoIdPath,
        body: {
          content: {
            'application/json': {
              schema: PhotoReviewBody,
            },
          },
          required: true,
        },
      },
      responses: {
        200: json(PhotoReviewed),
        400: refusals[400],
        401: refusals[401],
        403: refusals[403],
        404: refusals[404],
        409: refusals[409],
      },
    }),
    async (c) => {
      const b = c.req.valid('json');
      const staff = (c.var.caller as Caller).accountId;
      return ok(
        c,
        await reviewPhoto(
          c.var.deps.db,
          c.var.deps.clock,
          staff,
          c.req.valid('param').id,
          b.decision === 'pass' ? { pass: true } : { pass: false, reason: b.reason },
          auditOf(c),
        ),
      );
    },
  )
  .openapi(
    createRoute({
      method: 'get',
      path: '/member',
      tags,
      summary: "Front desk: a member by phone and their photo's review state (to allow another upload)",
      middleware: [requireAuth, staffOnly()] as const,
      request: { query: MemberPhotoQuery },
      responses: { 200: json(MemberPhoto), 400: refusals[400], 401: refusals[401], 403: refusals[403], 404: refusals[404] },
    }),
    async (c) => {
      const m = await memberPhotoByPhone(c.var.deps.db, c.req.valid('query').phone);
      if (!m) throw new ApiError(Errors.notFound, { field: 'phone' });
      return ok(c, m);
    },
  )
  .openapi(
    createRoute({
      method: 'post',
      path: '/{id}/allow-another',
      tags,
      summary: 'Front desk: allow the member another upload of a passed photo (spec §5 "contact staff")',
      middleware: [requireAuth, staffOnly()] as const,
      request: { params: PhotoIdPath },
      responses: {
        200: json(PhotoReviewed),
        400: refusals[400],
        401: refusals[401],
        403: refusals[403],
        404: refusals[404],
        409: refusals[409],
      },
    }),
    async (c) =>
      ok(
        c,
        await allowAnotherPhoto(c.var.deps.db, c.var.deps.clock, (c.var.caller as Caller).accountId, c.req.valid('param').id, auditOf(c)),
      ),
  );
