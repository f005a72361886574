import { useLingui } from '@lingui/react';
import { Trans } from '@lingui/react/macro';
import { useSelector } from '@xstate/react';
import { Block, Button, List, ListItem } from 'konsta/react';
import { useState } from 'react';
import { Link, useRevalidator } from 'react-router-dom';
import { newIdempotencyKey } from '../../../api/client';
import type { Order } from '../../../api/orders';
import { shanghaiClock, shanghaiDate } from '../../../domain/time';
import { formatYuan } from '../../../domain/money';
import { browserApiOrThrow } from '../../api-context';
import { useConfirm } from '../../ui/confirm';
import { useToast } from '../../ui/toast';
import { checkoutRefusal, ORDER_STATE_LABELS } from './checkout-labels';
import { successPath } from './checkout-paths';
import { MethodChoice } from './method-choice';
import { MoneyLines } from './money-lines';
import { OrderPage, useOrderPayment } from './order-checkout';
import { orderPageLoader, type OrderPageData } from './order-page-data';
import { PaymentProgress } from './payment-progress';

export const loader = orderPageLoader;

const at = (iso: string) => `${shanghaiDate(new Date(iso))} ${shanghaiClock(new Date(iso))}`;

/**
 * /orderdetail?orderNo= — one of my orders (spec §3): goods, price, amount to pay, coupon deduction,
 * balance use, its state by the order chart, and the actions the chart allows (pay, cancel).
 */
export default function OrderDetailScreen() {
  return <OrderPage>{(d) => <OrderDetail d={d} />}</OrderPage>;
}

/** The order's page body; the actions are the server's (the chart's, less pay once the order is overdue). */
export function OrderDetail(props: { d: OrderPageData }) {
  const { d } = props;
  const { i18n } = useLingui();
  const o = d.order!;
  const actions = o.actions;
  return (
    <div className="pb-8" data-order={o.orderNo} data-order-state={o.state}>
      <Block strong inset className="!my-4">
        <div className="flex items-center justify-between gap-3">
          <h1 className="min-w-0 truncate text-lg font-semibold">{d.goodsName ?? o.orderNo}</h1>
          <span className="shrink-0 rounded-full bg-black/5 px-2 py-0.5 text-sm" data-order-state-label={o.state}>
            {i18n._(ORDER_STATE_LABELS[o.state])}
          </span>
        </div>
      </Block>
      <MoneyLines facts={{ ...o, goodsName: d.goodsName ?? o.orderNo }} />
      <List strong inset className="!my-4 text-sm tabular-nums">
        <ListItem title={<Trans>订单号</Trans>} after={o.orderNo} />
        <ListItem title={<Trans>下单时间</Trans>} after={at(o.createdAt)} />
        {o.paidAt && <ListItem title={<Trans>支付时间</Trans>} after={at(o.paidAt)} />}
        {o.state === 'unpaid' && o.expiresAt && <ListItem title={<Trans>请在此前支付</Trans>} after={at(o.expiresAt)} />}
      </List>
      {o.state === 'paying' && (
        <Block className="text-center">
          <Link to={successPath(o.orderNo)} className="text-primary">
            <Trans>支付结果确认中，查看进度</Trans>
          </Link>
        </Block>
      )}
      {actions.includes('pay') && <PayPanel d={d} />}
      {actions.includes('cancel') && <CancelButton order={o} />}
    </div>
  );
}

/** Paying this order through the checkout machine (entered at loadingOrder): method, then pay. */
function PayPanel(props: { d: OrderPageData }) {
  const { i18n } = useLingui();
  const { actor, state, order } = useOrderPayment(props.d, 'pay');
  const method = useSelector(actor, (s) => s.context.method);
  const errorCode = useSelector(actor, (s) => s.context.errorCode);
  return (
    <div data-pay-panel={state}>
      {state === 'choosingMethod' && <MethodChoice methods={props.d.methods} unavailable={props.d.unavailable} chosen={method} onChoose={(m) => actor.send({ type: 'method.choose', method: m })} />}
      <PaymentProgress actor={actor} state={state} />
      {state === 'paymentRefused' && (
        <p role="alert" className="mx-4 text-sm text-rose-600">
          {i18n._(checkoutRefusal(errorCode))}
        </p>
      )}
      <Block className="!my-4">
        <Button large rounded disabled={state !== 'choosingMethod'} onClick={() => actor.send({ type: 'payment.start' })} data-action="pay-order">
          <Trans>去支付 {formatYuan(order.amountToPayCents)}</Trans>
        </Button>
      </Block>
    </div>
  );
}

/** Cancels the unpaid order (its coupon and balance come back, spec §4), after a confirm. */
function CancelButton(props: { order: Order }) {
  const confirm = useConfirm();
  const toast = useToast();
  const { i18n } = useLingui();
  const { revalidate } = useRevalidator();
  const [busy, setBusy] = useState(false);
  const [key] = useState(newIdempotencyKey);
  const cancel = async () => {
    const r = await confirm({ title: <Trans>取消订单</Trans>, message: <Trans>确定取消这个订单吗？</Trans>, confirmText: <Trans>取消订单</Trans>, cancelText: <Trans>再想想</Trans> });
    if (!r.confirmed) return;
    setBusy(true);
    try {
      const e = await browserApiOrThrow().orders.cancel(props.order.orderNo, key);
      if (e.code !== 200) toast(i18n._(checkoutRefusal(e.code)));
    } catch {
      toast(i18n._(checkoutRefusal(undefined)));
    } finally {
      setBusy(false);
      await revalidate();
    }
  };
  return (
    <Block className="!my-4">
      <Button large rounded outline disabled={busy} onClick={() => void cancel()} data-action="cancel-order">
        <Trans>取消订单</Trans>
      </Button>
    </Block>
  );
}
