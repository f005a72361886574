import { assign, fromPromise, setup } from 'xstate';
import type { BookAnswer, BookRequest, CardForClass } from '../src/api/booking';
import type { Envelope } from '../src/domain/envelope';
import { isOk } from '../src/domain/envelope';
import { newIntentKey } from '../src/domain/intent-key';

export interface BookClassInput {
  classId: number;
}

export interface BookClassContext {
  classId: number;
  /** my cards for this class: usable or refused with a code, each with its reminders */
  cards: CardForClass[];
  cardId?: number;
  /** the member notice (spec §5: required) */
  agreed: boolean;
  /** one per intent (the member's confirm), reused by its retries (DESIGN.md §4) */
  idempotencyKey?: string;
  /** the server's refusal (spec §8 20001-20031), or the refusing code of a chosen card */
  errorCode?: number;
  /** queue position when the class was full */
  position?: number;
  bookingId?: number;
}

export type BookClassEvent =
  | { type: 'card.choose'; cardId: number }
  | { type: 'notice.toggle' }
  | { type: 'booking.submit' }
  | { type: 'booking.confirm' }
  | { type: 'booking.back' }
  | { type: 'booking.retry' };

/** A fresh idempotency key; crypto.randomUUID exists in browsers (secure contexts) and Node. */

/**
 * A member books one class (/takecourse/bookcourse/bookcourseconfirm): the cards for the
 * class are loaded (a member with no usable card is sent to buy one); the best usable card is chosen
 * (the server's order), the member may change it, and agrees to the member notice (required, spec §5); a confirm step shows the card's reminders
 * (first use, fewer than 5 uses left, validity under a month, an inactive card will be activated);
 * then the booking is sent with one idempotency key per intent, reused on retry. The answer is a
 * seat (booked), a queue place (queued, with its position), or a refusal with its code.
 * Effects are provided: actors loadCards and book; action bookingChanged (the footer badge).
 */
