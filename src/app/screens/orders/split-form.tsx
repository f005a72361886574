import { useLingui } from '@lingui/react';
import { Trans } from '@lingui/react/macro';
import { useSelector } from '@xstate/react';
import { Block, Button } from 'konsta/react';
import type { ActorRefFrom } from 'xstate';
import type { orderSplitMachine } from '../../../../machines/order-split.machine';
import type { OrderDetail } from '../../../api/orders';
import { formatYuan } from '../../../domain/money';
import { MAX_SPLIT_PARTS, MIN_SPLIT_PARTS, parseYuan, splitProblems } from '../../../domain/split';
import { UnreachableRetry } from '../../ui/unreachable-retry';
import { OrderRefunds } from './order-refunds';
import { problemText } from './split-labels';

const COUNTS = Array.from({ length: MAX_SPLIT_PARTS - MIN_SPLIT_PARTS + 1 }, (_, i) => MIN_SPLIT_PARTS + i);

/**
 * The split form: how many parts, each part's amount in yuan (proposed equal), what is wrong named
 * by part, the total against the amount to pay, and "split" once every rule holds (spec §5). After an
 * undone split it says where the parts already paid went back.
 */
export function SplitForm(props: { actor: ActorRefFrom<typeof orderSplitMachine>; order: OrderDetail }) {
  const { actor, order } = props;
  const { i18n } = useLingui();
  // the form can be changed and sent only while nothing is in flight or waiting for a retry
  const open = useSelector(actor, (s) => s.matches('editing'));
  const busy = useSelector(actor, (s) => s.hasTag('busy'));
  const unreachable = useSelector(actor, (s) => s.hasTag('unreachable'));
  const texts = useSelector(actor, (s) => s.context.texts);
  const total = order.amountToPayCents;
  const cents = texts.map(parseYuan);
  const problems = splitProblems(total, cents);
  const sum = cents.reduce<number>((a, c) => a + (c ?? 0), 0);

  return (
    <>
      <form
        data-split-form
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          actor.send({ type: 'split.submit' });
        }}
      >
        <OrderRefunds order={order} causes={['split_undone']} />
        <Block strong inset className="!my-4 space-y-2">
          <label className="flex min-h-11 items-center gap-3">
            <span className="flex-1 font-medium">
              <Trans>分成几份</Trans>
            </span>
            <select
              name="count"
              value={texts.length}
              disabled={!open}
              onChange={(e) => actor.send({ type: 'count.change', count: Number(e.target.value) })}
              className="min-h-11 min-w-20 rounded-lg border border-black/15 bg-white px-3"
            >
              {COUNTS.map((n) => (
                <option key={n} value={n}>
                  {n}
                </option>
              ))}
            </select>
          </label>
          <p className="text-xs text-black/60">
            <Trans>默认平均分，除不尽的零头在第 1 份；每份金额都可以修改，各份合计须等于待支付金额。</Trans>
          </p>
        </Block>
        <Block strong inset className="!my-4 space-y-3">
          {texts.map((t, i) => {
            const problem = problems.find((p) => p.field === i);
            const n = i + 1;
            return (
              <div key={i} data-split-part={n}>
                <label className="flex min-h-11 items-center gap-3">
                  <span className="w-24 shrink-0">
                    <Trans>第 {n} 份（元）</Trans>
                  </span>
                  <input
                    name={`part-${n}`}
                    inputMode="decimal"
                    autoComplete="off"
                    value={t}
                    disabled={!open}
                    aria-invalid={problem ? true : undefined}
                    onChange={(e) => actor.send({ type: 'part.change', index: i, text: e.target.value })}
                    className={`min-h-11 min-w-0 flex-1 rounded-lg border bg-white px-3 tabular-nums ${problem ? 'border-rose-500' : 'border-black/15'}`}
                  />
                </label>
                {problem && (
                  <p className="mt-1 text-xs text-rose-600" data-split-problem={n}>
                    {problemText(i18n, problem, total)}
                  </p>
                )}
              </div>
            );
          })}
          <p className="flex justify-between text-sm tabular-nums" data-split-total>
            <span>
              <Trans>合计 {formatYuan(sum)}</Trans>
            </span>
            <span>
              <Trans>待支付 {formatYuan(total)}</Trans>
            </span>
          </p>
          {problems
            .filter((p) => p.field === 'parts')
            .map((p) => (
              <p key={p.problem} className="text-xs text-rose-600" data-split-problem="parts">
                {problemText(i18n, p, total)}
              </p>
            ))}
        </Block>
        <Block className="!my-4">
          <Button large rounded type="submit" disabled={!open || problems.length > 0} data-action="split-submit">
            {busy ? <Trans>正在提交…</Trans> : <Trans>确认分开支付</Trans>}
          </Button>
        </Block>
      </form>
      {/* outside the form: its buttons must not submit it */}
      {unreachable && (
        <p className="mx-4 text-center">
          <UnreachableRetry onRetry={() => actor.send({ type: 'network.retry' })} onClose={() => actor.send({ type: 'confirm.dismiss' })} />
        </p>
      )}
    </>
  );
}
