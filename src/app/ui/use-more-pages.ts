import { useEffect, useRef, useState } from 'react';
import type { Envelope, Paged } from '../../domain/envelope';

interface More<T> {
  key: string;
  list: T[];
  next: number;
  loading: boolean;
  failed: boolean;
}

/**
 * A paged list beyond the loader's first page (DESIGN.md §5 "lists page as they scroll"): later pages
 * are fetched on demand and kept with the first page they belong to (`key` changes when it does).
 */
export function useMorePages<T>(first: Paged<T>, key: string, fetchPage: (pagenum: number, pagesize: number) => Promise<Envelope<Paged<T>>>) {
  const [more, setMore] = useState<More<T>>({ key: '', list: [], next: 1, loading: false, failed: false });
  const cur = more.key === key ? more : { key, list: [], next: first.pagenum + 1, loading: false, failed: false };
  const list = [...first.list, ...cur.list];
  const hasMore = list.length < first.total;
  const load = async () => {
    if (cur.loading || !hasMore) return;
    setMore({ ...cur, loading: true, failed: false });
    const r = await fetchPage(cur.next, first.pagesize).catch(() => null);
    const ok = r?.code === 200 && r.status;
    setMore({
      key,
      list: ok ? [...cur.list, ...r.data.list] : cur.list,
      next: ok ? cur.next + 1 : cur.next,
      loading: false,
      failed: !ok,
    });
  };
  return { list, hasMore, loading: cur.loading, failed: cur.failed, load };
}

/** Calls `onVisible` when the returned element scrolls into view (the next page of a list). */
export function useWhenVisible<E extends Element>(onVisible: () => void, enabled: boolean) {
  const ref = useRef<E>(null);
  const latest = useRef(onVisible);
  latest.current = onVisible;
  useEffect(() => {
    const el = ref.current;
    if (!el || !enabled || typeof IntersectionObserver === 'undefined') return;
    const io = new IntersectionObserver((entries) => {
      if (entries.some((e) => e.isIntersecting)) latest.current();
    }, { rootMargin: '200px' });
    io.observe(el);
    return () => io.disconnect();
  }, [enabled]);
  return ref;
}
