import type { INVOICE_STATE_VALUES } from '../../src/domain/invoice';
import { invoiceMachine, type InvoiceEvent } from './invoice.machine';
import { nextFlatState, storedStates, storedStatesTagged } from './chart-states';

/** An invoice request's stored state (`invoices.state`). */
export type InvoiceState = (typeof INVOICE_STATE_VALUES)[number];

/** Every value `invoices.state` may hold, from the chart. */
export const INVOICE_STATES = storedStates<InvoiceState>(invoiceMachine);

/** A new request's state (the chart's initial state). */
export const INVOICE_INITIAL = invoiceMachine.config.initial as InvoiceState;

/** Requests that keep their orders from being invoiced again (tag `holdsOrders`): all but a refused one. */
export const HOLDS_ORDERS_STATES = storedStatesTagged<InvoiceState>(invoiceMachine, 'holdsOrders');

/** Where a request in `state` goes on `event`, by the chart; null when the chart refuses the change. */
export function nextInvoiceState(state: InvoiceState, event: InvoiceEvent['type']): InvoiceState | null {
  return nextFlatState<InvoiceState>(invoiceMachine, state, event);
}
