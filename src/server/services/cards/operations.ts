import { cardOperations, type CardFactsForChart, type CardOperation, type CardStatus } from '../../../../machines/domain/card-transitions';

/**
 * The card operations this server has an endpoint for. The card chart knows more (freeze, unfreeze,
 * transfer, extend, refund: spec §4); each joins this list with its endpoint (issue 13), so the API
 * never offers an operation a member cannot carry out.
 */
export const CARD_OPERATIONS_SERVED: ReadonlySet<CardOperation> = new Set<CardOperation>(['activate']);

/** What a card in `status` (with its stored facts) offers now: what the chart allows and the server can do. */
export function cardOperationsServed(status: CardStatus, facts: CardFactsForChart): CardOperation[] {
  return cardOperations(status, facts).filter((op) => CARD_OPERATIONS_SERVED.has(op));
}
