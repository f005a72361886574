import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { HTTPException } from 'hono/http-exception';
import { Errors } from '../../domain/errors';
import { FIELD_LABELS } from '../../domain/fields';
import type { AppEnv } from '../env';
import { translate, type Locale } from '../i18n';
import { ApiError } from './api-error';
import { sizedJson } from './sized-json';

/** A field's name in the member's language ("username" -> 手机号), or the key as it is. */
function fieldLabel(locale: Locale, field: string): string {
  const key = field.split('.').pop() ?? field;
  const label = FIELD_LABELS[key];
  return label ? translate(locale, label) : field;
}

function isBilingual(v: unknown): v is { zh: string; en: string | null } {
  return typeof v === 'object' && v !== null && 'zh' in v && 'en' in v;
}

/** The refusal envelope of an ApiError in the member's language, and its HTTP status. */
export function refusalOf(c: Context<AppEnv>, err: ApiError): { status: ContentfulStatusCode; body: Record<string, unknown> } {
  const locale = c.get('locale') ?? 'zh';
  const { def, options } = err;
  const values = { ...options.values };
  if (typeof values.field === 'string') values.field = fieldLabel(locale, values.field);
  // a name the data has in both languages ({ zh, en }): the member's
  for (const [k, v] of Object.entries(values)) if (isBilingual(v)) values[k] = locale === 'en' && v.en ? v.en : v.zh;
  return {
    status: def.http as ContentfulStatusCode,
    body: {
      code: def.code,
      status: false,
      data: options.data ?? null,
      message: translate(locale, options.message ?? def.message, values),
      ...(options.field ? { field: options.field } : {}),
    },
  };
}

/** Turns any thrown error into the envelope; unknown errors are logged and answered 500 without detail. */
export function errorResponse(c: Context<AppEnv>, err: unknown): Response {
  const locale = c.get('locale') ?? 'zh';
  if (err instanceof ApiError) {
    const { status, body } = refusalOf(c, err);
    return sizedJson(c, body, status);
  }
  if (err instanceof HTTPException) {
    const def = err.status === 413 ? Errors.tooLarge : err.status === 404 ? Errors.notFound : Errors.invalidField;
    const field = def === Errors.invalidField ? 'body' : undefined;
    return sizedJson(
      c,
      {
        code: def.code,
        status: false,
        data: null,
        message: translate(locale, def.message, field ? { field: fieldLabel(locale, field) } : {}),
        ...(field ? { field } : {}),
      },
      def.http as ContentfulStatusCode,
    );
  }
  c.get('deps')?.log.error('unhandled error', { path: c.req.path, error: err instanceof Error ? err.stack : String(err) });
  return sizedJson(c, { code: Errors.internal.code, status: false, data: null, message: translate(locale, Errors.internal.message) }, 500);
}
