import { getNextSnapshot } from 'xstate';
import type { CardStatus } from '../../src/domain/booking-rules';
import { storedStates } from './chart-states';
import { cardMachine, type CardEvent } from './card.machine';

export type { CardStatus };

/** A new card's status (the chart's initial state). */
export const CARD_INITIAL_STATUS = cardMachine.config.initial as CardStatus;

/** What the chart needs to know about a card beyond its status. */
export interface CardFactsForChart {
  receivedByTransfer?: boolean;
}

/** The member's operations a card may offer (the app's buttons). */
export type CardOperation = 'activate' | 'freeze' | 'unfreeze' | 'transfer' | 'extend' | 'refund';

const OPERATION_EVENT: Record<CardOperation, CardEvent['type']> = {
  activate: 'card.activate',
  freeze: 'card.freeze',
  unfreeze: 'card.unfreeze',
  transfer: 'card.transfer',
  extend: 'card.extend',
  refund: 'card.refund',
};

/**
 * Where a card in `status` goes on `event`, by the chart; null when the chart refuses the change.
 * Pure (xstate's getNextSnapshot): the server's one way to accept or refuse a card change.
 */
export function nextCardStatus(status: CardStatus, event: CardEvent['type'], facts: CardFactsForChart = {}): CardStatus | null {
  const snapshot = cardMachine.resolveState({ value: status, context: { receivedByTransfer: facts.receivedByTransfer ?? false } });
  if (!snapshot.can({ type: event } as CardEvent)) return null;
  return getNextSnapshot(cardMachine, snapshot, { type: event } as CardEvent).value as CardStatus;
}

/** Whether the chart allows `event` in `status`. */
export function canApplyCard(status: CardStatus, event: CardEvent['type'], facts: CardFactsForChart = {}): boolean {
  return nextCardStatus(status, event, facts) !== null;
}

/** The operations the chart allows a card in `status` (what the app offers). */
export function cardOperations(status: CardStatus, facts: CardFactsForChart = {}): CardOperation[] {
  return (Object.keys(OPERATION_EVENT) as CardOperation[]).filter((op) => canApplyCard(status, OPERATION_EVENT[op], facts));
}

/** One move the chart makes when a card's validity ends. */
export interface CardTimeMove {
  from: CardStatus;
  to: CardStatus;
}

/**
 * The moves the chart makes on `card.expire` (a card in use expires at its validity end; a frozen
 * card waits), read from the chart each time it is asked: the time-passing job writes exactly these.
 */
export function cardExpiryMoves(): CardTimeMove[] {
  return (Object.keys(cardMachine.states) as CardStatus[]).flatMap((from) => {
    const to = nextCardStatus(from, 'card.expire');
    return to !== null && to !== from ? [{ from, to }] : [];
  });
}

/** Every value `member_cards.status` may hold, from the chart. */
export const CARD_STORED_STATUSES = storedStates<CardStatus>(cardMachine);

/** The chart's facts of a stored card: a card whose row names the card it came from was received by transfer. */
export function cardFactsOf(row: { transferredFromCardId: number | null }): CardFactsForChart {
  return { receivedByTransfer: row.transferredFromCardId !== null };
}
