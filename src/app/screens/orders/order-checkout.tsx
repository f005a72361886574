import { Trans } from '@lingui/react/macro';
import { useSelector } from '@xstate/react';
import { Button } from 'konsta/react';
import type { ReactNode } from 'react';
import { Link, useLoaderData } from 'react-router-dom';
import { NotFoundState } from '../../ui/not-found-state';
import { orderPath } from './checkout-paths';
import { usePayment } from './checkout-store';
import type { OrderPageData } from './order-page-data';

/** The payment of the page's order: shared with the page before when it was the same order. */
export function useOrderPayment(d: OrderPageData, resume: 'pay' | 'result') {
  const actor = usePayment(
    { methods: d.methods, order: d.order!, resume, ...(d.partSeq === undefined ? {} : { partSeq: d.partSeq }) },
    d.standIn,
  );
  // the order as last read by the payment, else as the page loaded it
  const order = useSelector(actor, (s) => s.context.order);
  return { actor, order };
}

/** The way back to the order (spec: each result page leads back to it). */
export function BackToOrder(props: { orderNo: string }) {
  return (
    <Button large rounded outline component={Link} {...{ to: orderPath(props.orderNo) }} data-action="view-order">
      <Trans>查看订单</Trans>
    </Button>
  );
}

/** An order page's body for the loaded order, or the not-found state (unknown, malformed or not mine). */
export function OrderPage(props: { children: (d: OrderPageData) => ReactNode }) {
  const d = useLoaderData() as OrderPageData;
  if (!d.order)
    return <NotFoundState message={<Trans>没有找到这个订单</Trans>} backTo="/mine/orders" backLabel={<Trans>查看我的订单</Trans>} />;
  return props.children(d);
}
