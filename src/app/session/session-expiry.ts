import { HTTP_401_REDIRECT_DELAY_MS } from '../../domain/limits';

/** What the app does when the API says the login expired (wired by entry-client.tsx). */
export interface ExpiryEffects {
  /** the expired-login toast */
  toast(): void;
  /** session.expired to the session actor (its forgetSession action clears the cookies) */
  expire(): void;
  /** where the member is now (path + search) */
  here(): string;
  navigate(to: string): void;
  /** a session is held now (the member logged in again while the HTTP case waited) */
  loggedIn(): boolean;
}

/**
 * Spec §7: a 401 in the body, or an HTTP 401, shows the expired-login toast, clears the token and
 * goes to /login with the from path; the HTTP case waits 2 s first, and stays put when the member
 * logged in again meanwhile. Repeated 401s of one expiry (several calls in flight) act once.
 */
export function createExpiryHandler(
  effects: () => ExpiryEffects | undefined,
  loginPath: (from: string) => string,
  delayMs = HTTP_401_REDIRECT_DELAY_MS,
  waitMs = 100,
) {
  let handling = false;
  const handle = (how: 'body' | 'http', tries: number): void => {
    const fx = effects();
    if (handling) return;
    if (!fx) {
      // the app is not mounted yet (a 401 during start-up): wait for it rather than lose the expiry
      if (tries < 100) setTimeout(() => handle(how, tries + 1), waitMs);
      return;
    }
    handling = true;
    const from = fx.here();
    fx.toast();
    fx.expire();
    const go = () => {
      handling = false;
      if (!from.startsWith('/login') && !fx.loggedIn()) fx.navigate(loginPath(from));
    };
    if (how === 'http') setTimeout(go, delayMs);
    else go();
  };
  return (how: 'body' | 'http') => handle(how, 0);
}
