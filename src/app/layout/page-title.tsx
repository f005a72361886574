import { createContext, useContext, useEffect } from 'react';
import { useLocation } from 'react-router-dom';

/** A screen's own title for the page it is on (null: the route's). */
export interface TitleOverride {
  path: string;
  title: string;
}

/** How a screen tells the layout its title: set for the page's path, so a title left by the page before is never shown. */
export const PageTitleContext = createContext<(t: TitleOverride | null) => void>(() => {});

/**
 * Names the page by what it shows now (a result page's title follows the order's state), in place of
 * the route's fixed title; the route's comes back when the screen leaves.
 */
export function usePageTitle(title: string): void {
  const set = useContext(PageTitleContext);
  const { pathname } = useLocation();
  useEffect(() => {
    set({ path: pathname, title });
  }, [set, pathname, title]);
  useEffect(() => () => set(null), [set]);
}
