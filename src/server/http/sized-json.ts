import type { Context, TypedResponse } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { JSONParsed } from 'hono/utils/types';

/**
 * `c.json` with its Content-Length (decision 049). hono/compress leaves an answer under 1 kB alone
 * only when it knows the length, and `c.json` sets none: every small envelope (a refusal, an order)
 * went through a gzip CompressionStream, a measurable part of a flash-sale request's CPU. With the
 * length set, small answers go as they are and larger ones are still gzipped (compress drops the
 * length then).
 */
export function sizedJson<T, U extends ContentfulStatusCode>(
  c: Context,
  object: T,
  status: U,
): Response & TypedResponse<JSONParsed<T>, U, 'json'> {
  const text = JSON.stringify(object);
  const res = c.body(text, status, { 'Content-Type': 'application/json', 'Content-Length': String(Buffer.byteLength(text)) });
  texts.set(res, text);
  return res as unknown as Response & TypedResponse<JSONParsed<T>, U, 'json'>;
}

/** The JSON text of each answer `sizedJson` made, while the answer lives. */
const texts = new WeakMap<Response, string>();

/**
 * The JSON text of an answer, for keeping it (the idempotency key's first answer): the text
 * `sizedJson` sent, without reading the answer's body again; any other answer's body read from a clone.
 */
export async function jsonTextOf(res: Response): Promise<string | null> {
  const text = texts.get(res);
  if (text !== undefined) return text;
  const body = await res
    .clone()
    .json()
    .catch(() => null);
  return body === null ? null : JSON.stringify(body);
}
