import { safeStorage } from '../../safe-storage';

/** The class a member left the booking page for, to buy a card that books it. */
export interface ClassToBook {
  id: number;
  title: string;
}

const KEY = 'yoga.classToBook';
/** A purchase finished later than this is no longer "for that class". */
const KEPT_MS = 2 * 60 * 60_000;

/** Remembered in this tab when the member leaves booking to buy a card; the payment's result leads back to it. */
export function rememberClassToBook(c: ClassToBook, now: number = Date.now()): void {
  safeStorage('sessionStorage')?.setItem(KEY, JSON.stringify({ ...c, at: now }));
}

/** The class remembered in this tab, while it is recent. */
export function classToBook(now: number = Date.now()): ClassToBook | null {
  try {
    const raw = safeStorage('sessionStorage')?.getItem(KEY);
    if (!raw) return null;
    const v = JSON.parse(raw) as { id?: unknown; title?: unknown; at?: unknown };
    if (typeof v.id !== 'number' || typeof v.title !== 'string' || typeof v.at !== 'number' || now - v.at > KEPT_MS) return null;
    return { id: v.id, title: v.title };
  } catch {
    return null;
  }
}

export function forgetClassToBook(): void {
  safeStorage('sessionStorage')?.removeItem(KEY);
}

/** The booking page of a class. */
export const bookClassPath = (id: number) => `/takecourse/bookcourse/bookcourseconfirm?id=${id}`;
