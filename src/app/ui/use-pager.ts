import { useActorRef, useSelector } from '@xstate/react';
import { useRef } from 'react';
import { fromPromise } from 'xstate';
import { pagerMachine } from '../../../machines/pager.machine';
import type { Envelope, Paged } from '../../domain/envelope';

export type PagerState = 'more' | 'loading' | 'failed' | 'exhausted';
export type FetchPage<T> = (pagenum: number, pagesize: number) => Promise<Envelope<Paged<T>>>;

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
  // `opening` only decides where the list starts: at rest the list is in one of these
  const state = useSelector(actor, (s): PagerState => (['loading', 'failed', 'exhausted'] as const).find((k) => s.matches(k)) ?? 'more');
  const later = useSelector(actor, (s) => s.context.later) as T[];
  return {
    list: later.length ? [...first.list, ...later] : first.list,
    state,
    load: () => actor.send({ type: 'pager.load' }),
    retry: () => actor.send({ type: 'pager.retry' }),
  };
}
