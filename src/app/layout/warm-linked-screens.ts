import { matchRoutes, type RouteObject } from 'react-router-dom';

/** A performance mark set when the first screen is loaded ahead. */
export const WARM_MARK = 'warm-linked-screens';

/** The part of the data router this needs: its navigation state. */
interface NavigationSource {
  subscribe(fn: (state: { navigation: { state: string } }) => void): () => void;
}

/**
 * The routes whose path has no parameter, by their lower-case path from the root: a link to one of
 * them is that route (React Router ranks an exact static match first, and matches without case).
 */
export function staticPaths(routes: RouteObject[], base = ''): Map<string, RouteObject> {
  const out = new Map<string, RouteObject>();
  for (const r of routes) {
    const full = r.index ? base || '/' : `${base === '/' ? '' : base}/${(r.path ?? '').replace(/^\//, '')}`.replace(/\/$/, '') || '/';
    if (r.children) for (const [k, v] of staticPaths(r.children, full)) out.set(k, v);
    else if (!/[:*]/.test(full) && !out.has(full.toLowerCase())) out.set(full.toLowerCase(), r);
  }
  return out;
}

/**
 * Every tap shows its effect within 100 ms. Every screen's code is its own chunk (route
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
  const staticLeaves = staticPaths(routes);
  /** paths of links in view not looked at yet, each looked at once */
  const queue: string[] = [];
  const queued = new Set<string>();
  const scan = () => {
    const height = window.innerHeight;
    for (const a of document.querySelectorAll<HTMLAnchorElement>('a[href]')) {
      // links in view only (the footer's tabs always are): what the member can tap next
      const box = a.getBoundingClientRect();
      if (box.bottom < 0 || box.top > height || box.width === 0) continue;
      const url = new URL(a.href, window.location.href);
      if (url.origin !== window.location.origin || queued.has(url.pathname)) continue;
      queued.add(url.pathname);
      queue.push(url.pathname);
    }
  };
  const warm = (pathname: string) => {
    const leaf = staticLeaves.get(pathname.toLowerCase().replace(/(.)\/$/, '$1')) ?? matchRoutes(routes, pathname)?.at(-1)?.route;
    if (!leaf || warmed.has(leaf) || typeof leaf.lazy !== 'function') return;
    // the bench tells these bytes apart from the first load's by this mark
    if (warmed.size === 0) performance.mark(WARM_MARK);
    warmed.add(leaf);
    // a failed download is tried again by the tap itself (and by this path's next visit to the page)
    void Promise.resolve(leaf.lazy()).catch(() => {
      warmed.delete(leaf);
      queued.delete(pathname);
    });
  };
  // Warming costs the main thread: matching a path with a parameter ranks the whole route table
  // and compiles its patterns, and loading a screen appends its preload links, then downloads,
  // compiles and runs its code. All of a Homepage's links in one task took 80-330 ms of a phone's
  // main thread (CPU 4x slower), and warming right as the page settled held the taps that came then
  // (the Mine tab 56-176 ms, 32-48 ms with no warming). So it starts after a quiet second (no
  // navigation, no touch), one path per idle slice (a path per timer without idle callbacks: Safari).
  let scheduled = false;
  let rescan = false;
  /** warming waits for this moment: a quiet second after the last navigation or touch */
  let quietFrom = 0;
  const QUIET_MS = 1000;
  const step = (deadline?: IdleDeadline) => {
    scheduled = false;
    const wait = quietFrom - performance.now();
    if (wait > 0) {
      scheduled = true;
      setTimeout(() => {
        scheduled = false;
        schedule();
      }, wait);
      return;
    }
    if (rescan) {
      rescan = false;
      scan();
    }
    while (queue.length > 0) {
      warm(queue.shift()!);
      if (!deadline || deadline.timeRemaining() <= 0) break;
    }
    if (queue.length > 0) schedule();
  };
  const schedule = () => {
    if (scheduled) return;
    scheduled = true;
    if ('requestIdleCallback' in window) window.requestIdleCallback(step, { timeout: 3000 });
    else setTimeout(step, 50);
  };
  const whenIdle = () => {
    rescan = true;
    quietFrom = performance.now() + QUIET_MS;
    schedule();
  };
  // a touch puts warming off: the tap it starts, and the next, come first
  window.addEventListener('pointerdown', () => (quietFrom = performance.now() + QUIET_MS), { capture: true, passive: true });
  router.subscribe((state) => {
    if (state.navigation.state === 'idle') whenIdle();
  });
  if (document.readyState === 'complete') whenIdle();
  else window.addEventListener('load', whenIdle, { once: true });
}
