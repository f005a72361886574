import type { MiddlewareHandler } from 'hono';
import { PHOTO_BODY_MAX_BYTES, PHOTO_MAX_BYTES } from '../../domain/photo-review';
import type { AppEnv } from '../env';
import { limitBody } from './body-limit';
import { imageTooLarge } from './image-too-large';
import { ErrorEnvelope } from './router';

/**
 * The photo uploads (POST path -> the body field holding the photo). Their body limit is the photo's
 * (PHOTO_BODY_MAX_BYTES), not the general one, so a photo too large is answered "image too large"
 * (70009) naming the limit, never the general "content too large" (70005; decision 053).
 */
export const PHOTO_UPLOADS: Readonly<Record<string, string>> = {
  '/api/customers/photo': 'image',
  '/api/customers/transfers/image': 'image',
  '/api/customers/complaints/image': 'image',
  '/api/bind/new-teacher': 'photo',
};

/** The body limit of every /api request: a photo upload's own, the general `maxSize` for the rest. */
export function limitBodies(maxSize: number): MiddlewareHandler<AppEnv> {
  const general = limitBody(maxSize);
  const photos = new Map(
    Object.entries(PHOTO_UPLOADS).map(([path, field]) => [
      path,
      limitBody(PHOTO_BODY_MAX_BYTES, () => {
        throw imageTooLarge(field);
      }),
    ]),
  );
  return (c, next) => (photos.get(c.req.path) ?? general)(c, next);
}

/** A photo upload's request body in the OpenAPI document, its limit stated. */
export function photoRequestBody<T>(schema: T) {
  return {
    description: `JSON of at most ${PHOTO_BODY_MAX_BYTES} bytes; the photo at most ${PHOTO_MAX_BYTES} bytes decoded (413, 70009 beyond either)`,
    content: { 'application/json': { schema } },
    required: true,
  };
}

/** A photo upload's 413 in the OpenAPI document. */
export const photoTooLarge = {
  description: `Image too large (70009, the limit named): a body over ${PHOTO_BODY_MAX_BYTES} bytes or a photo over ${PHOTO_MAX_BYTES} bytes decoded`,
  content: { 'application/json': { schema: ErrorEnvelope } },
};
