import type { PAYMENT_PART_STATE_VALUES } from '../../src/domain/orders';
import { nextFlatState, storedStates, storedStatesTagged } from './chart-states';
import { paymentPartMachine, type PaymentPartEvent } from './payment-part.machine';

/** A payment part's stored state (`payment_parts.state`). */
export type PaymentPartState = (typeof PAYMENT_PART_STATE_VALUES)[number];

/** Every value `payment_parts.state` may hold, from the chart. */
export const PAYMENT_PART_STATES = storedStates<PaymentPartState>(paymentPartMachine);

/** A new part's state (the chart's initial state). */
export const PAYMENT_PART_INITIAL = paymentPartMachine.config.initial as PaymentPartState;

/** The parts that make up the order now (tag `live`): the shares sum to the amount to pay. */
export const LIVE_PART_STATES = storedStatesTagged<PaymentPartState>(paymentPartMachine, 'live');

/** The parts still waiting for money (tag `outstanding`). */
export const OUTSTANDING_PART_STATES = storedStatesTagged<PaymentPartState>(paymentPartMachine, 'outstanding');

/** Where a part in `state` goes on `event`, by the chart; null when the chart refuses the change. */
export function nextPartState(state: PaymentPartState, event: PaymentPartEvent['type']): PaymentPartState | null {
  return nextFlatState<PaymentPartState>(paymentPartMachine, state, event);
}
