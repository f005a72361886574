import { useLingui } from '@lingui/react';
import { Trans } from '@lingui/react/macro';
import { useSelector } from '@xstate/react';
import { Block, Button } from 'konsta/react';
import { Link } from 'react-router-dom';
import type { ActorRefFrom } from 'xstate';
import { liveShares, type orderSplitMachine } from '../../../../machines/order-split.machine';
import type { OrderDetail } from '../../../api/orders';
import { formatYuan } from '../../../domain/money';
import { useConfirmWhile } from '../../ui/confirm';
import { UnreachableRetry } from '../../ui/unreachable-retry';
import { friendPartPath, orderPath } from './checkout-paths';
import { partStateText } from './split-labels';

/**
 * A split order's parts: each with its amount and its own state (being paid, with a friend, failed,
 * paid); each offers what the server says it accepts: paying it (the order's pay page for that part,
 * or its progress while the member's trade is open), asking a friend, the friend's link; "undo the split" while the server offers it, after a
 * confirm that says paid parts go back to their payers.
 */
export function SplitParts(props: { actor: ActorRefFrom<typeof orderSplitMachine>; order: OrderDetail }) {
  const { actor, order } = props;
  const { i18n } = useLingui();
  const ready = useSelector(actor, (s) => s.matches('split'));
  const confirming = useSelector(actor, (s) => s.matches('confirmingUnsplit'));
  const busy = useSelector(actor, (s) => s.hasTag('busy'));
  const unreachable = useSelector(actor, (s) => s.hasTag('unreachable'));
  // each part offers its own actions (the server's): parts are paid by their own payers at the same time
  const shares = liveShares(order.parts);

  useConfirmWhile(
    confirming,
    {
      title: <Trans>取消分开支付</Trans>,
      message: <Trans>取消后订单恢复为整单支付；已支付的部分会原路退回给付款人。</Trans>,
      confirmText: <Trans>确定取消分开</Trans>,
      cancelText: <Trans>再想想</Trans>,
    },
    (confirmed) => actor.send({ type: confirmed ? 'confirm.accept' : 'confirm.dismiss' }),
  );

  return (
    <div data-split-parts>
      <ol className="mx-4 my-4 space-y-3">
        {shares.map((p, i) => (
          <li key={p.seq} className="rounded-xl bg-white p-3" data-part-seq={p.seq} data-part-state={p.state}>
            <div className="flex items-center justify-between gap-3">
              <span className="font-medium">
                <PartNo n={i + 1} />
              </span>
              <span className="font-semibold tabular-nums" data-part-amount>
                {formatYuan(p.amountCents)}
              </span>
            </div>
            <p className={`text-sm ${p.state === 'paid' ? 'text-emerald-700' : 'text-black/60'}`} data-part-state-label>
              {partStateText(i18n, p)}
            </p>
            {p.actions.length > 0 && (
              <div className="mt-2 flex flex-wrap gap-3">
                {p.actions.includes('pay') && (
                  <Button
                    small
                    rounded
                    inline
                    component={Link}
                    {...{ to: orderPath(order.orderNo, p.seq) }}
                    className="!h-11 !px-5"
                    data-action={p.holder === 'memberTrade' ? 'part-progress' : 'pay-part'}
                  >
                    {p.holder === 'memberTrade' ? (
                      <Trans>查看支付进度</Trans>
                    ) : p.payFailed ? (
                      <Trans>重新支付这一份</Trans>
                    ) : (
                      <Trans>支付这一份</Trans>
                    )}
                  </Button>
                )}
                {/* a part with a friend leads to its invitation (time left, copy, withdraw) */}
                {(p.actions.includes('invite') || p.actions.includes('withdraw')) && (
                  <Link
                    to={friendPartPath(order.orderNo, p.seq)}
                    className="inline-flex min-h-11 items-center text-primary"
                    data-action={p.actions.includes('withdraw') ? 'view-invitation' : 'ask-friend'}
                  >
                    {p.actions.includes('withdraw') ? <Trans>查看代付邀请</Trans> : <Trans>请好友代付</Trans>}
                  </Link>
                )}
              </div>
            )}
          </li>
        ))}
      </ol>
      {unreachable && (
        <p className="mx-4 text-center">
          <UnreachableRetry onRetry={() => actor.send({ type: 'network.retry' })} onClose={() => actor.send({ type: 'confirm.dismiss' })} />
        </p>
      )}
      {order.actions.includes('unsplit') && !unreachable && (
        <Block className="!my-4">
          <Button large rounded outline disabled={!ready} onClick={() => actor.send({ type: 'unsplit.ask' })} data-action="unsplit">
            {busy ? <Trans>正在取消…</Trans> : <Trans>取消分开支付</Trans>}
          </Button>
        </Block>
      )}
    </div>
  );
}

/** A part's number as the member counts them (1 to 10; its seq on the server may be higher). */
export function PartNo(props: { n: number }) {
  const n = props.n;
  return <Trans>第 {n} 份</Trans>;
}
