/**
 * The browser's localStorage or sessionStorage, or undefined where the page may not have it (a
 * private window, storage blocked, or no window at all during the server's render). Reading the
 * property itself can throw there, so every use goes through this.
 */
export function safeStorage(kind: 'localStorage' | 'sessionStorage'): Storage | undefined {
  try {
    return globalThis[kind];
  } catch {
    return undefined;
  }
}
