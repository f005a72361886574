import { data } from 'react-router-dom';
import type { Envelope } from '../../../domain/envelope';
import { Errors } from '../../../domain/errors';

/** A staff page's data: the answer, or why not (403: not a staff account; another code: failed). */
export type StaffData<T> = { ok: true; data: T } | { ok: false; code: number };

/** Runs a staff page's read; a 403 is kept (the page says why), a network failure is 70002. */
export async function staffRead<T>(read: () => Promise<Envelope<T>>) {
  try {
    const r = await read();
    if (r.code === 200) return data<StaffData<T>>({ ok: true, data: r.data as T });
    return data<StaffData<T>>({ ok: false, code: r.code }, { status: r.code === Errors.forbidden.code ? 403 : 503 });
  } catch {
    return data<StaffData<T>>({ ok: false, code: Errors.network.code }, { status: 503 });
  }
}
