/** Business constants of spec §9, named once. */
export const COOKIE_MAX_AGE_DAYS = 300;
export const COOKIE_MAX_AGE_SECONDS = COOKIE_MAX_AGE_DAYS * 24 * 60 * 60;
export const REQUEST_TIMEOUT_MS = 10_000;
export const HTTP_401_REDIRECT_DELAY_MS = 2_000;
export const TOAST_DURATION_MS = 2_000;
export const CONFIRM_INPUT_FOCUS_DELAY_MS = 300;
export const HOME_ACTIVITY_PAGE_SIZE = 3;
export const PASSWORD_MIN = 6;
export const PASSWORD_MAX = 15;
export const REAL_NAME_MAX = 20;
/** How to be addressed on the personal information (王老师, Ms Wang): the form's limit and the server's. */
export const SALUTATION_MAX = 12;
export const SURVEY_SKIP_DAYS = 7;
export const SMS_CODE_LENGTH = 6;
export const SMS_CODE_TTL_MS = 5 * 60_000;
export const SMS_CODE_MAX_TRIES = 5;
export const SMS_RESEND_COOLDOWN_S = 60;
export const RESET_TICKET_TTL_MS = 10 * 60_000;
export const TOKEN_TTL_DAYS = 300;
export const WRONG_PASSWORD_LIMIT_PER_HOUR = 10;
export const OPENID_TICKET_TTL_MS = 10 * 60_000;
export const TIME_ZONE = 'Asia/Shanghai';
/** How long before a class starts its asked teacher must have confirmed (decision 029; TEACHER_CONFIRM_HOURS overrides). */
export const DEFAULT_TEACHER_CONFIRM_HOURS = 24;
/** The longest decline reason a teacher may give (decision 029). */
export const DECLINE_REASON_MAX = 200;
/** A class's capacity: 1 to this many mats (decision 041). */
export const CLASS_CAPACITY_MAX = 200;
/** A class's title, in characters. */
export const CLASS_TITLE_MAX = 40;
