import { nextFlatState, storedStates, storedStatesTagged } from './chart-states';
import { paymentMachine, type PaymentEvent } from './payment.machine';

/** A provider payment's stored status (`payments.status`). */
export type PaymentStatus = 'paid' | 'failed' | 'mismatch' | 'needs_refund';

/** Every value `payments.status` may hold, from the chart. */
export const PAYMENT_STATUSES = storedStates<PaymentStatus>(paymentMachine);

/** The payments refunded in full when recorded (tag `toRefund`): money for nothing, or a wrong amount. */
export const PAYMENT_STATUSES_TO_REFUND = storedStatesTagged<PaymentStatus>(paymentMachine, 'toRefund');

/** Payments that are their order's money (tag `applied`). */
export const APPLIED_PAYMENT_STATUSES = storedStatesTagged<PaymentStatus>(paymentMachine, 'applied');

/** Payments that took a payer's money, applied or not (tag `taken`). */
export const TAKEN_PAYMENT_STATUSES = storedStatesTagged<PaymentStatus>(paymentMachine, 'taken');

/** What the server knows when a provider's answer arrives. */
export interface PaymentFacts {
  /** what the provider said about the trade */
  providerStatus: 'paid' | 'failed';
  /** the amount is the order's amount to pay */
  amountMatches: boolean;
  /** the order's chart accepts the answer (a payment it can take, or the failure of its latest attempt) */
  orderAccepts: boolean;
}

/** The chart's event for a provider's answer, by the facts the server matched it with. */
export function paymentEventOf(f: PaymentFacts): PaymentEvent['type'] {
  if (!f.amountMatches) return 'payment.mismatched';
  if (f.providerStatus === 'failed') return 'payment.failed';
  return f.orderAccepts ? 'payment.applied' : 'payment.unwanted';
}

/**
 * The status a new payment record gets on `event`, by the chart; null when the chart records none.
 * Pure (xstate's getNextSnapshot): the server's one way to record a provider payment.
 */
export function recordedPaymentStatus(event: PaymentEvent['type']): PaymentStatus | null {
  const next = nextFlatState<PaymentStatus | 'none'>(paymentMachine, 'none', event);
  return next === 'none' ? null : next;
}
