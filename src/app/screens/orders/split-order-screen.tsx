import { msg } from '@lingui/core/macro';
import { useLingui } from '@lingui/react';
import { Trans } from '@lingui/react/macro';
import { useActorRef, useSelector } from '@xstate/react';
import { Block, Button } from 'konsta/react';
import { useMemo, useRef } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { fromPromise } from 'xstate';
import { orderSplitMachine } from '../../../../machines/order-split.machine';
import type { OrderDetail } from '../../../api/orders';
import { Errors } from '../../../domain/errors';
import { MoneyBreakdown } from '../../ui/money-breakdown';
import { OrderRefunds } from './order-refunds';
import { browserApiOrThrow } from '../../api-context';
import { NotFoundState } from '../../ui/not-found-state';
import { useToast } from '../../ui/toast';
import { ORDER_STATE_LABELS } from './checkout-labels';
import { orderPath } from './checkout-paths';
import { SplitForm } from './split-form';
import { refusalText } from '../../ui/refusal-message';
import { SplitParts } from './split-parts';

const unsplitMsg = msg`已取消分开支付`;

/** The split-order machine with the browser's API; a toast says when a split was undone. */
function useSplitOrder(orderNo: string) {
  const { i18n } = useLingui();
  const toast = useToast();
  const say = useRef({ toast, i18n });
  say.current = { toast, i18n };
  const logic = useMemo(
    () =>
      orderSplitMachine.provide({
        actors: {
          loadOrder: fromPromise(({ input }) => browserApiOrThrow().orders.detail(input.orderNo)),
          splitOrder: fromPromise(({ input }) =>
            browserApiOrThrow().orders.split({ orderNo: input.orderNo, parts: input.parts }, input.idempotencyKey),
          ),
          unsplitOrder: fromPromise(({ input }) => browserApiOrThrow().orders.unsplit(input.orderNo, input.idempotencyKey)),
        },
        actions: { tellUnsplit: () => void say.current.toast(say.current.i18n._(unsplitMsg)) },
      }),
    [],
  );
  return useActorRef(logic, { input: { orderNo } });
}

/**
 * /orderdetail/splittopay?orderNo= — splitting what is left to pay of one of my orders into 2 to 10
 * parts (spec §4, §5, §9; decision 021), and a split order's parts: each paid on its own or by a
 * friend; the split undone after a confirm. The flow is the split-order machine's.
 */
export default function SplitOrderScreen() {
  const [search] = useSearchParams();
  const orderNo = search.get('orderNo');
  if (!orderNo) return <Missing />;
  return <SplitOrder key={orderNo} orderNo={orderNo} />;
}

function Missing() {
  return <NotFoundState message={<Trans>没有找到这个订单</Trans>} backTo="/mine/orders" backLabel={<Trans>查看我的订单</Trans>} />;
}

function SplitOrder(props: { orderNo: string }) {
  const actor = useSplitOrder(props.orderNo);
  const loading = useSelector(actor, (s) => s.hasTag('loading'));
  const editing = useSelector(actor, (s) => s.hasTag('editing'));
  const parts = useSelector(actor, (s) => s.hasTag('parts'));
  const missing = useSelector(actor, (s) => s.matches('missing'));
  const loadUnreachable = useSelector(actor, (s) => s.matches('loadUnreachable'));
  const notSplittable = useSelector(actor, (s) => s.matches('notSplittable'));
  const refused = useSelector(actor, (s) => s.matches('refused'));
  const order = useSelector(actor, (s) => s.context.order);
  const refusal = useSelector(
    actor,
    (s) => ({ code: s.context.errorCode, field: s.context.errorField }),
    (a, b) => a.code === b.code && a.field === b.field,
  );
  const { i18n } = useLingui();

  if (missing) return <Missing />;
  if (loading) {
    return (
      <div className="space-y-4 p-4" data-split-loading aria-busy="true">
        {[72, 120, 160].map((h) => (
          <div key={h} style={{ height: h }} className="animate-pulse rounded-xl bg-black/[.07]" />
        ))}
      </div>
    );
  }
  if (loadUnreachable || !order) {
    return (
      <Block className="text-center" data-split-unreachable>
        <p role="alert" className="mt-10 mb-4 text-rose-600">
          {i18n._(Errors.network.message)}
        </p>
        <Button large rounded className="mx-auto max-w-60" onClick={() => actor.send({ type: 'network.retry' })}>
          <Trans>重试</Trans>
        </Button>
      </Block>
    );
  }
  return (
    <div className="pb-8">
      <OrderHead order={order} />
      {notSplittable && (
        <Block strong inset className="!my-4 space-y-3 text-center" data-split-not-offered>
          <p>
            <Trans>该订单当前不能分开支付</Trans>
          </p>
          <BackToOrder orderNo={order.orderNo} />
        </Block>
      )}
      {notSplittable && <OrderRefunds order={order} />}
      {refused && (
        <Block strong inset className="!my-4 space-y-3 text-center">
          <p role="alert" className="text-rose-600" data-split-refused={refusal.code}>
            {refusalText(i18n, refusal.code, { values: { field: refusal.field ?? '' } })}
          </p>
          <Button large rounded outline onClick={() => actor.send({ type: 'confirm.dismiss' })}>
            <Trans>关闭</Trans>
          </Button>
        </Block>
      )}
      {editing && <SplitForm actor={actor} order={order} />}
      {parts && <SplitParts actor={actor} order={order} />}
    </div>
  );
}

/** The order: goods, state and its money (each payer's line and what is left to pay, decision 101). */
function OrderHead(props: { order: OrderDetail }) {
  const { i18n } = useLingui();
  const o = props.order;
  return (
    <Block strong inset className="!my-4 space-y-1">
      <div className="flex items-center justify-between gap-3">
        <h1 className="min-w-0 truncate text-lg font-semibold">{o.goodsName || o.orderNo}</h1>
        <span className="shrink-0 rounded-full bg-black/5 px-2 py-0.5 text-sm" data-order-state-label={o.state}>
          {i18n._(ORDER_STATE_LABELS[o.state])}
        </span>
      </div>
      <MoneyBreakdown money={o.breakdown} />
    </Block>
  );
}

/** The way back to the order's page. */
function BackToOrder(props: { orderNo: string }) {
  return (
    <Link to={orderPath(props.orderNo)} className="inline-flex min-h-11 items-center text-primary" data-action="back-to-order">
      <Trans>返回订单</Trans>
    </Link>
  );
}
