import { useEffect, useRef } from 'react';
import { useLocation } from 'react-router-dom';
import { browserApiOrThrow } from '../api-context';
import { SessionContext, useIsMember } from '../session/session-provider';
import { visitorId } from './visitor-id';

/**
 * What every navigation does (spec §2): a member's booked-class count is refreshed (the session
 * actor already fetches it when it starts, so the first page skips it) and a page view is reported,
 * fire-and-forget, never holding the screen up.
 */
export function useNavigationEffects(): void {
  const { pathname, search } = useLocation();
  const isMember = useIsMember();
  const session = SessionContext.useActorRef();
  const last = useRef<string | undefined>(undefined);
  const path = pathname + search;

  useEffect(() => {
    const previous = last.current;
    last.current = path;
    if (isMember && previous !== undefined && previous !== path) session.send({ type: 'booked.refresh' });
    const t = setTimeout(() => {
      try {
        void browserApiOrThrow()
          .catalog.pageView({ path, visitorId: visitorId() })
          .catch(() => {});
      } catch {
        /* no API (tests): nothing to report to */
      }
    }, 0);
    return () => clearTimeout(t);
    // a navigation is a change of path; the session state is read, not watched
  }, [path]);
}

/** A page restored from the back/forward cache after being hidden reloads, so it shows fresh data (spec §2). */
export function useReloadOnBackForwardRestore(): void {
  useEffect(() => {
    const onShow = (e: PageTransitionEvent) => {
      if (e.persisted) window.location.reload();
    };
    window.addEventListener('pageshow', onShow);
    return () => window.removeEventListener('pageshow', onShow);
  }, []);
}
