import { assign, fromPromise, setup } from 'xstate';
import type { InvoiceableOrder, MyInvoice } from '../src/api/invoices';
import type { Envelope } from '../src/domain/envelope';
import { isOk } from '../src/domain/envelope';
import { invoiceFieldProblems, type InvoiceFieldProblem, type InvoiceFields } from '../src/domain/invoice';

/** What the member types (spec §3 invoice: title, tax number, address, phone, bank name, account). */
export type InvoiceForm = Required<{ [K in keyof InvoiceFields]: string }>;

export interface InvoiceRequestContext {
  /** my paid orders not yet invoiced, as the server last said */
  orders: InvoiceableOrder[];
  /** the ones ticked */
  chosen: number[];
  form: InvoiceForm;
  /** my requests, newest first */
  invoices: MyInvoice[];
  /** what the phone found wrong in the form, shown by each field */
  problems: InvoiceFieldProblem[];
  /** the server's refusal, and the field it names */
  errorCode?: number;
  errorField?: string;
}

export interface InvoiceRequestInput {
  orders: InvoiceableOrder[];
  invoices: MyInvoice[];
}

export type InvoiceRequestEvent =
  | { type: 'order.toggle'; orderId: number }
  | { type: 'field.change'; field: keyof InvoiceForm; value: string }
  | { type: 'invoice.submit' }
  | { type: 'network.retry' };

export interface RequestInput {
  orderIds: number[];
  form: InvoiceForm;
}

export const EMPTY_INVOICE_FORM: InvoiceForm = { title: '', taxNumber: '', address: '', phone: '', bankName: '', bankAccount: '' };

/**
 * Asking for an invoice on /invoice (decision 044; spec §3 invoice fields, §5 title,
 * taxpayer number and address required): the member ticks some of their paid orders not yet
 * invoiced and fills the form; submit checks it on the phone first (no order ticked; each wrong field
 * says what is wrong, in the member's language), then sends it. Sent, the request is at the top of
 * their requests (its state, the PDF once issued, the reason once refused) and its orders leave the
 * list; the form stays filled for another. Effects are provided: the actor `request` sends it.
 * Tags: `end` the request sent, where the flow is over though the form takes another: the screen
 * offers the next thing to do (decision 103).
 */
export const invoiceRequestMachine = setup({
  types: {
    context: {} as InvoiceRequestContext,
    events: {} as InvoiceRequestEvent,
    input: {} as InvoiceRequestInput,
    tags: {} as 'end',
  },
  actors: {
    request: fromPromise<Envelope<MyInvoice>, RequestInput>(async () => {
      throw new Error('request is provided by the app');
    }),
  },
  actions: {
    toggle: assign({
      chosen: ({ context }, params: { orderId: number }) =>
        context.chosen.includes(params.orderId)
          ? context.chosen.filter((id) => id !== params.orderId)
          : [...context.chosen, params.orderId],
    }),
    setField: assign({
      form: ({ context }, params: { field: keyof InvoiceForm; value: string }) => ({ ...context.form, [params.field]: params.value }),
    }),
    keepProblems: assign({ problems: ({ context }) => invoiceFieldProblems(context.form) }),
    clearFeedback: assign({ problems: [], errorCode: undefined, errorField: undefined }),
    keepRefusal: assign({
      errorCode: (_, params: { envelope: Envelope<unknown> }) => params.envelope.code,
      errorField: (_, params: { envelope: Envelope<unknown> }) => params.envelope.field,
    }),
    keepInvoice: assign({
      invoices: ({ context }, params: { invoice: MyInvoice }) => [params.invoice, ...context.invoices],
      orders: ({ context }, params: { invoice: MyInvoice }) =>
        context.orders.filter((o) => !params.invoice.orders.some((x) => x.id === o.id)),
      chosen: [],
    }),
  },
  guards: {
    noOrder: ({ context }) => context.chosen.length === 0,
    formWrong: ({ context }) => invoiceFieldProblems(context.form).length > 0,
    refused: (_, params: { envelope: Envelope<unknown> }) => !isOk(params.envelope),
  },
}).createMachine({
  id: 'invoiceRequest',
  context: ({ input }) => ({ orders: input.orders, chosen: [], form: EMPTY_INVOICE_FORM, invoices: input.invoices, problems: [] }),
  initial: 'editing',
  states: {
    editing: {
      description:
        'My paid orders not yet invoiced to tick, the form, and my requests with their states (the PDF of an issued one to download).',
      initial: 'idle',
      states: {
        idle: { description: 'Nothing said: the member ticks orders and types.' },
        noOrder: { description: 'Submitted with no order ticked: "choose at least one order" is said; nothing is sent.' },
        invalid: {
          description:
            'Submitted with a field wrong: each wrong field says what is wrong (empty, the taxpayer number shape or check character, the phone, the account); nothing is sent.',
        },
        refused: {
          description: 'The server refused it (an order invoiced meanwhile, or a field): the reason is said, by the field it names.',
        },
        sent: {
          tags: ['end'],
          description:
            'Sent: "submitted" is said; the new request is at the top of my requests as waiting for staff and its orders left the list.',
        },
      },
      on: {
        'order.toggle': {
          target: '.idle',
          actions: [{ type: 'toggle', params: ({ event }) => ({ orderId: event.orderId }) }, 'clearFeedback'],
        },
        'field.change': {
          target: '.idle',
          actions: [{ type: 'setField', params: ({ event }) => ({ field: event.field, value: event.value }) }, 'clearFeedback'],
        },
        'invoice.submit': [
          { guard: 'noOrder', target: '.noOrder', actions: 'clearFeedback' },
          { guard: 'formWrong', target: '.invalid', actions: ['clearFeedback', 'keepProblems'] },
          { target: 'submitting', actions: 'clearFeedback' },
        ],
      },
    },
    submitting: {
      description: 'The request is being sent; the member waits.',
      invoke: {
        id: 'request',
        src: 'request',
        input: ({ context }) => ({ orderIds: context.chosen, form: context.form }),
        onDone: [
          {
            guard: { type: 'refused', params: ({ event }) => ({ envelope: event.output }) },
            target: 'editing.refused',
            actions: { type: 'keepRefusal', params: ({ event }) => ({ envelope: event.output }) },
          },
          { target: 'editing.sent', actions: { type: 'keepInvoice', params: ({ event }) => ({ invoice: event.output.data }) } },
        ],
        onError: 'submitUnreachable',
      },
    },
    submitUnreachable: {
      description: 'The request did not reach the server: "network unreachable" with a retry that sends the same request again.',
      on: { 'network.retry': 'submitting' },
    },
  },
});
