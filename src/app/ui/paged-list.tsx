import { Trans } from '@lingui/react/macro';
import { Button } from 'konsta/react';
import type { ReactNode } from 'react';
import type { Envelope, Paged } from '../../domain/envelope';
import { useMorePages, useWhenVisible } from './use-more-pages';

/**
 * A member's paged list (my courses, my purchases): the loader's first page, later pages as the
 * member scrolls (or taps "load more"), and the empty state when there is nothing.
 */
export function PagedList<T>(props: {
  first: Paged<T>;
  fetchPage: (pagenum: number, pagesize: number) => Promise<Envelope<Paged<T>>>;
  itemKey: (item: T) => string | number;
  row: (item: T) => ReactNode;
  empty: ReactNode;
  /** names the list for tests (data-list) and keys its pages */
  name: string;
  /** the list's classes (spaced cards by default) */
  className?: string;
}) {
  const key = `${props.name}:${props.first.total}:${props.first.list.map(props.itemKey).join(',')}`;
  const { list, hasMore, loading, failed, load } = useMorePages(props.first, key, props.fetchPage);
  const sentinel = useWhenVisible<HTMLDivElement>(() => void load(), hasMore && !loading && !failed);
  if (list.length === 0) return <>{props.empty}</>;
  return (
    <>
      <ul className={props.className ?? 'space-y-3 px-4'} data-list={props.name}>
        {list.map((item) => (
          <li key={props.itemKey(item)}>{props.row(item)}</li>
        ))}
      </ul>
      {hasMore && (
        <div ref={sentinel} className="px-4 pt-3">
          <Button rounded outline disabled={loading} onClick={() => void load()} data-more>
            {loading ? <Trans>加载中</Trans> : failed ? <Trans>加载失败，点击重试</Trans> : <Trans>加载更多</Trans>}
          </Button>
        </div>
      )}
    </>
  );
}

/** What an empty list says, with one way on. */
export function EmptyList(props: { name: string; message: ReactNode; action?: ReactNode }) {
  return (
    <div className="px-8 py-12 text-center text-black/50" data-empty={props.name}>
      <p>{props.message}</p>
      {props.action && <div className="mx-auto mt-4 max-w-60">{props.action}</div>}
    </div>
  );
}
