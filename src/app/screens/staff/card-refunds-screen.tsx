import { Trans, useLingui } from '@lingui/react/macro';
import { ReasonInput } from './reason-input';
import { Button } from 'konsta/react';
import { data, type LoaderFunctionArgs, useLoaderData } from 'react-router-dom';
import type { StaffCardRefund } from '../../../contracts/card-refunds';
import { formatYuan } from '../../../domain/money';
import { shanghaiMinute } from '../../../domain/time';
import { apiFrom, browserApiOrThrow } from '../../api-context';
import { staffRead, type StaffData } from './staff-data';
import { StaffPage } from './staff-parts';
import { DecisionConfirm } from './decision-confirm';
import { DecisionNotice } from './decision-notice';
import { useStaffDecisions } from './use-staff-decisions';

interface CardRefundsData {
  queue: StaffData<StaffCardRefund[]>;
  /** the latest decided by staff (null when it could not be read) */
  decided: StaffCardRefund[] | null;
}

export const loader = async ({ context }: LoaderFunctionArgs) => {
  const api = apiFrom(context);
  const [queue, decided] = await Promise.all([
    staffRead(() => api.cardRefunds.staffQueue()),
    api.cardRefunds.staffDecided().catch(() => null),
  ]);
  return data<CardRefundsData>({ queue: queue.data, decided: decided?.code === 200 ? decided.data : null }, queue.init ?? undefined);
};

const time = shanghaiMinute;

/**
 * What approving does, said before it is sent: the card and its member, the policy's amount today
 * and each payer's part back the way they paid (from the queue's answer), and that it cannot be undone.
 */
function RefundWillDo({ x }: { x: StaffCardRefund | undefined }) {
  const { t } = useLingui();
  if (!x) return null;
  const ways: Record<string, string> = { wechat: t`微信支付`, alipay: t`支付宝`, balance: t`账户余额` };
  const member = x.memberName ? `${x.memberName}（${x.memberPhone}）` : x.memberPhone;
  const card = `${x.cardName} · ${x.cardNumber}`;
  const a = x.approval;
  if (!a)
    return (
      <p>
        <Trans>
          为{member}退「{card}」？现在按规则不能退款，提交后服务器会说明原因。
        </Trans>
      </p>
    );
  const amount = formatYuan(a.amountCents);
  return (
    <>
      <p>
        <Trans>
          为{member}退「{card}」，共退{amount}：
        </Trans>
      </p>
      <ul className="my-1">
        {a.parts.map((p, i) => {
          const way = ways[p.method] ?? p.method;
          const cents = formatYuan(p.cents);
          const payer = p.payer === 'member' ? member : (p.payerName ?? t`好友`);
          return (
            <li key={i}>
              <Trans>
                {way}退回{payer} {cents}
              </Trans>
            </li>
          );
        })}
      </ul>
      <p>
        <Trans>会员卡随即作废，不能撤回。</Trans>
      </p>
    </>
  );
}

/**
 * /staff/cardRefunds: members' card refund requests (decisions 030, 031), oldest first: approve one
 * (the card ends, the refund runs back to whoever paid, the way they paid) or reject it with the
 * reason the member reads. Each tap is one intent (Idempotency-Key), so a double tap acts once.
 * Below, the latest decisions with who decided and when, and how far each refund's money is.
 */
export default function CardRefundsScreen() {
  const { queue, decided } = useLoaderData() as CardRefundsData;
  const { t } = useLingui();
  const decisions = useStaffDecisions();
  const { revalidate, reasons, setReasons, ready, act } = decisions;
  const orderStates: Record<string, string> = { refunding: t`退款中`, refunded: t`退款完成`, refund_failed: t`退款失败` };
  return (
    <StaffPage d={queue} onRetry={revalidate} title={<Trans>退款申请</Trans>}>
      {(list) => (
        <>
          {list.length === 0 ? (
            <p className="p-6 text-center text-sm text-black/60" data-card-refunds-empty>
              <Trans>没有等待审核的退款申请</Trans>
            </p>
          ) : (
            <ul className="grid-12 md:cols-2 gap-y-3 p-4" data-card-refund-list>
              {list.map((x) => (
                <li key={x.id} className="rounded-xl bg-white p-4 text-sm shadow-sm ring-1 ring-black/5" data-card-refund={x.id}>
                  <p className="text-base font-medium">
                    {x.cardName} · {x.cardNumber}
                  </p>
                  <p>
                    {x.memberName ? `${x.memberName} · ` : ''}
                    {x.memberPhone} · {x.orderNo}
                  </p>
                  <p>
                    <Trans>申请时可退金额：{formatYuan(x.quotedCents)}</Trans>
                  </p>
                  <DecisionNotice decisions={decisions} id={x.id} className="mt-1" />
                  <ReasonInput className="mt-3" value={reasons[x.id] ?? ''} onChange={(v) => setReasons({ ...reasons, [x.id]: v })} />
                  <div className="mt-2 flex gap-2">
                    <Button
                      small
                      rounded
                      inline
                      disabled={!ready}
                      onClick={() => void act(x.id, (key) => browserApiOrThrow().cardRefunds.staffApprove(x.id, key), true)}
                      data-action="card-refund-approve"
                    >
                      <Trans>通过并退款</Trans>
                    </Button>
                    <Button
                      small
                      rounded
                      inline
                      outline
                      disabled={!ready || !(reasons[x.id] ?? '').trim()}
                      onClick={() =>
                        void act(x.id, (key) => browserApiOrThrow().cardRefunds.staffReject(x.id, (reasons[x.id] ?? '').trim(), key))
                      }
                      data-action="card-refund-reject"
                    >
                      <Trans>不通过</Trans>
                    </Button>
                  </div>
                  <p className="mt-2 text-xs text-black/60">{time(x.createdAt)}</p>
                </li>
              ))}
            </ul>
          )}
          <DecisionConfirm
            decisions={decisions}
            title={<Trans>通过并退款</Trans>}
            confirmText={<Trans>确定退款</Trans>}
            what={(id) => <RefundWillDo x={list.find((x) => x.id === id)} />}
          />
          {decided && decided.length > 0 && (
            <section className="px-4" data-card-refunds-decided>
              <h2 className="mb-2 text-base font-medium">
                <Trans>最近处理</Trans>
              </h2>
              <ul className="divide-y divide-black/5 rounded-xl bg-white">
                {decided.map((x) => (
                  <li key={x.id} className="p-3 text-sm" data-card-refund-decided={x.id} data-state={x.state}>
                    <p className="font-medium">
                      {x.cardName} · {x.memberPhone} · {x.state === 'approved' ? <Trans>已通过</Trans> : <Trans>未通过</Trans>}
                      {x.amountCents !== null ? ` · ${formatYuan(x.amountCents)}` : ''}
                      {x.state === 'approved' && orderStates[x.orderState] ? ` · ${orderStates[x.orderState]}` : ''}
                    </p>
                    {x.reason ? <p className="text-rose-600">{x.reason}</p> : null}
                    <p className="text-xs text-black/60" data-decided-by>
                      <Trans>
                        处理人：{x.decidedByName ?? '—'} · {time(x.decidedAt)}
                      </Trans>
                    </p>
                  </li>
                ))}
              </ul>
            </section>
          )}
        </>
      )}
    </StaffPage>
  );
}
