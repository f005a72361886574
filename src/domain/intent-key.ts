/**
 * A new Idempotency-Key (DESIGN.md §4): one per member intent (a confirm, a pay tap), reused by that
 * intent's retries so the server does it once. The charts make them; the API client only sends them.
 */
export function newIntentKey(): string {
  return globalThis.crypto.randomUUID();
}
