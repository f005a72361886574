import type { MessageDescriptor } from '@lingui/core';
import { Errors, IMAGE_TOO_LARGE_LIMIT } from '../../domain/errors';
import { PHOTO_MAX_LABEL } from '../../domain/photo-review';
import type { RefusalOverrides } from './refusal-message';

/** A photo over the limit, worded as the server words it: the limit named ("512 KB"), so the member knows what to send. */
export const PHOTO_TOO_LARGE: MessageDescriptor = { ...IMAGE_TOO_LARGE_LIMIT, values: { limit: PHOTO_MAX_LABEL } };

/** A photo upload's own words for refusals (avatar, check-in photo), for refusalMessage / refusalText. */
export const PHOTO_REFUSALS: RefusalOverrides = { [Errors.imageTooLarge.code]: PHOTO_TOO_LARGE };
