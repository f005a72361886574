import { and, asc, eq, inArray } from 'drizzle-orm';
import {
  nextInvitationState,
  OPEN_INVITATION_STATES,
  type FriendInvitationState,
} from '../../../../machines/domain/friend-pay-invitation-transitions';
import type { FriendInvitationEvent } from '../../../../machines/domain/friend-pay-invitation.machine';
import type { Clock } from '../../../domain/clock';
import { Errors } from '../../../domain/errors';
import type { Tx } from '../../db/client';
import { friendInvitations } from '../../db/schema/index';
import { ApiError } from '../../http/api-error';
import { guards } from '../../db/guards';

/** Friend-pay invitation rows (decision 021): read and moved by their chart under the order lock. */

export type InvitationRow = typeof friendInvitations.$inferSelect;

/** Moves an invitation by its chart, guarded by the state read (a concurrent change refuses: 40022). */
export async function moveInvitation(
  tx: Tx,
  clock: Clock,
  inv: InvitationRow,
  event: FriendInvitationEvent['type'],
): Promise<FriendInvitationState> {
  const next = nextInvitationState(inv.state, event);
  if (!next) throw new ApiError(Errors.invitationOver);
  const [row] = await tx
    .update(friendInvitations)
    .set({ state: next, endedAt: clock.now() })
    .where(and(eq(friendInvitations.id, inv.id), guards.still(friendInvitations.state, inv.state)))
    .returning({ id: friendInvitations.id });
  if (!row) throw new ApiError(Errors.invitationOver);
  return next;
}

/** The order's open invitations, locked (after the order: decision 021's lock order). */
export async function openInvitations(tx: Tx, orderId: number): Promise<InvitationRow[]> {
  const q = tx
    .select()
    .from(friendInvitations)
    .where(and(eq(friendInvitations.orderId, orderId), inArray(friendInvitations.state, OPEN_INVITATION_STATES)))
    .orderBy(asc(friendInvitations.id));
  return q.for('update');
}

/** Ends every open invitation of an order being cancelled (the caller holds the order lock). */
export async function withdrawAllInvitations(tx: Tx, clock: Clock, orderId: number): Promise<void> {
  for (const inv of await openInvitations(tx, orderId)) await moveInvitation(tx, clock, inv, 'invitation.withdraw');
}

/** The friend's paid link for a part given back reads refunded (their money is refunded with the part). */
export async function refundedInvitation(tx: Tx, clock: Clock, partId: number): Promise<void> {
  const [paid] = await tx
    .select()
    .from(friendInvitations)
    .where(and(eq(friendInvitations.partId, partId), eq(friendInvitations.state, 'paid')))
    .for('update');
  if (paid) await moveInvitation(tx, clock, paid, 'invitation.refund');
}
