import type { I18n } from '@lingui/core';
import { errorByCode, Errors, IMAGE_TOO_LARGE_LIMIT } from '../../domain/errors';
import { PHOTO_MAX_LABEL } from '../../domain/photo-review';

/** A photo over the limit, worded as the server words it: the limit named ("512 KB"), so the member knows what to send. */
export function imageTooLargeText(i18n: I18n): string {
  // a descriptor with its values, passed as one (the extractor reads only literal descriptors)
  const withLimit = { ...IMAGE_TOO_LARGE_LIMIT, values: { limit: PHOTO_MAX_LABEL } };
  return i18n._(withLimit);
}

/** A photo upload's refusal by its code: the limit named for a photo too large, else the catalogue's words. */
export function photoRefusalText(i18n: I18n, code: number | undefined): string {
  if (code === Errors.imageTooLarge.code) return imageTooLargeText(i18n);
  return i18n._((errorByCode(code ?? 0) ?? Errors.internal).message);
}
