import { OpenAPIHono, z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { Errors } from '../../domain/errors';
import type { AppEnv } from '../env';
import { IMAGE_TOO_LARGE_ISSUE } from '../../contracts/photos';
import { ApiError } from './api-error';
import { imageTooLarge } from './image-too-large';
import { sizedJson } from './sized-json';

/**
 * Every sub-app is made here so every route parses its input with the same hook:
 * a schema failure is a 400 envelope naming the first bad field (a photo too long: 413 70009), never a 500.
 */
export function createRouter() {
  return new OpenAPIHono<AppEnv>({
    defaultHook: (result) => {
      if (!result.success) {
        const issue = result.error.issues[0];
        const field = issue?.path.map(String).join('.') || (result.target as string) || 'body';
        // a photo's text longer than a photo of PHOTO_MAX_BYTES is the photo's refusal, not a bad field
        if (issue?.message === IMAGE_TOO_LARGE_ISSUE) throw imageTooLarge(field);
        throw new ApiError(Errors.invalidField, { field, values: { field } });
      }
    },
  });
}

/** The success envelope. */
export function ok<T>(c: Context, data: T, extra: Record<string, unknown> = {}) {
  return sizedJson(c, { code: 200, status: true, data, ...extra } as const, 200);
}

/** Schema helpers for the OpenAPI document: the envelope around a data schema. */
export function envelope<T extends z.ZodTypeAny>(data: T) {
  return z.object({
    code: z.number().int().openapi({ example: 200 }),
    status: z.boolean(),
    data,
    message: z.string().optional(),
  });
}

/** A refusal envelope whose data says more (the code-too-soon refusal's seconds left). */
export function refusalEnvelope<T extends z.ZodTypeAny>(data: T) {
  return z.object({
    code: z.number().int(),
    status: z.literal(false),
    data,
    message: z.string(),
    field: z.string().optional(),
  });
}

/** The refusal envelope, for documenting 4xx answers. */
export const ErrorEnvelope = refusalEnvelope(z.null()).openapi('Error');

/** Standard refusal responses to spread into a route's `responses`. */
export const refusals = {
  400: { description: 'Bad input (the field is named)', content: { 'application/json': { schema: ErrorEnvelope } } },
  401: { description: 'Missing, expired or revoked token', content: { 'application/json': { schema: ErrorEnvelope } } },
  403: { description: 'Not allowed', content: { 'application/json': { schema: ErrorEnvelope } } },
  404: { description: 'Not found', content: { 'application/json': { schema: ErrorEnvelope } } },
  409: { description: 'State conflict', content: { 'application/json': { schema: ErrorEnvelope } } },
  429: { description: 'Too many requests', content: { 'application/json': { schema: ErrorEnvelope } } },
} as const;
