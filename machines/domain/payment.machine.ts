import { setup } from 'xstate';

/** What a provider's answer about a trade turns out to be, once matched to its order. */
export type PaymentEvent =
  | { type: 'payment.applied' }
  | { type: 'payment.failed' }
  | { type: 'payment.mismatched' }
  | { type: 'payment.unwanted' };

/**
 * One provider payment: a verified notification or query answer, recorded once per provider
 * transaction (decision 013). Before it is recorded there is no row (`none`, tagged `noRecord`). The
 * provider's answer, matched to its attempt and order, records it as: paid (the money for this order,
 * the order took it), failed (the provider said the trade failed), mismatch (a paid answer whose
 * amount is not its part's: never applied) or needs_refund (money taken for an order that cannot
 * take it any more: already paid another way, or cancelled). Both are refunded in full to their payer
 * in the transaction that records them (tag `toRefund`). A balance payment is recorded paid with its
 * ledger row. A recorded payment does not change: refunds are their own records (decision 021).
 * `applied` payments are the order's money, `taken` ones all the money payers gave. State names are the stored
 * `payments.status` values. The server checks every record against this chart.
 */
export const paymentMachine = setup({
  types: { events: {} as PaymentEvent },
}).createMachine({
  id: 'payment',
  initial: 'none',
  states: {
    none: {
      description: "No record yet: the provider's result for a trade has not arrived. Never stored.",
      tags: ['noRecord'],
      on: {
        'payment.applied': 'paid',
        'payment.failed': 'failed',
        'payment.mismatched': 'mismatch',
        'payment.unwanted': 'needs_refund',
      },
    },
    paid: {
      description:
        "Money received and applied to its part (the amount matched and the order took it): the balance's debit, or a provider's payment.",
      type: 'final',
      tags: ['applied', 'taken'],
    },
    failed: { description: 'The provider reported a failed payment; kept for the history.', type: 'final' },
    mismatch: {
      description: "Money received for another amount than its part's: never applied, refunded in full to its payer.",
      type: 'final',
      tags: ['taken', 'toRefund'],
    },
    needs_refund: {
      description:
        'Money received for a part or order that no longer takes it (paid another way, cancelled): refunded in full to its payer.',
      type: 'final',
      tags: ['taken', 'toRefund'],
    },
  },
});
