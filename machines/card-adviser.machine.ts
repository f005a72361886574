import { assign, fromPromise, setup } from 'xstate';
import type { CardAdviser, MemberCardDetail } from '../src/api/cards';
import type { CardStatus } from '../src/domain/booking-rules';
import type { Envelope } from '../src/domain/envelope';
import { isOk } from '../src/domain/envelope';
import { newIntentKey } from '../src/domain/intent-key';
import { canApplyCard } from './domain/card-transitions';

/** A club the member may choose (GET /school/clubs). */
export interface AdviserClub {
  id: number;
  name: string;
}

export interface CardAdviserInput {
  cardId: number;
  /** the card as the page shows it: the card chart says whether its adviser may be changed */
  status: CardStatus;
  /** the card's adviser now; null when none is chosen */
  adviser: CardAdviser | null;
}

/** A required field left empty (spec §5: adviser change needs club and adviser). */
export type AdviserField = 'clubId' | 'adviserId';

export interface CardAdviserContext extends CardAdviserInput {
  clubs: AdviserClub[];
  /** the club chosen first, and its advisers */
  clubId?: number;
  advisers: CardAdviser[];
  adviserId?: number;
  /** the required field the member left empty when asking */
  missing?: AdviserField;
  /** what failed to reach the server, for retry */
  failed?: 'clubs' | 'advisers' | 'change';
  /** one per intent (the member's confirm), reused by its retries */
  idempotencyKey?: string;
  /** the server's refusal, e.g. 30049 already this card's adviser */
  errorCode?: number;
}

export type CardAdviserEvent =
  | { type: 'adviser.open' }
  | { type: 'club.choose'; clubId: number }
  | { type: 'adviser.choose'; adviserId: number }
  | { type: 'adviser.submit' }
  | { type: 'form.close' }
  | { type: 'network.retry' };

/**
 * Changing one of my cards' adviser on its page (/mine/carddetail; spec §4 "change adviser", §5
 * "needs club and adviser"; decision 034): the clubs are read, the member chooses a club (its
 * advisers are read) and then one of its advisers; asking without a club or without an adviser is
 * refused in the form naming the field, nothing sent; the change is sent under one Idempotency-Key
 * per intent: changed (the card reloaded, its timeline shows it), or refused with the server's code
 * said in the form, or unreachable with retry of what failed. Whether the card offers it is the card
 * chart's answer (a transferred or invalid card does not), with the server's offer.
 * Effects are provided: actors loadClubs, loadAdvisers and changeAdviser; actions cardChanged and sayChanged.
 * Tags, as on the other card charts, say what the page shows: `editing` the form is open, `busy` a
 * request is in flight (its button says it is working), `loading` the form's data is being read (the
 * page says so instead of the form), `unreachable` the retry.
 */
