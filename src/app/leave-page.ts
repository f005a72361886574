/**
 * Leaving the app for a provider's page (Alipay's cashier): the browser loads that page and this one
 * is gone. Path tests (jsdom cannot navigate away) set where the request to leave goes, to check it.
 */
let leaver: ((url: string) => void) | undefined;

export function setPageLeaver(fn: ((url: string) => void) | undefined): void {
  leaver = fn;
}

export function leavePage(url: string): void {
  if (leaver) leaver(url);
  else window.location.assign(url);
}
