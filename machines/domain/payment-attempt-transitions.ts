import { nextFlatState, storedStates, storedStatesTagged } from './chart-states';
import { paymentAttemptMachine, type PaymentAttemptEvent } from './payment-attempt.machine';

/** A payment attempt's stored state (`payment_attempts.state`). */
export type PaymentAttemptState = 'open' | 'paid' | 'failed' | 'closed';

/** Every value `payment_attempts.state` may hold, from the chart. */
export const PAYMENT_ATTEMPT_STATES = storedStates<PaymentAttemptState>(paymentAttemptMachine);

/** A new attempt's state (the chart's initial state). */
export const PAYMENT_ATTEMPT_INITIAL = paymentAttemptMachine.config.initial as PaymentAttemptState;

/** The states of an attempt still open at its provider (tag `open`): at most one per order. */
export const OPEN_ATTEMPT_STATES = storedStatesTagged<PaymentAttemptState>(paymentAttemptMachine, 'open');

/**
 * Where an attempt in `state` goes on `event`, by the chart; null when the chart refuses the change.
 * Pure (xstate's getNextSnapshot): the server's one way to accept or refuse an attempt change.
 */
export function nextAttemptState(state: PaymentAttemptState, event: PaymentAttemptEvent['type']): PaymentAttemptState | null {
  return nextFlatState<PaymentAttemptState>(paymentAttemptMachine, state, event);
}

/** The chart's event for what a provider said about a trade. */
export const providerAnswerEvent = (status: 'paid' | 'failed'): PaymentAttemptEvent['type'] =>
  status === 'paid' ? 'provider.paid' : 'provider.failed';
