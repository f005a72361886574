import type { REFUND_STATE_VALUES } from '../../src/domain/orders';
import { nextFlatState, storedStates, storedStatesTagged } from './chart-states';
import { refundMachine, type RefundEvent } from './refund.machine';

/** A refund's stored state (`refunds.state`). */
export type RefundState = (typeof REFUND_STATE_VALUES)[number];

/** Every value `refunds.state` may hold, from the chart. */
export const REFUND_STATES = storedStates<RefundState>(refundMachine);

/** A new refund's state (the chart's initial state). */
export const REFUND_INITIAL = refundMachine.config.initial as RefundState;

/** Refunds whose money is back with the payer (tag `returned`). */
export const RETURNED_REFUND_STATES = storedStatesTagged<RefundState>(refundMachine, 'returned');

/** Refunds still on their way (tag `inFlight`). */
export const IN_FLIGHT_REFUND_STATES = storedStatesTagged<RefundState>(refundMachine, 'inFlight');

/** Refunds staff must look at (tag `attention`): failed at the provider, or held from before refunds existed. */
export const ATTENTION_REFUND_STATES = storedStatesTagged<RefundState>(refundMachine, 'attention');

/** Where a refund in `state` goes on `event`, by the chart; null when the chart refuses the change. */
export function nextRefundState(state: RefundState, event: RefundEvent['type']): RefundState | null {
  return nextFlatState<RefundState>(refundMachine, state, event);
}
