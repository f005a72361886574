import { useLingui } from '@lingui/react';
import { Trans } from '@lingui/react/macro';
import { Block, Button } from 'konsta/react';
import { Link } from 'react-router-dom';
import type { ActorRefFrom } from 'xstate';
import { liveShares, type splitOrderMachine } from '../../../../machines/split-order.machine';
import type { OrderDetail } from '../../../api/orders';
import { formatYuan } from '../../../domain/money';
import { useConfirmWhile } from '../../ui/confirm';
import { UnreachableRetry } from '../../ui/unreachable-retry';
import { friendPartPath, orderPath, successPath } from './checkout-paths';
import { partStateText } from './split-labels';

type Phase = 'split' | 'confirmingUnsplit' | 'unsplitting' | 'unsplitUnreachable';

/**
 * A split order's parts: each with its amount and state; a part to pay offers paying it (the order's
 * pay page for that part) and asking a friend; "undo the split" while the server offers it, after a
 * confirm that says paid parts go back to their payers.
 */
export function SplitParts(props: { actor: ActorRefFrom<typeof splitOrderMachine>; phase: Phase; order: OrderDetail }) {
  const { actor, phase, order } = props;
  const { i18n } = useLingui();
  const shares = liveShares(order.parts);
  // paying a part: by any method, or from the balance while a friend holds another part (the server says which)
  const payable = order.actions.includes('pay') || order.actions.includes('payBalance');
  // the server offers asking a friend, also while a friend holds another part
  const askable = order.actions.includes('invite');

  useConfirmWhile(
    phase === 'confirmingUnsplit',
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
            {p.state === 'unpaid' && (payable || askable) && (
              <div className="mt-2 flex flex-wrap gap-3">
                {payable && !p.withFriend && (
                  <Button small rounded inline component={Link} {...{ to: orderPath(order.orderNo, p.seq) }} className="!h-11 !px-5" data-action="pay-part">
                    <Trans>支付这一份</Trans>
                  </Button>
                )}
                {/* a part with a friend leads to its invitation (time left, copy, withdraw) */}
                <Link to={friendPartPath(order.orderNo, p.seq)} className="inline-flex min-h-11 items-center text-primary" data-action={p.withFriend ? 'view-invitation' : 'ask-friend'}>
                  {p.withFriend ? <Trans>查看代付邀请</Trans> : <Trans>请好友代付</Trans>}
                </Link>
              </div>
            )}
          </li>
        ))}
      </ol>
      {order.state === 'paying' && (
        <Block className="!my-4 text-center text-sm" data-split-paying>
          <p>
            <Trans>有一份正在支付，结果确认后才能继续操作。</Trans>
          </p>
          <Link to={successPath(order.orderNo)} className="inline-flex min-h-11 items-center text-primary">
            <Trans>查看支付进度</Trans>
          </Link>
        </Block>
      )}
      {phase === 'unsplitUnreachable' && (
        <p className="mx-4 text-center">
          <UnreachableRetry onRetry={() => actor.send({ type: 'retry' })} onClose={() => actor.send({ type: 'confirm.dismiss' })} />
        </p>
      )}
      {order.actions.includes('unsplit') && phase !== 'unsplitUnreachable' && (
        <Block className="!my-4">
          <Button large rounded outline disabled={phase !== 'split'} onClick={() => actor.send({ type: 'unsplit.ask' })} data-action="unsplit">
            {phase === 'unsplitting' ? <Trans>正在取消…</Trans> : <Trans>取消分开支付</Trans>}
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
