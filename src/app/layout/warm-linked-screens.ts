import { matchRoutes, type RouteObject } from 'react-router-dom';

/** A performance mark set when the first screen is loaded ahead. */
export const WARM_MARK = 'warm-linked-screens';

/** The part of the data router this needs: its navigation state. */
interface NavigationSource {
  subscribe(fn: (state: { navigation: { state: string } }) => void): () => void;
}

/**
 * Issue 16, "every tap shows its effect within 100 ms". Every screen's code is its own chunk (route
 * splitting keeps the first load small), so the first tap on a link to a screen not loaded yet spent
 * tens of milliseconds of a slow phone's main thread inside the tap, starting that chunk's download
 * and linking it, before anything changed on screen. Once a page has settled and the browser is idle,
 * the screens that the page's links in view (footer tabs included) lead to are loaded ahead, once
 * each, as Next.js does for links in view. Not on a phone that asks to save data (`Save-Data`):
 * there the tap loads the screen as before. `npm run bench` counts these bytes apart from the first load.
 */
export function warmLinkedScreens(router: NavigationSource, routes: RouteObject[]): void {
  if (typeof window === 'undefined') return;
  const connection = (navigator as Navigator & { connection?: { saveData?: boolean } }).connection;
  if (connection?.saveData) return;
  const warmed = new Set<RouteObject>();
  const scan = () => {
    const height = window.innerHeight;
    for (const a of document.querySelectorAll<HTMLAnchorElement>('a[href]')) {
      // links in view only (the footer's tabs always are): what the member can tap next
      const box = a.getBoundingClientRect();
      if (box.bottom < 0 || box.top > height || box.width === 0) continue;
      const url = new URL(a.href, window.location.href);
      if (url.origin !== window.location.origin) continue;
      const leaf = matchRoutes(routes, url.pathname)?.at(-1)?.route;
      if (!leaf || warmed.has(leaf) || typeof leaf.lazy !== 'function') continue;
      // the bench tells these bytes apart from the first load's by this mark
      if (warmed.size === 0) performance.mark(WARM_MARK);
      warmed.add(leaf);
      // a failed download is tried again by the tap itself, and by the next scan
      void Promise.resolve(leaf.lazy()).catch(() => warmed.delete(leaf));
    }
  };
  let scheduled = false;
  const whenIdle = () => {
    if (scheduled) return;
    scheduled = true;
    const run = () => {
      scheduled = false;
      scan();
    };
    if ('requestIdleCallback' in window) window.requestIdleCallback(run, { timeout: 3000 });
    else setTimeout(run, 1000);
  };
  router.subscribe((state) => {
    if (state.navigation.state === 'idle') whenIdle();
  });
  if (document.readyState === 'complete') whenIdle();
  else window.addEventListener('load', whenIdle, { once: true });
}
