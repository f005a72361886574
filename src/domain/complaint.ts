/**
 * Complaint rules shared by the server and the app (decision 033). Pure: no imports of ours.
 */

/** The stored states of a complaint (the complaint chart's; the state-checks test keeps them equal). */
export const COMPLAINT_STATE_VALUES = ['filed', 'overdue', 'replied', 'satisfied', 'unsatisfied'] as const;

/** The longest complaint and reply (characters). */
export const COMPLAINT_MAX_CHARS = 500;

/** At most this many photos with one complaint. */
export const COMPLAINT_MAX_PHOTOS = 3;

/** A complaint unanswered this long after it was filed is flagged to staff (spec: 48 hours). */
export const COMPLAINT_OVERDUE_MS = 48 * 3_600_000;

/** Spec §5 "complaint content not empty": the content counts once trimmed. */
export const complaintContentEmpty = (content: string): boolean => content.trim().length === 0;
