import { Errors, IMAGE_TOO_LARGE_LIMIT } from '../../domain/errors';
import { PHOTO_MAX_LABEL } from '../../domain/photo-review';
import { ApiError } from './api-error';

/** 70009 naming the field and, in the member's language, the photo's limit (decision 053). */
export function imageTooLarge(field: string): ApiError {
  return new ApiError(Errors.imageTooLarge, { field, message: IMAGE_TOO_LARGE_LIMIT, values: { limit: PHOTO_MAX_LABEL } });
}
