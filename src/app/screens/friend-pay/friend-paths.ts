import type { FriendPayResume } from '../../../../machines/friend-pay.machine';

/** The member's invitation page for an order, or one part of a split order. */
export const friendInvitePath = (orderNo: string, partSeq?: number) =>
  `/friendsplit?orderNo=${encodeURIComponent(orderNo)}${partSeq !== undefined ? `&partSeq=${partSeq}` : ''}`;

/** The friend's page of an invitation; `step` says what it comes back from (the authorization, the pay sheet). */
export const friendPayPath = (token: string, step?: Exclude<FriendPayResume, 'view'>) =>
  `/payfriend?t=${encodeURIComponent(token)}${step ? `&step=${step}` : ''}`;

/** What the friend's page was opened for, from its `step` (anything else: the link itself). */
export function resumeOf(step: string | null): FriendPayResume {
  return step === 'authorized' || step === 'result' ? step : 'view';
}

/**
 * The messaging app's user-info authorization (decision 003): it comes back to the friend's page with
 * the wxFriend cookie set, marked `step=authorized` so the page pays on and never sends it twice.
 */
export const friendAuthorizePath = (token: string) =>
  `/api/oauth/wechat/authorize?from=${encodeURIComponent(friendPayPath(token, 'authorized'))}&scope=userinfo`;
