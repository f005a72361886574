import type { PhotoReviewState, PhotoStatus } from '../../src/domain/photo-review';
import { nextFlatState, storedStates } from './chart-states';
import { photoReviewMachine, type PhotoReviewEvent } from './photo-review.machine';

/**
 * Where a member's photo status goes on `event`, by the chart; null when the chart refuses it.
 * The server's one way to accept or refuse an upload or a review.
 */
export function nextPhotoStatus(status: PhotoStatus, event: PhotoReviewEvent['type']): PhotoStatus | null {
  return nextFlatState<PhotoStatus>(photoReviewMachine, status, event);
}

/** Whether the member may upload a photo now (the screen shows the upload button). */
export function canUploadPhoto(status: PhotoStatus): boolean {
  return nextPhotoStatus(status, 'photo.upload') !== null;
}

/** Every value `member_photos.state` may hold, from the chart (no row while there is no photo). */
export const PHOTO_STORED_STATES = storedStates<PhotoReviewState>(photoReviewMachine);
