import { useSelector } from '@xstate/react';
import { useEffect, useState } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { createActor, type ActorRefFrom } from 'xstate';
import { checkoutMachine, type CheckoutInput } from '../../../../machines/checkout.machine';
import { actorTimers } from '../../app-clock';
import { browserApiOrThrow } from '../../api-context';
import { useActorSlot, type ActorSlot } from '../../shared-actors';
import { SessionContext } from '../../session/session-provider';
import { provideCheckout } from './checkout-actors';
import { checkoutPath, checkoutStateOf } from './checkout-paths';

export type CheckoutActor = ActorRefFrom<typeof checkoutMachine>;

/**
 * The one checkout of the app (a browser tab): the checkout's pages (agreement, /payt, /payf, /pays,
 * /orderdetail) are separate routes; they share this actor (kept in the app's actor slot, never in a
 * module), so a payment started on one page is awaited on the next. On the server each page renders
 * from a fresh, unstarted actor.
 */
type CheckoutSlot = ActorSlot<CheckoutActor>;

const goodsKeyOf = (i: CheckoutInput) => (i.goodsId === undefined ? undefined : `${i.goodsId}:${i.phaseId ?? ''}:${i.teacherId ?? ''}`);

/** The shared actor when it fits this page's input; else a new one (started) that becomes the shared one. */
function obtain(slot: CheckoutSlot | null, input: CheckoutInput, standIn: boolean, purchaseChanged: () => void): CheckoutActor {
  if (typeof window === 'undefined' || !slot) return createActor(checkoutMachine, { input });
  const held = slot.current;
  if (held) {
    const snap = held.actor.getSnapshot();
    const key = goodsKeyOf(input);
    // the same goods before any order (a remount): keep it; the same order on its later pages: keep it
    const fits = key !== undefined ? held.key === key && !snap.context.order && snap.status === 'active' : snap.context.order?.orderNo === input.order?.orderNo;
    if (fits) return held.actor;
    held.actor.stop();
  }
  const actor = createActor(provideCheckout({ api: browserApiOrThrow(), standIn, purchaseChanged }), { input, ...actorTimers() }).start();
  slot.current = { actor, key: goodsKeyOf(input) };
  return actor;
}

/**
 * The page's checkout actor, and the page its state belongs on (checkoutPath): when that is another
 * page, the app goes there, replacing the entry so Back does not replay a payment (a visitor to log in,
 * a failed payment opened at /payf to /pays, a cancelled order to its detail).
 */
export function useCheckout(input: CheckoutInput, standIn: boolean): CheckoutActor {
  const session = SessionContext.useActorRef();
  const slot = useActorSlot<CheckoutActor>('checkout');
  const [actor] = useState(() => obtain(slot, input, standIn, () => session.send({ type: 'booked.refresh' })));
  const navigate = useNavigate();
  const location = useLocation();
  const here = location.pathname + location.search;
  const state = useSelector(actor, checkoutStateOf);
  const orderNo = useSelector(actor, (s) => s.context.order?.orderNo);
  const target = checkoutPath(state, orderNo, here);
  useEffect(() => {
    if (target && target !== here) void navigate(target, { replace: true });
  }, [target, here, navigate]);
  return actor;
}
