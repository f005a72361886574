import { setup } from 'xstate';

/** What can happen to one request to close an account. */
export type AccountClosingEvent = { type: 'closing.confirm' } | { type: 'closing.refuse' } | { type: 'closing.withdraw' };

/**
 * A member's request to close their account (PIPL; decision 057). The member asks (refused at once
 * while they hold something of value: a live card, an open order, a balance, a booking, an open
 * application); while it waits they may withdraw it; staff confirm it (the server checks the same
 * things again, then erases or anonymises the personal data and keeps the money and legal records, in
 * one transaction) or refuse it with a reason the member reads. State names are the stored
 * `account_closings.state` values; the server checks every change against this chart.
 */
export const accountClosingMachine = setup({
  types: { events: {} as AccountClosingEvent },
}).createMachine({
  id: 'accountClosing',
  initial: 'requested',
  states: {
    requested: {
      description: 'Asked for: in the staff queue; the member can still use the account and may withdraw the request.',
      tags: ['open'],
      on: { 'closing.confirm': 'closed', 'closing.refuse': 'refused', 'closing.withdraw': 'withdrawn' },
    },
    closed: {
      description:
        'Confirmed by staff: the personal data is erased or anonymised, every session revoked, no login reaches the account; orders, payments, ledger, invoices and audit are kept.',
      type: 'final',
    },
    withdrawn: { description: 'Withdrawn by the member before staff decided: nothing changed; they may ask again.', type: 'final' },
    refused: { description: 'Refused by staff with a reason the member reads; nothing changed; they may ask again.', type: 'final' },
  },
});
