import { useEffect, useRef } from 'react';

/** Calls `onVisible` when the returned element scrolls into view (the next page of a list). */
export function useWhenVisible<E extends Element>(onVisible: () => void, enabled: boolean) {
  const ref = useRef<E>(null);
  const latest = useRef(onVisible);
  latest.current = onVisible;
  useEffect(() => {
    const el = ref.current;
    if (!el || !enabled || typeof IntersectionObserver === 'undefined') return;
    const io = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting)) latest.current();
      },
      { rootMargin: '200px' },
    );
    io.observe(el);
    return () => io.disconnect();
  }, [enabled]);
  return ref;
}
