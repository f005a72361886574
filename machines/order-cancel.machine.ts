import { assign, fromPromise, setup } from 'xstate';
import type { Order } from '../src/api/orders';
import type { Envelope } from '../src/domain/envelope';
import { isOk } from '../src/domain/envelope';
import { newIntentKey } from '../src/domain/intent-key';

export interface OrderCancelInput {
  orderNo: string;
}

export interface OrderCancelContext extends OrderCancelInput {
  /** one per intent (the member's confirm), reused by its retries */
  idempotencyKey?: string;
  /** the server's refusal, e.g. 40003 the order can no longer be cancelled */
  errorCode?: number;
}

export type OrderCancelEvent =
  | { type: 'order.cancel' }
  | { type: 'confirm.accept' }
  | { type: 'confirm.dismiss' }
  | { type: 'network.retry' };

/**
 * Cancelling one of my unpaid orders on its page (/orderdetail, spec §4: the balance, coupon and stock
 * it held come back): a confirm step, then cancelling under one Idempotency-Key per intent (a retry
 * reuses it, so the order is cancelled once), then cancelled, refused with the server's code (the
 * order changed on another phone), or unreachable with retry. Whether the order offers it is the
 * order chart's answer, as the server lists it in the order's `actions`.
 * Tags: `offered` while the page shows "cancel order" (when the order's actions list it);
 * `confirming` while the confirm is open; `cancelling` while the cancel is on its way; `refused` and
 * `unreachable` while the page says so.
 * Effects are provided: actor cancelOrder; actions orderChanged (the page reloads the order) and
 * tellCancelled (a toast says it is done).
 */
export const orderCancelMachine = setup({
  types: {
    context: {} as OrderCancelContext,
    events: {} as OrderCancelEvent,
    input: {} as OrderCancelInput,
    tags: {} as 'offered' | 'confirming' | 'cancelling' | 'refused' | 'unreachable',
  },
  actors: {
    cancelOrder: fromPromise<Envelope<Order>, { orderNo: string; idempotencyKey: string }>(async () => {
      throw new Error('cancelOrder is provided by the app');
    }),
  },
  actions: {
    newIntent: assign({ idempotencyKey: () => newIntentKey(), errorCode: undefined }),
    keepCode: assign({ errorCode: (_, params: { code: number }) => params.code }),
    orderChanged: () => {},
    tellCancelled: () => {},
  },
  guards: {
    refused: (_, params: { envelope: Envelope<unknown> }) => !isOk(params.envelope),
  },
}).createMachine({
  id: 'orderCancel',
  context: ({ input }) => ({ orderNo: input.orderNo }),
  initial: 'idle',
  states: {
    idle: {
      description:
        'The order\'s page: an order the server still lets the member cancel (unpaid, or its payment failed) offers "cancel order"; any other offers nothing.',
      tags: ['offered'],
      on: { 'order.cancel': 'confirming' },
    },
    confirming: {
      description: 'A confirm asks whether to cancel this order: the member confirms, or says not now (nothing is sent).',
      tags: ['offered', 'confirming'],
      on: {
        'confirm.accept': { target: 'cancelling', actions: 'newIntent' },
        'confirm.dismiss': 'idle',
      },
    },
    cancelling: {
      description: 'The cancel was sent: the button says it is cancelling and cannot be tapped again.',
      tags: ['offered', 'cancelling'],
      invoke: {
        id: 'cancelOrder',
        src: 'cancelOrder',
        input: ({ context }) => ({ orderNo: context.orderNo, idempotencyKey: context.idempotencyKey! }),
        onDone: [
          {
            guard: { type: 'refused', params: ({ event }) => ({ envelope: event.output }) },
            target: 'refused',
            actions: { type: 'keepCode', params: ({ event }) => ({ code: event.output.code }) },
          },
          { target: 'cancelled' },
        ],
        onError: 'unreachable',
      },
    },
    cancelled: {
      description:
        'The order is cancelled: a toast says so, the page reloads it (state "cancelled", nothing left to pay or cancel), and what it held (balance, coupon, stock) is back.',
      entry: ['tellCancelled', 'orderChanged'],
    },
    refused: {
      description:
        'The server refused (the order was paid or cancelled on another phone meanwhile): the reason is said, the page reloads the order as it is now, and the member closes the message.',
      tags: ['refused'],
      entry: 'orderChanged',
      on: { 'confirm.dismiss': 'idle' },
    },
    unreachable: {
      description: 'The cancel did not reach the server: the member can retry (the same request, so the order is cancelled once) or close.',
      tags: ['unreachable'],
      on: { 'network.retry': 'cancelling', 'confirm.dismiss': 'idle' },
    },
  },
});
