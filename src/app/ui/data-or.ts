import type { Envelope } from '../../domain/envelope';

/**
 * A loader's tolerant read: the envelope's data on success, else the fallback (a refusal or an
 * unreachable server). For parts of a screen that may be missing without failing the whole page.
 */
export async function dataOr<T>(call: Promise<Envelope<T>>, fallback: T): Promise<T> {
  try {
    const e = await call;
    return e.code === 200 && e.status ? e.data : fallback;
  } catch {
    return fallback;
  }
}

/** A numeric id from a path or query value; anything else (empty, "abc", "1.5", "0") is null. */
export function parseId(raw: string | null | undefined): number | null {
  if (!raw || !/^[1-9][0-9]{0,9}$/.test(raw)) return null;
  const n = Number(raw);
  return n <= 2_147_483_647 ? n : null;
}
