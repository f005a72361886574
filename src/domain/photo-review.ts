/**
 * Photo review (spec §4: under review, rejected, passed; decision 007). A member's front photo is
 * what the club's face check-in compares against, so staff review it before it counts. Which change
 * a status allows is the chart's (machines/domain/photo-review.machine.ts).
 */
/** `reopened`: passed, and staff allowed another upload (decision 042). */
export const PHOTO_REVIEW_STATES = ['reviewing', 'rejected', 'passed', 'reopened'] as const;
export type PhotoReviewState = (typeof PHOTO_REVIEW_STATES)[number];

/** What the member sees: no photo yet, or the review state of the latest one. */
export type PhotoStatus = 'none' | PhotoReviewState;

/** Whether the photo counts (face check-in, the avatar on Mine): passed, or passed with another allowed. */
export const photoCounts = (s: PhotoStatus): boolean => s === 'passed' || s === 'reopened';

/** The largest photo accepted (bytes). The app scales a camera photo down well below it first. */
export const PHOTO_MAX_BYTES = 512 * 1024;

/** The limit as a member reads it ("512 KB"), the same in every language. */
export const PHOTO_MAX_LABEL = `${PHOTO_MAX_BYTES / 1024} KB`;

/** Room for the `data:image/webp;base64,` prefix a photo's text may start with. */
const DATA_URL_PREFIX_MAX = 64;

/** The longest text of a photo: PHOTO_MAX_BYTES in base64 (4 characters per 3 bytes) and its prefix. */
export const PHOTO_MAX_BASE64 = Math.ceil(PHOTO_MAX_BYTES / 3) * 4 + DATA_URL_PREFIX_MAX;

/**
 * The largest body of a photo upload (bytes): the longest photo text and room for the JSON around it
 * (the new-teacher request's name, phone and styles). The general body limit does not apply to these
 * uploads, so a photo too large is always "image too large" naming the limit (decision 053).
 */
export const PHOTO_BODY_MAX_BYTES = PHOTO_MAX_BASE64 + 16 * 1024;

/** Image types accepted, recognised from their first bytes (never from what the client says). */
export const PHOTO_TYPES = ['image/jpeg', 'image/png', 'image/webp'] as const;
export type PhotoType = (typeof PHOTO_TYPES)[number];

/** The type of an image from its magic bytes; null for anything else. */
export function sniffImageType(b: Uint8Array): PhotoType | null {
  if (b.length >= 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return 'image/jpeg';
  if (b.length >= 8 && [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a].every((v, i) => b[i] === v)) return 'image/png';
  if (b.length >= 12 && String.fromCharCode(...b.slice(0, 4)) === 'RIFF' && String.fromCharCode(...b.slice(8, 12)) === 'WEBP')
    return 'image/webp';
  return null;
}
