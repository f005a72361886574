import { useSelector } from '@xstate/react';
import { useEffect, useState } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { createActor, type ActorRefFrom } from 'xstate';
import { orderCheckoutMachine, type CheckoutInput } from '../../../../machines/order-checkout.machine';
import { paymentOrderMachine, type PayOrderInput } from '../../../../machines/payment-order.machine';
import { actorTimers } from '../../app-clock';
import { browserApiOrThrow } from '../../api-context';
import { useActorSlot, type ActorSlot } from '../../shared-actors';
import { SessionContext } from '../../session/session-provider';
import { provideCheckout, providePayOrder, type CheckoutEffects } from './checkout-actors';
import { checkoutPath, payOrderPath, payPageOf } from './checkout-paths';

export type CheckoutActor = ActorRefFrom<typeof orderCheckoutMachine>;
export type PayOrderActor = ActorRefFrom<typeof paymentOrderMachine>;

/**
 * The checkout and the payment of an order are shared by the checkout's pages (agreement, /payt,
 * /payf, /pays, /orderdetail), which are separate routes: the checkout's actor and a payment's actor
 * are kept in the app's actor slots (never in a module), so a payment started on one page is awaited
 * on the next. The checkout pays the order it made through its pay-order child (`pay`); an order's
 * page pays through that child when it is the same order, else through its own pay-order actor. On
 * the server each page renders from a fresh, unstarted actor.
 */
type CheckoutSlot = ActorSlot<CheckoutActor>;
type PaySlot = ActorSlot<PayOrderActor>;

const goodsKeyOf = (i: CheckoutInput) => `${i.goodsId}:${i.phaseId ?? ''}:${i.teacherId ?? ''}`;

/** The checkout's payment of the order it made (its pay-order child), once it has one. */
export const paymentOf = (s: { children: Record<string, unknown> }) => s.children.pay as PayOrderActor | undefined;

function useEffects(standIn: boolean): () => CheckoutEffects {
  const session = SessionContext.useActorRef();
  return () => ({ api: browserApiOrThrow(), standIn, purchaseChanged: () => session.send({ type: 'booked.refresh' }) });
}

/** The shared checkout when it is for these goods and has made no order yet (a remount); else a new one. */
function obtainCheckout(slot: CheckoutSlot | null, input: CheckoutInput, fx: () => CheckoutEffects): CheckoutActor {
  if (typeof window === 'undefined' || !slot) return createActor(orderCheckoutMachine, { input });
  const held = slot.current;
  if (held) {
    const snap = held.actor.getSnapshot();
    if (held.key === goodsKeyOf(input) && !snap.context.order && snap.status === 'active') return held.actor;
    held.actor.stop();
  }
  const actor = createActor(provideCheckout(fx()), { input, ...actorTimers() }).start();
  slot.current = { actor, key: goodsKeyOf(input) };
  return actor;
}

/** The payment of this order already under way in the tab (the checkout's, or an order page's); else a new one. */
function obtainPayment(
  checkout: CheckoutSlot | null,
  slot: PaySlot | null,
  input: PayOrderInput,
  fx: () => CheckoutEffects,
): PayOrderActor {
  if (typeof window === 'undefined' || !slot) return createActor(paymentOrderMachine, { input });
  // the same order, and the same part of a split order, in a state this page shows: the order's page
  // never takes up a wait for the provider's result (the member came to pay again or cancel), nor the
  // result page a choice of how to pay (each would send the member back to the other page)
  const sameOrder = (a: PayOrderActor | undefined) => {
    const snap = a?.getSnapshot();
    const c = snap?.context;
    if (c?.order.orderNo !== input.order.orderNo || c.partSeq !== input.partSeq) return false;
    return !snap!.hasTag(input.resume === 'pay' ? 'resultPage' : 'orderPage');
  };
  const child = checkout?.current && paymentOf(checkout.current.actor.getSnapshot());
  if (child && sameOrder(child)) return child;
  const held = slot.current;
  if (held && sameOrder(held.actor)) return held.actor;
  held?.actor.stop();
  const actor = createActor(providePayOrder(fx()), { input, ...actorTimers() }).start();
  slot.current = { actor };
  return actor;
}

/** Goes to the page a state belongs on, replacing the entry so Back does not replay a payment. */
function useGoTo(target: (here: string) => string | null) {
  const navigate = useNavigate();
  const location = useLocation();
  const here = location.pathname + location.search;
  const to = target(here);
  useEffect(() => {
    if (to && to !== here) void navigate(to, { replace: true });
  }, [to, here, navigate]);
}

/** The agreement page's checkout; a visitor is sent to log in (checkoutPath). */
export function useCheckout(input: CheckoutInput, standIn: boolean): CheckoutActor {
  const fx = useEffects(standIn);
  const slot = useActorSlot<CheckoutActor>('checkout');
  const [actor] = useState(() => obtainCheckout(slot, input, fx));
  const login = useSelector(actor, (s) => s.hasTag('loginPage'));
  useGoTo((here) => checkoutPath(login, here));
  return actor;
}

/**
 * Where a payment's state belongs (payOrderPath, by the state's page tag), followed: to log in, to
 * /payt for Alipay, /payf while the provider settles and when paid, /pays when failed, the order's
 * page to choose again.
 */
export function usePaymentPages(actor: PayOrderActor | undefined): void {
  const page = useSelector(actor, (s) => (s ? payPageOf(s) : undefined));
  const orderNo = useSelector(actor, (s) => s?.context.order.orderNo);
  const partSeq = useSelector(actor, (s) => s?.context.partSeq);
  useGoTo((here) => payOrderPath(page, orderNo, here, partSeq));
}

/** An order page's payment of its order (shared with the page before when it was the same order). */
export function usePayment(input: PayOrderInput, standIn: boolean): PayOrderActor {
  const fx = useEffects(standIn);
  const checkout = useActorSlot<CheckoutActor>('checkout');
  const slot = useActorSlot<PayOrderActor>('payment');
  const [actor] = useState(() => obtainPayment(checkout, slot, input, fx));
  usePaymentPages(actor);
  return actor;
}
