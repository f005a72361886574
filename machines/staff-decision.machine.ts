import { assign, fromPromise, setup } from 'xstate';
import { newIntentKey } from '../src/domain/intent-key';

/** One decision on one row of a staff queue: the row, and the request that decides it under a key. */
export interface StaffDecision {
  /** the row decided (a transfer, a card refund, a complaint, ...) */
  id: number;
  /**
   * the decision cannot be undone and moves money, a card or an account (a card refund's approval,
   * a transfer's, an account's closing): the screen shows what it will do and it is sent only once
   * staff confirm; a rejection, which moves nothing, is sent at once
   */
  asks?: boolean;
  /** sends the decision; the queue's screen says which endpoint and with what (a reason, a reply) */
  send(idempotencyKey: string): Promise<{ code: number }>;
}

export interface StaffDecisionContext {
  /** the decision on its way, or the last one sent */
  decision?: StaffDecision;
  /** one per tap, reused by its retries (the server decides the row once) */
  idempotencyKey?: string;
  /** the server's refusal of the last decision, e.g. 40003 another desk decided the row first */
  errorCode?: number;
}

export type StaffDecisionEvent =
  | { type: 'decision.send'; decision: StaffDecision }
  | { type: 'confirm.accept' }
  | { type: 'network.retry' }
  | { type: 'confirm.dismiss' };

/**
 * A staff queue (transfers, card refunds, new-teacher requests, complaints, invoices, account
 * closings): one decision at a time, each tap under a new Idempotency-Key (a double tap decides
 * once), then the queue read again. A decision that moves money, a card or an account asks first:
 * the screen says what it will do (the amounts, the names) and sends it only on `confirm.accept`;
 * `confirm.dismiss` returns to the queue with nothing sent. A refusal is said at its row and the queue shows how it is now;
 * a decision that did not reach the server offers a retry under the same key, or closing.
 *
 * Tags: `ready` while a tap may send a decision; `confirming` while the screen asks about one;
 * `deciding` while one is on its way (its row says
 * so); `refused` while the row says the server's refusal; `unreachable` while the row offers retry.
 * Effects are provided: actor decide (sends the decision); action queueChanged (the screen reads
 * the queue again).
 */
export const staffDecisionMachine = setup({
  types: {
    context: {} as StaffDecisionContext,
    events: {} as StaffDecisionEvent,
    tags: {} as 'ready' | 'confirming' | 'deciding' | 'refused' | 'unreachable',
  },
  actors: {
    decide: fromPromise<{ code: number }, { decision: StaffDecision; idempotencyKey: string }>(async () => {
      throw new Error('decide is provided by the app');
    }),
  },
  actions: {
    newIntent: assign({
      decision: (_, params: { decision: StaffDecision }) => params.decision,
      idempotencyKey: () => newIntentKey(),
      errorCode: undefined,
    }),
    keepCode: assign({ errorCode: (_, params: { code: number }) => params.code }),
    queueChanged: () => {},
  },
  guards: {
    refused: (_, params: { code: number }) => params.code !== 200,
    asksFirst: (_, params: { decision: StaffDecision }) => params.decision.asks === true,
  },
}).createMachine({
  id: 'staffDecision',
  context: {},
  initial: 'idle',
  states: {
    idle: {
      description: "The queue's rows, each with the decisions the server still allows on it; any of them may be tapped.",
      tags: ['ready'],
      on: {
        'decision.send': [
          {
            guard: { type: 'asksFirst', params: ({ event }) => ({ decision: event.decision }) },
            target: 'confirming',
            actions: { type: 'newIntent', params: ({ event }) => ({ decision: event.decision }) },
          },
          { target: 'deciding', actions: { type: 'newIntent', params: ({ event }) => ({ decision: event.decision }) } },
        ],
      },
    },
    confirming: {
      description:
        'Staff tapped a decision that cannot be undone: the screen says what it will do (the money back per payer and way, the card from whom to whom, the account erased) with the names; nothing is sent until they confirm, and not now returns to the queue.',
      tags: ['confirming'],
      on: { 'confirm.accept': 'deciding', 'confirm.dismiss': 'idle' },
    },
    deciding: {
      description: 'The decision was sent: its row says it is on its way and no other decision can be tapped until it is answered.',
      tags: ['deciding'],
      invoke: {
        id: 'decide',
        src: 'decide',
        input: ({ context }) => ({ decision: context.decision!, idempotencyKey: context.idempotencyKey! }),
        onDone: [
          {
            guard: { type: 'refused', params: ({ event }) => ({ code: event.output.code }) },
            target: 'refused',
            actions: { type: 'keepCode', params: ({ event }) => ({ code: event.output.code }) },
          },
          { target: 'idle', actions: 'queueChanged' },
        ],
        onError: 'unreachable',
      },
    },
    refused: {
      description:
        'The server refused (another desk decided the row first, a reason is missing, the member changed meanwhile): the row says why and the queue is read again; the next tap, on any row, is a new decision.',
      tags: ['ready', 'refused'],
      entry: 'queueChanged',
      on: {
        'decision.send': [
          {
            guard: { type: 'asksFirst', params: ({ event }) => ({ decision: event.decision }) },
            target: 'confirming',
            actions: { type: 'newIntent', params: ({ event }) => ({ decision: event.decision }) },
          },
          { target: 'deciding', actions: { type: 'newIntent', params: ({ event }) => ({ decision: event.decision }) } },
        ],
      },
    },
    unreachable: {
      description:
        'The decision did not reach the server: its row offers retry (the same request under the same key, so the row is decided once) or close; the other rows wait.',
      tags: ['unreachable'],
      on: { 'network.retry': 'deciding', 'confirm.dismiss': { target: 'idle', actions: 'queueChanged' } },
    },
  },
});
