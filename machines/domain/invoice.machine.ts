import { setup } from 'xstate';

/** What can happen to one invoice request. */
export type InvoiceEvent = { type: 'invoice.issue' } | { type: 'invoice.refuse' } | { type: 'invoice.void' };

/**
 * A member's invoice request (spec §3 invoice: title, tax number, address, phone, bank name, account;
 * §5 title, taxpayer number and address required; decision 044). The member asks for one
 * invoice over one or more of their paid orders; staff of the orders' club issue it from the console
 * (the server writes the PDF and its number) or refuse it with a reason (the orders may be asked for
 * again). An issued invoice whose order is refunded is voided when the refund completes. State names
 * are the stored `invoices.state` values; the server checks every change against this chart.
 */
export const invoiceMachine = setup({
  types: { events: {} as InvoiceEvent },
}).createMachine({
  id: 'invoice',
  initial: 'requested',
  states: {
    requested: {
      description: "Asked for: in the queue of the orders' club staff; its orders cannot be asked for again.",
      tags: ['holdsOrders'],
      on: { 'invoice.issue': 'issued', 'invoice.refuse': 'refused' },
    },
    issued: {
      description: 'Issued by staff: it has its number and its PDF, which the member downloads.',
      tags: ['holdsOrders'],
      on: { 'invoice.void': 'voided' },
    },
    refused: { description: 'Refused by staff with a reason the member reads; its orders may be asked for again.', type: 'final' },
    voided: {
      description: 'An order in it was refunded: the invoice no longer counts and its PDF is not offered.',
      tags: ['holdsOrders'],
      type: 'final',
    },
  },
});
