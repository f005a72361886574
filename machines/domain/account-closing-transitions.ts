import type { AccountClosingStateValue } from '../../src/domain/account-closing';
import { accountClosingMachine, type AccountClosingEvent } from './account-closing.machine';
import { nextFlatState, storedStates, storedStatesTagged } from './chart-states';

/** A closing request's stored state (`account_closings.state`). */
export type AccountClosingState = AccountClosingStateValue;

/** Every value `account_closings.state` may hold, from the chart. */
export const ACCOUNT_CLOSING_STATES = storedStates<AccountClosingState>(accountClosingMachine);

/** A new request's state (the chart's initial state). */
export const ACCOUNT_CLOSING_INITIAL = accountClosingMachine.config.initial as AccountClosingState;

/** Requests still waiting for staff (tag `open`): at most one per member. */
export const OPEN_ACCOUNT_CLOSING_STATES = storedStatesTagged<AccountClosingState>(accountClosingMachine, 'open');

/** Where a request in `state` goes on `event`, by the chart; null when the chart refuses the change. */
export function nextAccountClosingState(state: AccountClosingState, event: AccountClosingEvent['type']): AccountClosingState | null {
  return nextFlatState<AccountClosingState>(accountClosingMachine, state, event);
}
