import { Trans } from '@lingui/react/macro';
import { Button } from 'konsta/react';
import type { ReactNode, Ref } from 'react';
import type { Paged } from '../../domain/envelope';
import { usePager, type FetchPage, type PagerState } from './use-pager';
import { useWhenVisible } from './use-when-visible';

/**
 * Rows a phone shows before any scroll (a 844 px screen holds about six list rows under a page's
 * header): their pictures are the first screen's, so they load with the page, not lazily after
 * layout (lazy loading held the card shop's largest paint to 1.9x a static page).
 */
export const FIRST_SCREEN_ROWS = 6;

/**
 * A member's paged list (my courses, my purchases): the loader's first page, later pages as the
 * member scrolls (or taps "load more"), and the empty state when there is nothing.
 */
export function PagedList<T>(props: PagedListProps<T>) {
  if (props.first.list.length === 0) return <>{props.empty}</>;
  // a new first page (the list changed) starts a new list
  const key = `${props.name}:${props.first.total}:${props.first.list.map(props.itemKey).join(',')}`;
  return <Pages key={key} {...props} />;
}

interface PagedListProps<T> {
  first: Paged<T>;
  fetchPage: FetchPage<T>;
  itemKey: (item: T) => string | number;
  /** one row; `firstScreen` for the rows a phone shows before any scroll (their pictures load at once) */
  row: (item: T, firstScreen: boolean) => ReactNode;
  empty: ReactNode;
  /** names the list for tests (data-list) and keys its pages */
  name: string;
  /** the list's classes (spaced cards by default) */
  className?: string;
}

function Pages<T>(props: PagedListProps<T>) {
  const { list, state, load, retry } = usePager(props.first, props.fetchPage);
  const sentinel = useWhenVisible<HTMLDivElement>(load, state === 'more');
  return (
    <>
      <ul className={props.className ?? 'space-y-3 px-4'} data-list={props.name}>
        {list.map((item, i) => (
          <li key={props.itemKey(item)}>{props.row(item, i < FIRST_SCREEN_ROWS)}</li>
        ))}
      </ul>
      <MoreButton state={state} sentinel={sentinel} onLoad={load} onRetry={retry} />
    </>
  );
}

/** The end of a paged list: "load more" (and the spot whose coming into view loads it), "loading", or retry after a failure. */
export function MoreButton(props: { state: PagerState; sentinel?: Ref<HTMLDivElement>; onLoad: () => void; onRetry: () => void }) {
  const { state } = props;
  if (state === 'exhausted') return null;
  return (
    <div ref={props.sentinel} className="px-4 pt-3">
      <Button rounded outline disabled={state === 'loading'} onClick={state === 'failed' ? props.onRetry : props.onLoad} data-more={state}>
        {state === 'loading' ? <Trans>加载中</Trans> : state === 'failed' ? <Trans>加载失败，点击重试</Trans> : <Trans>加载更多</Trans>}
      </Button>
    </div>
  );
}

/** What an empty list says, with one way on. */
export function EmptyList(props: { name: string; message: ReactNode; action?: ReactNode }) {
  return (
    <div className="px-8 py-12 text-center text-black/60" data-empty={props.name}>
      <p>{props.message}</p>
      {props.action && <div className="mx-auto mt-4 max-w-60">{props.action}</div>}
    </div>
  );
}
