import type { CARD_REFUND_STATE_VALUES } from '../../src/domain/card-refund';
import { cardRefundMachine, type CardRefundEvent } from './card-refund.machine';
import { nextFlatState, storedStates, storedStatesTagged } from './chart-states';

/** A card refund request's stored state (`card_refunds.state`). */
export type CardRefundState = (typeof CARD_REFUND_STATE_VALUES)[number];

/** Every value `card_refunds.state` may hold, from the chart. */
export const CARD_REFUND_STATES = storedStates<CardRefundState>(cardRefundMachine);

/** A new request's state (the chart's initial state). */
export const CARD_REFUND_INITIAL = cardRefundMachine.config.initial as CardRefundState;

/** Requests not yet decided (tag `open`): at most one per card, and the staff queue. */
export const OPEN_CARD_REFUND_STATES = storedStatesTagged<CardRefundState>(cardRefundMachine, 'open');

/** Where a request in `state` goes on `event`, by the chart; null when the chart refuses the change. */
export function nextCardRefundState(state: CardRefundState, event: CardRefundEvent['type']): CardRefundState | null {
  return nextFlatState<CardRefundState>(cardRefundMachine, state, event);
}
