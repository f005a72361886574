import type { FRIEND_INVITATION_STATE_VALUES } from '../../src/domain/orders';
import { nextFlatState, storedStates, storedStatesTagged } from './chart-states';
import { friendPayInvitationMachine, type FriendInvitationEvent } from './friend-pay-invitation.machine';

/** A friend invitation's stored state (`friend_invitations.state`). */
export type FriendInvitationState = (typeof FRIEND_INVITATION_STATE_VALUES)[number];

/** Every value `friend_invitations.state` may hold, from the chart. */
export const FRIEND_INVITATION_STATES = storedStates<FriendInvitationState>(friendPayInvitationMachine);

/** A new invitation's state (the chart's initial state). */
export const FRIEND_INVITATION_INITIAL = friendPayInvitationMachine.config.initial as FriendInvitationState;

/** Invitations a friend may still pay (tag `open`): at most one per part. */
export const OPEN_INVITATION_STATES = storedStatesTagged<FriendInvitationState>(friendPayInvitationMachine, 'open');

/** Where an invitation in `state` goes on `event`, by the chart; null when the chart refuses the change. */
export function nextInvitationState(state: FriendInvitationState, event: FriendInvitationEvent['type']): FriendInvitationState | null {
  return nextFlatState<FriendInvitationState>(friendPayInvitationMachine, state, event);
}
