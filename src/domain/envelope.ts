/** The response envelope of spec §7 and DESIGN.md §4: every API body has this shape. */
export interface Envelope<T = unknown> {
  code: number;
  status: boolean;
  data: T;
  message?: string;
  /** the field a 400 refers to, as a dotted path (e.g. "username") */
  field?: string;
}

/** A paged list (pagenum counts from 0). */
export interface Paged<T> {
  list: T[];
  total: number;
  pagenum: number;
  pagesize: number;
}

export const OK = 200;

/**
 * The refusal of a retry whose first try is still being decided (70010): the API client waits and asks
 * again. Here rather than only in the error catalogue, which is not part of a page's first load.
 */
export const REQUEST_IN_PROGRESS = 70010;

/**
 * The refusal of every call but setting a new password, to a session opened with an initial password
 * (10016, decision 054): the API client sends the member to set it. Here for the same reason as above.
 */
export const PASSWORD_CHANGE_REQUIRED = 10016;

/** Success is code 200 with status true; anything else is a refusal. */
export function isOk(e: Pick<Envelope, 'code' | 'status'>): boolean {
  return e.code === OK && e.status === true;
}

/**
 * The refusal that asks for the security check first (10020, decision 056): the API client opens the
 * widget and sends the request again with its answer. Here for the same reason as above.
 */
export const CAPTCHA_REQUIRED = 10020;
