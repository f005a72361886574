import { useMatches } from 'react-router-dom';
import type { RouteHandle } from '../routes';

/** The deepest matched route's handle (title, showFooter). */
export function useRouteHandle(): RouteHandle {
  const matches = useMatches();
  for (let i = matches.length - 1; i >= 0; i--) {
    const h = matches[i]?.handle as RouteHandle | undefined;
    if (h) return h;
  }
  return { showFooter: true, requiresLogin: false };
}
