import type { MiddlewareHandler } from 'hono';
import { Errors } from '../../domain/errors';
import type { AppEnv } from '../env';
import { ApiError } from './api-error';

const NUL = '\u0000';
/** A UTF-16 surrogate without its other half: not text (a JSON escape such as \ud800 alone). */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
/** The JSON escape of a surrogate, either half: a body that has one is parsed and looked at. */
const SURROGATE_ESCAPE = /\\u[dD][89a-fA-F][0-9a-fA-F]{2}/;

/** Whether a string is text PostgreSQL can store as it is: no NUL, no lone surrogate. */
const storable = (text: string) => !text.includes(NUL) && !LONE_SURROGATE.test(text);

/** Where in a parsed JSON value a string is not storable text (`note.1.deep`), or null. */
function nulAt(value: unknown, path: string[] = []): string | null {
  if (typeof value === 'string') return storable(value) ? null : path.join('.') || 'body';
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const at = nulAt(value[i], [...path, String(i)]);
      if (at !== null) return at;
    }
    return null;
  }
  if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      if (!storable(k)) return [...path, k].join('.');
      const at = nulAt(v, [...path, k]);
      if (at !== null) return at;
    }
  }
  return null;
}

/**
 * Refuses a NUL character in the query, the path or a JSON body before any route sees it:
 * PostgreSQL cannot store NUL in text, so it would otherwise end as a 500 deep in a query. It is bad
 * input like any other: 400 naming the field. So is a lone surrogate in a JSON string (`"\ud800"`
 * with no low half): it is not text, PostgreSQL's client would store it altered (as U+FFFD), and an
 * answer echoing it could not be kept as an idempotency key's jsonb. A URL cannot carry one: its
 * percent-decoding refuses the bytes. The body is read as text first, so a route that needs the
 * exact bytes (a signed payment notification) still gets them.
 */
export const refuseNul: MiddlewareHandler<AppEnv> = async (c, next) => {
  const refuse = (field: string) => {
    throw new ApiError(Errors.invalidField, { field, values: { field } });
  };
  if (c.req.path.includes(NUL)) refuse('path');
  for (const [name, values] of Object.entries(c.req.queries())) {
    if (name.includes(NUL) || values.some((v) => v.includes(NUL))) refuse(name);
  }
  if ((c.req.header('content-type') ?? '').includes('json')) {
    const text = await c.req.text();
    // a JSON NUL is the escape \u0000 (or a raw byte, which JSON.parse refuses and the route's parser
    // reports); a lone surrogate can only be an escape (UTF-8 bytes cannot hold one)
    if (text.includes(NUL) || /\\u0000/i.test(text) || SURROGATE_ESCAPE.test(text)) {
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch {
        return next();
      }
      const at = nulAt(parsed);
      if (at !== null) refuse(at);
    }
  }
  return next();
};
