import { EXPIRING_STATES, nextOrderState, PAY_WINDOW_STATES } from '../../../../machines/domain/order-transitions';
import type { OrderEvent } from '../../../../machines/domain/order.machine';
import { Errors } from '../../../domain/errors';
import type { OrderState } from '../../../domain/orders';
import { ApiError } from '../../http/api-error';
import type { OrderRow } from './read';

/** What the order chart and the clock allow an order: the chart's moves, and the pay window's end. */

/** The order chart's next state for an event, or the refusal named (the chart decides every move). */
export function move(state: OrderState, event: OrderEvent['type'], refusal: keyof typeof Errors): OrderState {
  const next = nextOrderState(state, event);
  if (!next) throw new ApiError(Errors[refusal]);
  return next;
}

/** Whether an order waits for money past its time: unpaid (or failed), never sent to a provider still deciding. */
export function overdue(order: OrderRow, now: Date): boolean {
  return EXPIRING_STATES.includes(order.state) && order.expiresAt !== null && order.expiresAt.getTime() <= now.getTime();
}

/** Past its expiresAt an order still waiting for money cannot be paid (40009), even while paying. */
export function pastExpiry(order: OrderRow, now: Date): boolean {
  return PAY_WINDOW_STATES.includes(order.state) && order.expiresAt !== null && order.expiresAt.getTime() <= now.getTime();
}
