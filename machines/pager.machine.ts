import { assign, fromPromise, setup } from 'xstate';
import type { Envelope, Paged } from '../src/domain/envelope';
import { isOk } from '../src/domain/envelope';

/** The list's first page, as its route loader read it. */
export interface PagerInput {
  first: Paged<unknown>;
}

export interface PagerContext {
  /** the next page to ask for (pagenum counts from 0) */
  next: number;
  pagesize: number;
  /** rows in the list, as the server last counted them */
  total: number;
  /** the rows of the pages after the first, in order */
  later: unknown[];
  /** rows shown: the first page's and the later ones */
  loaded: number;
}

export type PagerEvent = { type: 'pager.load' } | { type: 'pager.retry' };

/**
 * A paged list beyond its first page (DESIGN.md §5 "lists page as they scroll"): while more rows
 * exist the next page loads when the list's end comes into view (or on "load more"); a page that
 * does not come is said with a retry; the list ends when every row is shown. Effects are provided:
 * actor fetchPage (the list's API call).
 * Tags say what the list's end shows: `more` "load more", `loading` a page in flight, `failed` the
 * retry, `exhausted` nothing (every row is shown).
 */
export const pagerMachine = setup({
  types: {
    context: {} as PagerContext,
    events: {} as PagerEvent,
    input: {} as PagerInput,
    tags: {} as 'more' | 'loading' | 'failed' | 'exhausted',
  },
  actors: {
    fetchPage: fromPromise<Envelope<Paged<unknown>>, { pagenum: number; pagesize: number }>(async () => {
      throw new Error('fetchPage is provided by the app');
    }),
  },
  actions: {
    keepPage: assign(({ context }, params: { page: Paged<unknown> }) => ({
      later: [...context.later, ...params.page.list],
      loaded: context.loaded + params.page.list.length,
      total: params.page.total,
      next: context.next + 1,
    })),
  },
  guards: {
    allShown: ({ context }) => context.loaded >= context.total,
    refused: (_, params: { envelope: Envelope<unknown> }) => !isOk(params.envelope),
    // an empty page ends the list too: rows removed since the first page was read
    lastPage: ({ context }, params: { page: Paged<unknown> }) =>
      params.page.list.length === 0 || context.loaded + params.page.list.length >= params.page.total,
  },
}).createMachine({
  id: 'pager',
  context: ({ input }) => ({
    next: input.first.pagenum + 1,
    pagesize: input.first.pagesize,
    total: input.first.total,
    later: [],
    loaded: input.first.list.length,
  }),
  initial: 'opening',
  states: {
    opening: {
      description: 'Decides from the first page whether the list has more rows.',
      always: [{ guard: 'allShown', target: 'exhausted' }, { target: 'more' }],
    },
    more: {
      description: 'The rows so far and, at the end of the list, "load more": the next page loads when it scrolls into view or is tapped.',
      tags: ['more'],
      on: { 'pager.load': 'loading' },
    },
    loading: {
      description: 'The next page is asked of the server: the rows so far and a disabled "loading" at the end.',
      tags: ['loading'],
      invoke: {
        id: 'fetchPage',
        src: 'fetchPage',
        input: ({ context }) => ({ pagenum: context.next, pagesize: context.pagesize }),
        onDone: [
          { guard: { type: 'refused', params: ({ event }) => ({ envelope: event.output }) }, target: 'failed' },
          {
            guard: { type: 'lastPage', params: ({ event }) => ({ page: event.output.data }) },
            target: 'exhausted',
            actions: { type: 'keepPage', params: ({ event }) => ({ page: event.output.data }) },
          },
          { target: 'more', actions: { type: 'keepPage', params: ({ event }) => ({ page: event.output.data }) } },
        ],
        onError: 'failed',
      },
    },
    failed: {
      description: 'The next page did not come: the rows so far and "loading failed, tap to retry" (nothing loads by itself).',
      tags: ['failed'],
      on: { 'pager.retry': 'loading' },
    },
    exhausted: {
      description: 'Every row is shown: no "load more" any more.',
      tags: ['exhausted'],
    },
  },
});
