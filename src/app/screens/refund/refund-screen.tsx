import { useLingui } from '@lingui/react';
import { Trans } from '@lingui/react/macro';
import { useActorRef, useSelector } from '@xstate/react';
import { Block, BlockTitle, Button, Checkbox } from 'konsta/react';
import { useMemo } from 'react';
import { Link, useLoaderData } from 'react-router-dom';
import { fromPromise, type SnapshotFrom } from 'xstate';
import { refundRequestMachine } from '../../../../machines/card-refund.machine';
import type { MyCardRefund } from '../../../api/card-refunds';
import { Errors } from '../../../domain/errors';
import { formatYuan } from '../../../domain/money';
import { shanghaiMinute } from '../../../domain/time';
import { browserApiOrThrow } from '../../api-context';
import { useConfirmWhile } from '../../ui/confirm';
import { NotFoundState } from '../../ui/not-found-state';
import { UnreachableRetry } from '../../ui/unreachable-retry';
import { refusalMessage } from '../../ui/refusal-message';
import { myCardPath } from '../cards/my-card-row';
import { refundLoader, type RefundPageData } from './refund-data';
import { MoneyBackLines, MoneyBreakdown } from '../../ui/money-breakdown';

export const loader = refundLoader;

/** The request's state as the member reads it. */
type RequestStatus = 'pending' | 'running' | 'done' | 'failed' | 'rejected';

/** Which of them the chart is in; undefined while no request is shown (loading, the quote). */
function requestStatus(s: SnapshotFrom<typeof refundRequestMachine>): RequestStatus | undefined {
  if (s.hasTag('pending')) return 'pending';
  if (s.matches('running')) return 'running';
  if (s.matches('done')) return 'done';
  if (s.matches('failed')) return 'failed';
  if (s.matches('rejected')) return 'rejected';
  return undefined;
}

/** My latest request, or throws (the page offers a retry). */
async function loadRequest(cardId: number): Promise<MyCardRefund | null> {
  const r = await browserApiOrThrow().cardRefunds.mine(cardId);
  if (r.code !== 200) throw new Error(`refund request not read: ${r.code}`);
  return r.data;
}

const time = shanghaiMinute;

/** The refund policy (decision 030): what comes back, the way it goes back, and when it cannot be asked. */
function RefundPolicy() {
  return (
    <Block strong inset className="space-y-2 text-sm" data-refund-policy>
      <p>
        <Trans>1. 未使用（未激活）的会员卡退还全部实付金额，不收手续费。</Trans>
      </p>
      <p>
        <Trans>2. 已开始使用的会员卡按剩余比例退款：次卡按剩余次数，期限卡按剩余天数；并扣除该卡种的手续费。</Trans>
      </p>
      <p>
        <Trans>3. 优惠券抵扣的部分不退还；款项按原支付方式退回：余额退回余额，微信支付、支付宝退回原支付账户。</Trans>
      </p>
      <p>
        <Trans>4. 退款申请由门店审核；审核时按当时剩余的次数或天数重新计算，金额可能少于申请时显示的金额。审核通过后会员卡作废。</Trans>
      </p>
      <p>
        <Trans>5. 会员卡上还有已预约或正在上的课程时不能退款，请先取消预约。</Trans>
      </p>
    </Block>
  );
}

/**
 * /mine/refund?id=: the refund of one of my cards through the card-refund machine (spec §4, §5;
 * decisions 030, 031): the policy and the amount the server's quote gives back, agreed and asked;
 * then the request: waiting for staff (cancel), approved with the money on its way, done, failed with
 * the provider's words, or rejected with the staff's reason (ask again).
 */
