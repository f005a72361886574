import { getNextSnapshot } from 'xstate';
import type { OrderState } from '../../src/domain/orders';
import { orderMachine, type OrderEvent } from './order.machine';

export type { OrderState };

/**
 * Where an order in `state` goes on `event`, by the chart; null when the chart refuses the change.
 * Pure (xstate's getNextSnapshot): the server's one way to accept or refuse an order change.
 */
export function nextOrderState(state: OrderState, event: OrderEvent['type']): OrderState | null {
  const snapshot = orderMachine.resolveState({ value: state, context: undefined });
  if (!snapshot.can({ type: event } as OrderEvent)) return null;
  const next = getNextSnapshot(orderMachine, snapshot, { type: event } as OrderEvent);
  return next.value as OrderState;
}

/** Whether the chart allows `event` in `state`. */
export function canApplyOrder(state: OrderState, event: OrderEvent['type']): boolean {
  return nextOrderState(state, event) !== null;
}

/** The member's actions an order offers (the app's buttons). */
export function orderActions(state: OrderState): Array<'pay' | 'cancel'> {
  const out: Array<'pay' | 'cancel'> = [];
  if (state !== 'paying' && canApplyOrder(state, 'order.pay')) out.push('pay');
  if (canApplyOrder(state, 'order.cancel') && state !== 'friend_paying') out.push('cancel');
  return out;
}
