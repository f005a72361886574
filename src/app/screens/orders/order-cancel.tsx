import { msg } from '@lingui/core/macro';
import { useLingui } from '@lingui/react';
import { Trans } from '@lingui/react/macro';
import { useActorRef, useSelector } from '@xstate/react';
import { Block, Button } from 'konsta/react';
import { useMemo } from 'react';
import { fromPromise } from 'xstate';
import { orderCancelMachine } from '../../../../machines/order-cancel.machine';
import type { Order } from '../../../api/orders';
import { browserApiOrThrow } from '../../api-context';
import { useConfirmWhile } from '../../ui/confirm';
import { useToast } from '../../ui/toast';
import { UnreachableRetry } from '../../ui/unreachable-retry';
import { useStableRevalidate } from '../../ui/use-stable-revalidate';
import { refusalMessage } from '../../ui/refusal-message';

const cancelledMsg = msg`订单已取消`;

/**
 * Cancelling the page's order (spec §4: its balance, coupon and stock come back) through the
 * order-cancel machine: a confirm, one request per intent, then the order reloaded. Stays mounted
 * while the page shows the order, so what the machine says outlives the reload; the button shows
 * when the server lists "cancel" among the order's actions.
 */
export function OrderCancel(props: { order: Order }) {
  const { i18n } = useLingui();
  const toast = useToast();
  const revalidate = useStableRevalidate();

  const logic = useMemo(
    () =>
      orderCancelMachine.provide({
        actors: { cancelOrder: fromPromise(({ input }) => browserApiOrThrow().orders.cancel(input.orderNo, input.idempotencyKey)) },
        actions: { orderChanged: revalidate, tellCancelled: () => void toast(i18n._(cancelledMsg)) },
      }),
    [revalidate, toast, i18n],
  );
  const item = useActorRef(logic, { input: { orderNo: props.order.orderNo } });
  const phase = useSelector(item, (s) =>
    s.hasTag('confirming')
      ? 'confirming'
      : s.hasTag('cancelling')
        ? 'cancelling'
        : s.hasTag('refused')
          ? 'refused'
          : s.hasTag('unreachable')
            ? 'unreachable'
            : s.hasTag('offered')
              ? 'idle'
              : 'cancelled',
  );
  const errorCode = useSelector(item, (s) => s.context.errorCode);
  useConfirmWhile(
    phase === 'confirming',
    {
      title: <Trans>取消订单</Trans>,
      message: <Trans>确定取消这个订单吗？</Trans>,
      confirmText: <Trans>确定取消</Trans>,
      cancelText: <Trans>再想想</Trans>,
    },
    (confirmed) => item.send({ type: confirmed ? 'confirm.accept' : 'confirm.dismiss' }),
  );

  if (phase === 'unreachable') {
    return (
      <Block className="!my-4 text-center">
        <UnreachableRetry onRetry={() => item.send({ type: 'network.retry' })} onClose={() => item.send({ type: 'confirm.dismiss' })} />
      </Block>
    );
  }
  if (phase === 'refused') {
    return (
      <Block className="!my-4 text-center text-sm">
        <span role="alert" className="text-rose-600" data-cancel-refused={errorCode}>
          {i18n._(refusalMessage(errorCode))}
        </span>
        <Button small rounded inline clear className="ml-2" onClick={() => item.send({ type: 'confirm.dismiss' })}>
          <Trans>关闭</Trans>
        </Button>
      </Block>
    );
  }
  const offered = props.order.actions.includes('cancel') && (phase === 'idle' || phase === 'confirming' || phase === 'cancelling');
  if (!offered) return null;

  return (
    <Block className="!my-4">
      <Button
        large
        rounded
        outline
        disabled={phase === 'cancelling'}
        onClick={() => item.send({ type: 'order.cancel' })}
        data-action="cancel-order"
      >
        {phase === 'cancelling' ? <Trans>正在取消…</Trans> : <Trans>取消订单</Trans>}
      </Button>
    </Block>
  );
}
