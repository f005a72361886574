import type { TRANSFER_STATE_VALUES } from '../../src/domain/card-transfer';
import { nextFlatState, storedStates, storedStatesTagged } from './chart-states';
import { cardTransferApplicationMachine, type TransferEvent } from './card-transfer-application.machine';

/** A transfer application's stored state (`card_transfers.state`). */
export type TransferState = (typeof TRANSFER_STATE_VALUES)[number];

/** Every value `card_transfers.state` may hold, from the chart. */
export const TRANSFER_STATES = storedStates<TransferState>(cardTransferApplicationMachine);

/** A new application's state (the chart's initial state). */
export const TRANSFER_INITIAL = cardTransferApplicationMachine.config.initial as TransferState;

/** Applications not yet decided (tag `open`): at most one per card, and the staff queue. */
export const OPEN_TRANSFER_STATES = storedStatesTagged<TransferState>(cardTransferApplicationMachine, 'open');

/** Where an application in `state` goes on `event`, by the chart; null when the chart refuses the change. */
export function nextTransferState(state: TransferState, event: TransferEvent['type']): TransferState | null {
  return nextFlatState<TransferState>(cardTransferApplicationMachine, state, event);
}