export const bookingBookMachine = setup({
  types: {
    context: {} as BookClassContext,
    events: {} as BookClassEvent,
    input: {} as BookClassInput,
  },
  actors: {
    loadCards: fromPromise<Envelope<CardForClass[]>, { classId: number }>(async () => {
      throw new Error('loadCards is provided by the app');
    }),
    book: fromPromise<Envelope<BookAnswer>, { body: BookRequest; idempotencyKey: string }>(async () => {
      throw new Error('book is provided by the app');
    }),
  },
  actions: {
    // the server lists the cards best first (sortCardChoice: in use before a card it would activate,
    // then the one lost first); the best usable one is chosen, the member may change it
    keepCards: assign((_, params: { cards: CardForClass[] }) => ({ cards: params.cards, cardId: params.cards.find((c) => c.usable)?.id })),
    chooseCard: assign({ cardId: ({ event }) => (event.type === 'card.choose' ? event.cardId : undefined), errorCode: undefined }),
    keepCardCode: assign({
      errorCode: ({ context, event }) =>
        event.type === 'card.choose' ? (context.cards.find((c) => c.id === event.cardId)?.code ?? 20003) : undefined,
    }),
    toggleNotice: assign({ agreed: ({ context }) => !context.agreed }),
    newIntent: assign({ idempotencyKey: () => newIntentKey(), errorCode: undefined }),
    keepCode: assign({ errorCode: (_, params: { code: number }) => params.code }),
    keepAnswer: assign((_, params: { answer: BookAnswer }) => ({ bookingId: params.answer.bookingId, position: params.answer.position })),
    bookingChanged: () => {},
  },
  guards: {
    refused: (_, params: { envelope: Envelope<unknown> }) => !isOk(params.envelope),
    noUsableCard: (_, params: { cards: CardForClass[] }) => !params.cards.some((c) => c.usable),
    cardUsable: ({ context, event }) => event.type === 'card.choose' && context.cards.some((c) => c.id === event.cardId && c.usable),
    notAgreed: ({ context }) => !context.agreed,
    seated: (_, params: { answer: BookAnswer }) => params.answer.state === 'booked',
  },
}).createMachine({
  id: 'bookingBook',
  context: ({ input }) => ({ classId: input.classId, cards: [], agreed: false }),
  initial: 'loadingCards',
  states: {
    loadingCards: {
      description: 'The booking page of a class is loading the member’s cards that could pay for it.',
      invoke: {
        id: 'loadCards',
        src: 'loadCards',
        input: ({ context }) => ({ classId: context.classId }),
        onDone: [
          {
            guard: { type: 'refused', params: ({ event }) => ({ envelope: event.output }) },
            target: 'unavailable',
            actions: { type: 'keepCode', params: ({ event }) => ({ code: event.output.code }) },
          },
          {
            guard: { type: 'noUsableCard', params: ({ event }) => ({ cards: event.output.data }) },
            target: 'needsCard',
            actions: { type: 'keepCards', params: ({ event }) => ({ cards: event.output.data }) },
          },
          { target: 'choosing', actions: { type: 'keepCards', params: ({ event }) => ({ cards: event.output.data }) } },
        ],
        onError: 'cardsUnreachable',
      },
    },
    cardsUnreachable: {
      description: 'The cards could not be loaded: "network unreachable" is shown with a retry.',
      on: { 'booking.retry': 'loadingCards' },
    },
    /** the class cannot be booked here (unknown class, 404) */
    unavailable: {
      description: 'The class cannot be booked here (it does not exist or was withdrawn): this is said; nothing to book.',
      type: 'final',
    },
    /** no usable card: the member is sent to buy one (spec §6) */
    needsCard: {
      description: 'The member has no card that can book this class: they are sent to buy one.',
      type: 'final',
    },
    choosing: {
      description:
        'The best usable card is chosen (the one that would be lost first); the member may pick another, ticks the members’ notice, then taps book.',
      initial: 'editing',
      states: {
        editing: { description: 'Nothing said: the cards, the notice and the book button as the member left them.' },
        noticeMissing: { description: 'Book was tapped without the notice ticked: "agree to the members’ notice" is said.' },
        cardUnusable: {
          description:
            'The card tapped cannot book this class: why is said (frozen, expired, wrong level, used up); the card chosen before stays chosen.',
        },
        refused: {
          description:
            'The server refused the booking (for example the card ran out or the booking window closed): the reason is said, and the member can choose again.',
        },
      },
      on: {
        'card.choose': [
          { guard: 'cardUsable', target: '.editing', actions: 'chooseCard' },
          { target: '.cardUnusable', actions: 'keepCardCode' },
        ],
        'notice.toggle': { target: '.editing', actions: 'toggleNotice' },
        'booking.submit': [{ guard: 'notAgreed', target: '.noticeMissing' }, { target: 'confirming' }],
      },
    },
    /** the summary with the chosen card's reminders */
    confirming: {
      description: 'A confirm shows the class, the card and what it costs: the member books or goes back.',
      on: {
        'booking.confirm': { target: 'submitting', actions: 'newIntent' },
        'booking.back': 'choosing',
      },
    },
    submitting: {
      description: 'The booking was sent: the confirm shows it is working.',
      invoke: {
        id: 'book',
        src: 'book',
        input: ({ context }) => ({
          body: { classId: context.classId, cardId: context.cardId!, agreeNotice: true as const },
          idempotencyKey: context.idempotencyKey!,
        }),
        onDone: [
          {
            guard: { type: 'refused', params: ({ event }) => ({ envelope: event.output }) },
            target: 'choosing.refused',
            actions: { type: 'keepCode', params: ({ event }) => ({ code: event.output.code }) },
          },
          {
            guard: { type: 'seated', params: ({ event }) => ({ answer: event.output.data }) },
            target: 'booked',
            actions: { type: 'keepAnswer', params: ({ event }) => ({ answer: event.output.data }) },
          },
          { target: 'queued', actions: { type: 'keepAnswer', params: ({ event }) => ({ answer: event.output.data }) } },
        ],
        onError: 'unreachable',
      },
    },
    /**
     * the booking was sent but no answer came: the only way on is a retry with the same key, so it
     * books once (another card now could book twice if the first request did arrive)
     */
    unreachable: {
      description: 'The booking did not reach the server: the only way on is a retry that sends the same booking, so it books once.',
      on: { 'booking.retry': 'submitting' },
    },
    booked: {
      description: 'Booked: a seat is the member’s; the page says so and offers the calendar file.',
      type: 'final',
      entry: 'bookingChanged',
    },
    /** the class was full: the member is in its queue at `position` */
    queued: {
      description: 'The class was full: the member is in its queue, at the position shown.',
      type: 'final',
      entry: 'bookingChanged',
    },
  },
});