export const cardAdviserMachine = setup({
  types: {
    context: {} as CardAdviserContext,
    events: {} as CardAdviserEvent,
    input: {} as CardAdviserInput,

    tags: {} as 'editing' | 'busy' | 'loading' | 'unreachable',
  },
  actors: {
    loadClubs: fromPromise<AdviserClub[]>(async () => {
      throw new Error('loadClubs is provided by the app');
    }),
    loadAdvisers: fromPromise<CardAdviser[], { clubId: number }>(async () => {
      throw new Error('loadAdvisers is provided by the app');
    }),
    changeAdviser: fromPromise<Envelope<MemberCardDetail>, { id: number; clubId: number; adviserId: number; idempotencyKey: string }>(
      async () => {
        throw new Error('changeAdviser is provided by the app');
      },
    ),
  },
  actions: {
    freshForm: assign({
      clubId: undefined,
      advisers: () => [],
      adviserId: undefined,
      missing: undefined,
      errorCode: undefined,
      failed: undefined,
    }),
    keepClubs: assign({ clubs: (_, p: { clubs: AdviserClub[] }) => p.clubs }),
    chooseClub: assign({
      clubId: (_, p: { clubId: number }) => p.clubId,
      advisers: () => [],
      adviserId: undefined,
      missing: undefined,
      errorCode: undefined,
    }),
    keepAdvisers: assign({ advisers: (_, p: { advisers: CardAdviser[] }) => p.advisers }),
    chooseAdviser: assign({ adviserId: (_, p: { adviserId: number }) => p.adviserId, missing: undefined, errorCode: undefined }),
    sayMissing: assign({ missing: (_, p: { field: AdviserField }) => p.field, errorCode: undefined }),
    newIntent: assign({ idempotencyKey: () => newIntentKey(), errorCode: undefined, missing: undefined }),
    failedAt: assign({ failed: (_, p: { what: 'clubs' | 'advisers' | 'change' }) => p.what }),
    keepCode: assign({ errorCode: (_, p: { code: number }) => p.code }),
    keepCard: assign({
      status: (_, p: { card: MemberCardDetail }) => p.card.status,
      adviser: (_, p: { card: MemberCardDetail }) => p.card.adviser,
    }),
    cardChanged: () => {},
    sayChanged: () => {},
  },
  guards: {
    changeable: ({ context }) => canApplyCard(context.status, 'card.changeAdviser'),
    noClub: ({ context }) => context.clubId === undefined,
    noAdviser: ({ context }) => context.adviserId === undefined,
    failedAt: ({ context }, p: { what: 'clubs' | 'advisers' | 'change' }) => context.failed === p.what,
    refused: (_, params: { envelope: Envelope<unknown> }) => !isOk(params.envelope),
  },
}).createMachine({
  id: 'cardAdviser',
  context: ({ input }) => ({ ...input, clubs: [], advisers: [] }),
  initial: 'idle',
  states: {
    idle: {
      description:
        'The card page: its adviser (or none yet) and, when the server offers it, "change adviser"; a transferred or invalid card says the reason instead. After a change the card shows its new adviser and its timeline the change.',
      on: { 'adviser.open': { guard: 'changeable', target: 'loadingClubs', actions: 'freshForm' } },
    },
    loadingClubs: {
      tags: ['busy', 'loading'],
      description: 'The clubs are being read: the form says it is loading.',
      invoke: {
        id: 'loadClubs',
        src: 'loadClubs',
        onDone: { target: 'choosing', actions: { type: 'keepClubs', params: ({ event }) => ({ clubs: event.output }) } },
        onError: { target: 'unreachable', actions: { type: 'failedAt', params: { what: 'clubs' } } },
      },
    },
    choosing: {
      tags: ['editing'],
      description:
        'The form: the clubs to choose from, then the chosen club\'s advisers, and "confirm"; confirming without a club or without an adviser says which is missing and sends nothing; a refusal from the server is said in the form; "cancel" closes it.',
      on: {
        'club.choose': { target: 'loadingAdvisers', actions: { type: 'chooseClub', params: ({ event }) => ({ clubId: event.clubId }) } },
        'adviser.choose': {
          target: 'choosing',
          actions: { type: 'chooseAdviser', params: ({ event }) => ({ adviserId: event.adviserId }) },
        },
        'adviser.submit': [
          { guard: 'noClub', target: 'choosing', actions: { type: 'sayMissing', params: { field: 'clubId' } } },
          { guard: 'noAdviser', target: 'choosing', actions: { type: 'sayMissing', params: { field: 'adviserId' } } },
          { target: 'changing', actions: 'newIntent' },
        ],
        'form.close': 'idle',
      },
    },
    loadingAdvisers: {
      tags: ['editing', 'busy'],
      description: "The chosen club's advisers are being read: the adviser list says it is loading and nothing can be confirmed.",
      invoke: {
        id: 'loadAdvisers',
        src: 'loadAdvisers',
        input: ({ context }) => ({ clubId: context.clubId! }),
        onDone: { target: 'choosing', actions: { type: 'keepAdvisers', params: ({ event }) => ({ advisers: event.output }) } },
        onError: { target: 'unreachable', actions: { type: 'failedAt', params: { what: 'advisers' } } },
      },
    },
    changing: {
      tags: ['editing', 'busy'],
      description: 'The change was sent: the form says it is working and cannot be sent again.',
      invoke: {
        id: 'changeAdviser',
        src: 'changeAdviser',
        input: ({ context }) => ({
          id: context.cardId,
          clubId: context.clubId!,
          adviserId: context.adviserId!,
          idempotencyKey: context.idempotencyKey!,
        }),
        onDone: [
          {
            guard: { type: 'refused', params: ({ event }) => ({ envelope: event.output }) },
            target: 'choosing',
            actions: { type: 'keepCode', params: ({ event }) => ({ code: event.output.code }) },
          },
          {
            target: 'idle',
            actions: [{ type: 'keepCard', params: ({ event }) => ({ card: event.output.data }) }, 'cardChanged', 'sayChanged'],
          },
        ],
        onError: { target: 'unreachable', actions: { type: 'failedAt', params: { what: 'change' } } },
      },
    },
    unreachable: {
      tags: ['unreachable'],
      description:
        'A read or the change did not reach the server: the member can retry it (the change with the same request, so it is made once) or close.',
      on: {
        'network.retry': [
          { guard: { type: 'failedAt', params: { what: 'clubs' } }, target: 'loadingClubs' },
          { guard: { type: 'failedAt', params: { what: 'advisers' } }, target: 'loadingAdvisers' },
          { target: 'changing' },
        ],
        'form.close': 'idle',
      },
    },
  },
});