export default function RefundScreen() {
  const { card } = useLoaderData() as RefundPageData;
  const { i18n } = useLingui();
  const cardId = card?.id ?? 0;
  const logic = useMemo(
    () =>
      refundRequestMachine.provide({
        actors: {
          loadRequest: fromPromise(({ input }) => loadRequest(input.cardId)),
          quoteRefund: fromPromise(({ input }) => browserApiOrThrow().cardRefunds.quote(input.cardId)),
          requestRefund: fromPromise(({ input }) => browserApiOrThrow().cardRefunds.request(input.cardId, input.idempotencyKey)),
          cancelRefund: fromPromise(({ input }) => browserApiOrThrow().cardRefunds.cancel(input.id, input.idempotencyKey)),
        },
      }),
    [],
  );
  const flow = useActorRef(logic, { input: { cardId } });
  const loading = useSelector(flow, (s) => s.hasTag('loading'));
  const busy = useSelector(flow, (s) => s.hasTag('busy'));
  const unreachable = useSelector(flow, (s) => s.hasTag('unreachable'));
  const quote = useSelector(flow, (s) => s.hasTag('quote'));
  const pending = useSelector(flow, (s) => s.hasTag('pending'));
  const refreshable = useSelector(flow, (s) => s.hasTag('refresh'));
  const readUnreachable = useSelector(flow, (s) => s.matches('readUnreachable'));
  const unavailable = useSelector(flow, (s) => s.matches('unavailable'));
  const agreeing = useSelector(flow, (s) => s.matches('policy'));
  const confirming = useSelector(flow, (s) => s.matches('confirmingRefund'));
  const status = useSelector(flow, requestStatus);
  const c = useSelector(flow, (s) => s.context);
  const amount = formatYuan(c.quote?.amountCents ?? 0);
  const cardName = card?.name ?? '';
  useConfirmWhile(
    confirming,
    {
      title: <Trans>申请退款</Trans>,
      // the ways back named with their amounts, as the quote says them: asked once, so said in full
      message: (
        <>
          <Trans>
            确定为「{cardName}」申请退款吗？可退{amount}，审核通过后会员卡作废，款项退回：
          </Trans>
          <MoneyBackLines back={c.quote?.back ?? []} className="mt-2 text-left" />
        </>
      ),
      confirmText: <Trans>确定申请退款</Trans>,
      cancelText: <Trans>再想想</Trans>,
    },
    (confirmed) => flow.send({ type: confirmed ? 'confirm.accept' : 'confirm.dismiss' }),
  );
  if (!card)
    return <NotFoundState message={<Trans>没有找到这张会员卡</Trans>} backTo="/vipcard?tab=mine" backLabel={<Trans>我的会员卡</Trans>} />;
  const r = c.request;
  const alert =
    c.errorCode !== undefined ? (
      <p role="alert" className="text-rose-600" data-refund-refused={c.errorCode}>
        {i18n._(refusalMessage(c.errorCode))}
      </p>
    ) : null;
  const refresh = (
    <Button rounded outline onClick={() => flow.send({ type: 'refund.refresh' })} data-action="refund-refresh">
      <Trans>刷新</Trans>
    </Button>
  );

  let body: React.ReactNode = null;
  if (loading) {
    body = (
      <Block className="text-center text-sm text-black/60" data-refund-loading>
        <Trans>加载中</Trans>
      </Block>
    );
  } else if (readUnreachable) {
    body = (
      <Block className="space-y-2 text-center text-sm">
        <p role="alert" className="text-rose-600">
          {i18n._(Errors.network.message)}
        </p>
        <Button rounded inline onClick={() => flow.send({ type: 'network.retry' })}>
          <Trans>重试</Trans>
        </Button>
      </Block>
    );
  } else if (unavailable) {
    body = (
      <>
        <RefundPolicy />
        <Block className="text-center text-sm text-black/60">
          <p data-refund-unavailable={c.quoteCode}>
            <Trans>暂时不能退款：{i18n._(refusalMessage(c.quoteCode))}</Trans>
          </p>
        </Block>
      </>
    );
  } else if (quote) {
    const q = c.quote!;
    const leftPercent = (q.leftPerMille / 10).toFixed(1).replace(/\.0$/, '');
    body = (
      <>
        <RefundPolicy />
        <Block strong inset className="!my-4">
          <MoneyBreakdown money={q.money} />
        </Block>
        <Block strong inset className="space-y-1 text-sm" data-refund-quote>
          <p>
            <Trans>可退基数：{formatYuan(q.paidCents)}</Trans>
          </p>
          <p>
            <Trans>剩余比例：{leftPercent}%</Trans>
          </p>
          <p>
            <Trans>手续费：{q.feePercent}%</Trans>
          </p>
          <p className="text-base font-medium">
            <Trans>
              可退金额：<span data-refund-amount>{formatYuan(q.amountCents)}</span>
            </Trans>
          </p>
          <MoneyBackLines back={q.back} className="border-t border-black/5 pt-1" />
        </Block>
        <Block className="space-y-3">
          <label className="flex items-center gap-2 text-sm">
            <Checkbox checked={c.agreed} disabled={!agreeing} onChange={() => flow.send({ type: 'policy.toggle' })} name="agreed" />
            <Trans>我已阅读并同意会员卡退款规则</Trans>
          </label>
          {alert}
          {unreachable ? (
            <UnreachableRetry onRetry={() => flow.send({ type: 'network.retry' })} onClose={() => flow.send({ type: 'form.close' })} />
          ) : (
            <Button
              large
              rounded
              disabled={busy || !c.agreed}
              onClick={() => flow.send({ type: 'refund.submit' })}
              data-action="refund-submit"
            >
              {busy ? <Trans>正在提交…</Trans> : <Trans>申请退款</Trans>}
            </Button>
          )}
        </Block>
      </>
    );
  } else if (r && status) {
    body = (
      <Block strong inset className="space-y-2 text-sm" data-refund={r.id}>
        <p>
          <Trans>状态</Trans>：<RequestState state={status} />
        </p>
        <p>
          <Trans>申请时显示的可退金额：{formatYuan(r.quotedCents)}</Trans>
        </p>
        <p className="text-xs text-black/60">
          <Trans>申请时间：{time(r.createdAt)}</Trans>
        </p>
        {r.amountCents !== null && (
          <p data-refund-given>
            <Trans>退款金额：{formatYuan(r.amountCents)}</Trans>
          </p>
        )}
        {r.amountCents !== null && <MoneyBreakdown money={r.money} className="border-t border-black/5 pt-1" />}
        {r.decidedAt && !pending && (
          <p className="text-xs text-black/60">
            <Trans>审核时间：{time(r.decidedAt)}</Trans>
          </p>
        )}
        {status === 'running' && (
          <p>
            <Trans>款项正在按原支付方式退回，请稍后刷新查看。</Trans>
          </p>
        )}
        {status === 'done' && (
          <p>
            <Trans>款项已按原支付方式退回，会员卡已作废。</Trans>
          </p>
        )}
        {status === 'failed' && (
          <p className="text-rose-600" data-refund-failure>
            <Trans>退款未能完成：{r.failure ?? '—'}。门店会尽快处理，如有疑问请联系门店。</Trans>
          </p>
        )}
        {status === 'rejected' && (
          <p className="text-rose-600" data-refund-reason>
            <Trans>未通过原因：{r.reason}</Trans>
          </p>
        )}
        {alert}
        {unreachable && (
          <UnreachableRetry onRetry={() => flow.send({ type: 'network.retry' })} onClose={() => flow.send({ type: 'form.close' })} />
        )}
        <div className="flex flex-wrap gap-2 pt-1">
          {pending && !unreachable && (
            <Button rounded outline inline disabled={busy} onClick={() => flow.send({ type: 'refund.cancel' })} data-action="refund-cancel">
              {busy ? <Trans>正在取消…</Trans> : <Trans>取消申请</Trans>}
            </Button>
          )}
          {refreshable && refresh}
          {status === 'rejected' && (
            <Button rounded inline onClick={() => flow.send({ type: 'refund.again' })} data-action="refund-again">
              <Trans>重新申请退款</Trans>
            </Button>
          )}
        </div>
      </Block>
    );
  }

  return (
    <article className="pb-6" data-refund-page={card.id}>
      <BlockTitle>
        <Trans>会员卡退款：{card.name}</Trans>
      </BlockTitle>
      {body}
      <p className="mt-4 text-center text-sm">
        <Link to={myCardPath(card.id)} className="text-primary">
          <Trans>查看会员卡详情</Trans>
        </Link>
      </p>
    </article>
  );
}

/** The request's state as the member reads it. */
function RequestState(props: { state: RequestStatus }) {
  const { state } = props;
  return (
    <span data-refund-state={state}>
      {state === 'pending' ? (
        <Trans>待门店审核</Trans>
      ) : state === 'running' ? (
        <Trans>已通过，退款中</Trans>
      ) : state === 'done' ? (
        <Trans>退款完成</Trans>
      ) : state === 'failed' ? (
        <Trans>退款失败</Trans>
      ) : (
        <Trans>未通过</Trans>
      )}
    </span>
  );
}
