import { setup } from 'xstate';

/** What can happen to one order. */
export type OrderEvent =
  | { type: 'order.pay' }
  | { type: 'part.pay' }
  | { type: 'part.failed' }
  | { type: 'payment.succeeded' }
  | { type: 'payment.failed' }
  | { type: 'part.paid' }
  | { type: 'split.paid' }
  | { type: 'order.cancel' }
  | { type: 'friend.invite' }
  | { type: 'friend.paid' }
  | { type: 'invitation.ended' }
  | { type: 'refund.request' }
  | { type: 'refund.succeeded' }
  | { type: 'refund.failed' };

/**
 * The lifecycle of one order (spec §4 order states). An unpaid order is paid by balance at once
 * (`payment.succeeded`), or goes to `paying` with an outside provider until its notification or the
 * query fallback settles it; a failed payment may be retried or the order cancelled. While paying, no
 * second payment of it starts: paying by another method (or the balance) first closes the open trade
 * at its provider, which fails that payment (`payment.failed`), then pays again (decision 013). An
 * unpaid order may be cancelled; so may a paying one, its trade asked about and closed at the
 * provider first, as the expiry does (a payment the provider took wins). A split order (decision 021) is paid part by part, each part on its own
 * (decision 058): a trade opened for one part (`part.pay`, the member's or a friend's) or failed
 * (`part.failed`) holds that part only, so the order stays waiting for money and its other parts can
 * be paid at the same moment; a part paid while others are still to pay (`part.paid`) leaves it
 * waiting, the last one (`split.paid`) makes it fully paid. A friend may pay for an order or a part
 * (friend paying, then fully paid). A paid order may be refunded. State names are the stored
 * `orders.state` values. States still waiting for money are tagged `awaitingMoney` (a member has one
 * such order at a time); those the 15-minute pay window ends are tagged `payWindow` (a friend-pay
 * invitation has its own expiry). Orders whose goods the member holds are tagged `bought` (the
 * new-customer rule, the limit per person), and with the refunded ones `everPaid` (the history); paid
 * ones not being refunded are `invoiceable` (decision 044); those a refund was asked for are
 * `refundAsked` (the member's order list groups them, decision 096). The server checks every change
 * against this chart; what an order and each part offer is machines/domain/order-offers.ts.
 */
export const orderMachine = setup({
  types: {
    events: {} as OrderEvent,
  },
}).createMachine({
  id: 'order',
  initial: 'unpaid',
  states: {
    unpaid: {
      description:
        'Created, waiting for money: the member can pay by balance or a provider, cancel, or invite a friend; it expires unpaid at its pay deadline.',
      tags: ['awaitingMoney', 'payWindow'],
      on: {
        'order.pay': 'paying',
        'part.pay': 'unpaid',
        'part.failed': 'unpaid',
        'payment.succeeded': 'paid',
        'split.paid': 'fully_paid',
        'part.paid': 'unpaid',
        'order.cancel': 'cancelled',
        'friend.invite': 'friend_paying',
      },
    },
    paying: {
      description:
        "A provider trade for the whole order is open (the member is at WeChat Pay or Alipay): the order waits for the provider's notification or the query job. The member may cancel: the trade is asked about and closed at the provider first (paid meanwhile: the payment wins).",
      tags: ['awaitingMoney', 'payWindow'],
      on: {
        'payment.succeeded': 'paid',
        'payment.failed': 'payment_failed',
        'order.cancel': 'cancelled',
      },
    },
    payment_failed: {
      description: 'The provider said the payment failed: the member can pay again by any method (or split it and pay a part), or cancel.',
      tags: ['awaitingMoney', 'payWindow'],
      on: {
        'order.pay': 'paying',
        'part.pay': 'unpaid',
        'payment.succeeded': 'paid',
        'part.paid': 'unpaid',
        'order.cancel': 'cancelled',
        'friend.invite': 'friend_paying',
      },
    },
    friend_paying: {
      description:
        "A friend was invited to pay (a part or the whole): the order waits for the friend's payment while an invitation is open (an hour each); meanwhile the member pays their own parts or invites for another, or cancels. A part paid while more is owed keeps it here; the last part paid makes it fully paid. When the last open invitation ends (paid, expired, withdrawn) and money is still owed, the order waits for the member's money again with a new pay window.",
      tags: ['awaitingMoney'],
      on: {
        'friend.invite': 'friend_paying',
        'part.pay': 'friend_paying',
        'part.failed': 'friend_paying',
        'friend.paid': 'fully_paid',
        'part.paid': 'friend_paying',
        'invitation.ended': 'unpaid',
        'order.cancel': 'cancelled',
      },
    },
    paid: {
      description: 'Paid in full by the member: the goods were issued once; a refund can be asked for; an invoice can be asked for.',
      tags: ['bought', 'everPaid', 'invoiceable'],
      on: { 'refund.request': 'refunding' },
    },
    fully_paid: {
      description:
        'Paid in full by several payers (split or friend pay): the goods were issued once; a refund returns each part to its payer; an invoice can be asked for.',
      tags: ['bought', 'everPaid', 'invoiceable'],
      on: { 'refund.request': 'refunding' },
    },
    refunding: {
      description: 'A refund is under way: the money is on its way back to the payers.',
      tags: ['bought', 'everPaid', 'refundAsked'],
      on: {
        'refund.succeeded': 'refunded',
        'refund.failed': 'refund_failed',
      },
    },
    refund_failed: {
      description: 'A refund failed at the provider: it can be asked for again; the member sees it is being handled.',
      tags: ['bought', 'everPaid', 'refundAsked'],
      on: { 'refund.request': 'refunding' },
    },
    cancelled: {
      description: 'Cancelled by the member or expired unpaid: nothing charged; held coupons, balance and stock were given back.',
      type: 'final',
    },
    refunded: { description: 'The money went back to the payers: the order is closed.', type: 'final', tags: ['everPaid', 'refundAsked'] },
  },
});
