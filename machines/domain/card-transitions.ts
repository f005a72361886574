import type { CardStatus } from '../../src/domain/booking-rules';
import { nextFlatState, storedStates } from './chart-states';
import { cardMachine, type CardEvent } from './card.machine';

export type { CardStatus };

/** A new card's status (the chart's initial state). */
export const CARD_INITIAL_STATUS = cardMachine.config.initial as CardStatus;

/** What the chart needs to know about a card beyond its status. */
export interface CardFactsForChart {
  receivedByTransfer?: boolean;
  /** a freeze from a later day is stored on the card in use (decision 024) */
  freezePlanned?: boolean;
}

const contextOf = (facts: CardFactsForChart) => ({
  receivedByTransfer: facts.receivedByTransfer ?? false,
  freezePlanned: facts.freezePlanned ?? false,
});

/** The member's operations a card may offer (the app's buttons). */
export type CardOperation = 'activate' | 'freeze' | 'unfreeze' | 'transfer' | 'extend' | 'refund' | 'changeAdviser';

const OPERATION_EVENT: Record<CardOperation, CardEvent['type']> = {
  activate: 'card.activate',
  freeze: 'card.freeze',
  unfreeze: 'card.unfreeze',
  transfer: 'card.transfer',
  extend: 'card.extend',
  refund: 'card.refund',
  changeAdviser: 'card.changeAdviser',
};

/**
 * Where a card in `status` goes on `event`, by the chart; null when the chart refuses the change.
 * Pure (xstate's getNextSnapshot): the server's one way to accept or refuse a card change.
 */
export function nextCardStatus(status: CardStatus, event: CardEvent['type'], facts: CardFactsForChart = {}): CardStatus | null {
  const context = contextOf(facts);
  const key = `${status} ${event} ${context.receivedByTransfer} ${context.freezePlanned}`;
  let answers = asked.get(cardMachine.config);
  if (!answers) asked.set(cardMachine.config, (answers = new Map()));
  let next = answers.get(key);
  if (next === undefined) {
    next = nextFlatState<CardStatus>(cardMachine, status, event, context);
    answers.set(key, next);
  }
  return next;
}

/**
 * The chart's answers, kept: an answer depends on nothing but the status, the event and the context's
 * two facts. Keyed on the chart's config, as the booking chart's first states are, so a chart put in
 * its place (`npm run mutants`) is asked afresh. A booking asks once per decision; resolving the chart
 * each time was about 5% of the booking race's server CPU (decision 048).
 */
const asked = new WeakMap<object, Map<string, CardStatus | null>>();

/** Whether the chart allows `event` in `status`. */
export function canApplyCard(status: CardStatus, event: CardEvent['type'], facts: CardFactsForChart = {}): boolean {
  return nextCardStatus(status, event, facts) !== null;
}

/** The operations the chart allows a card in `status` (what the app offers). */
export function cardOperations(status: CardStatus, facts: CardFactsForChart = {}): CardOperation[] {
  return (Object.keys(OPERATION_EVENT) as CardOperation[]).filter((op) => canApplyCard(status, OPERATION_EVENT[op], facts));
}

/** One move the chart makes when time passes: cards in `from` (with a freeze planned or not) go to `to`. */
export interface CardTimeMove {
  from: CardStatus;
  to: CardStatus;
  freezePlanned: boolean;
}

/** The events time causes on a card, in the order the time-passing job applies them (decision 018, 024). */
export const CARD_TIME_EVENTS = ['card.freezeStarts', 'card.freezeEnds', 'card.expire'] as const;
export type CardTimeEvent = (typeof CARD_TIME_EVENTS)[number];

/**
 * The moves the chart makes on a time event (a planned freeze starts on its first day; a freeze ends
 * after its last; a card in use expires at its validity end, a frozen one waits), read from the chart
 * each time it is asked: the time-passing job writes exactly these. A move that leaves the status as
 * it is writes nothing.
 */
export function cardTimeMoves(event: CardTimeEvent): CardTimeMove[] {
  return (Object.keys(cardMachine.states) as CardStatus[]).flatMap((from) =>
    [false, true].flatMap((freezePlanned) => {
      const to = nextCardStatus(from, event, { freezePlanned });
      return to !== null && to !== from ? [{ from, to, freezePlanned }] : [];
    }),
  );
}

/** The moves on `card.expire` (kept for the tests and readers of decision 018). */
export function cardExpiryMoves(): CardTimeMove[] {
  return cardTimeMoves('card.expire');
}

/** Every value `member_cards.status` may hold, from the chart. */
export const CARD_STORED_STATUSES = storedStates<CardStatus>(cardMachine);

/**
 * The chart's facts of a stored card: a card whose row names the card it came from was received by
 * transfer; a card in use with freeze dates has a freeze planned (a frozen card's dates are its freeze).
 */
export function cardFactsOf(row: {
  transferredFromCardId: number | null;
  status?: CardStatus;
  frozenFrom?: string | null;
}): CardFactsForChart {
  return { receivedByTransfer: row.transferredFromCardId !== null, freezePlanned: row.status === 'in_use' && row.frozenFrom != null };
}

/** The statuses a card never leaves (the chart's final states: transferred, invalid). */
export const CARD_ENDED_STATUSES = CARD_STORED_STATUSES.filter((s) => cardMachine.states[s]?.type === 'final');

/** Whether a card has ended for good (transferred, refunded or voided): shown apart, never offered for booking. */
export function cardEnded(status: CardStatus): boolean {
  return CARD_ENDED_STATUSES.includes(status);
}

/**
 * Whether a card may be shared with family sub-card holders now (decision 040): it has not ended (the
 * chart's final states) and can still book some day (an expired card books nothing until extended).
 */
export function cardShareable(status: CardStatus): boolean {
  return !cardEnded(status) && status !== 'expired';
}
