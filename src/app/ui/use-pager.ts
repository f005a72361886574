import { useActorRef, useSelector } from '@xstate/react';
import { useRef } from 'react';
import { fromPromise, type SnapshotFrom } from 'xstate';
import { pagerMachine } from '../../../machines/pager.machine';
import type { Envelope, Paged } from '../../domain/envelope';

export type PagerState = 'more' | 'loading' | 'failed' | 'exhausted';
export type FetchPage<T> = (pagenum: number, pagesize: number) => Promise<Envelope<Paged<T>>>;

/** Where the list's end stands, from the chart's tags (a state that only decides carries none: "load more"). */
const stateOf = (s: SnapshotFrom<typeof pagerMachine>): PagerState =>
  s.hasTag('loading') ? 'loading' : s.hasTag('failed') ? 'failed' : s.hasTag('exhausted') ? 'exhausted' : 'more';

/**
 * A paged list beyond its loader's first page, from the pager chart (machines/pager.machine.ts):
 * the rows so far, where the list stands, and the member's two asks. Mount it once per first page
 * (a `key` that changes with it), so a new first page starts a new list.
 */
export function usePager<T>(first: Paged<T>, fetchPage: FetchPage<T>) {
  const latest = useRef(fetchPage);
  latest.current = fetchPage;
  const actor = useActorRef(
    pagerMachine.provide({
      actors: { fetchPage: fromPromise(({ input }) => latest.current(input.pagenum, input.pagesize) as Promise<Envelope<Paged<unknown>>>) },
    }),
    { input: { first } },
  );
  const state = useSelector(actor, stateOf);
  const later = useSelector(actor, (s) => s.context.later) as T[];
  return {
    list: later.length ? [...first.list, ...later] : first.list,
    state,
    load: () => actor.send({ type: 'pager.load' }),
    retry: () => actor.send({ type: 'pager.retry' }),
  };
}
