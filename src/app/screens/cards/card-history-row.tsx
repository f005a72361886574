import { msg } from '@lingui/core/macro';
import { useLingui } from '@lingui/react';
import type { ReactNode } from 'react';
import { Trans } from '@lingui/react/macro';
import type { CardHistoryItem } from '../../../api/cards';
import { shanghaiClock, shanghaiDate, lastValidDay } from '../../../domain/time';
import { formatYuan } from '../../../domain/money';
import { ROW_STATE_LABELS } from '../booking/booking-labels';
import { MoneyBreakdown } from '../../ui/money-breakdown';

const when = (iso: string) => `${shanghaiDate(iso)} ${shanghaiClock(new Date(iso))}`;

/** A validity end as the member reads it: the last valid day. */
const endDay = (iso: string | null) => (iso ? lastValidDay(new Date(iso)) : '—');

/** A line's title and, below it, what it changed. */
function Line(props: { title: ReactNode; detail?: ReactNode }) {
  return (
    <>
      <span className="block truncate font-medium">{props.title}</span>
      {props.detail !== undefined && (
        <span className="block text-xs text-black/60 tabular-nums" data-card-history-detail>
          {props.detail}
        </span>
      )}
    </>
  );
}

/** What one timeline line says happened to the card (decision 034). */
function What(props: { item: CardHistoryItem }) {
  const { i18n } = useLingui();
  const h = props.item;
  switch (h.kind) {
    case 'bought':
      return (
        <>
          <Line title={<Trans>购买</Trans>} detail={<Trans>订单{h.orderNo}</Trans>} />
          <MoneyBreakdown money={h.money} className="mt-1 text-xs text-black/70" />
        </>
      );
    case 'activated':
      return <Line title={<Trans>激活</Trans>} detail={h.classTitle !== null ? <Trans>预约“{h.classTitle}”时激活</Trans> : undefined} />;
    case 'class':
      return <Line title={h.classTitle} detail={`${h.clubName} · ${when(h.classStartsAt)} · ${i18n._(ROW_STATE_LABELS[h.state])}`} />;
    case 'returned':
      return <Line title={<Trans>取消预约，退回次数</Trans>} detail={h.classTitle} />;
    case 'freeze':
      return (
        <Line
          title={
            <Trans>
              冻结 {h.from} 至 {h.until}
            </Trans>
          }
          detail={
            <Trans>
              到期日期 {endDay(h.validUntilBefore)} → {endDay(h.validUntilAfter)}
            </Trans>
          }
        />
      );
    case 'unfreeze':
      return (
        <Line
          title={
            <Trans>
              提前解冻（{h.from} 至 {h.until} 的冻结）
            </Trans>
          }
          detail={<Trans>到期日期改为 {endDay(h.validUntilAfter)}</Trans>}
        />
      );
    case 'extend':
      return (
        <Line
          title={<Trans>延期</Trans>}
          detail={
            <Trans>
              到期日期 {endDay(h.validUntilBefore)} → {endDay(h.validUntilAfter)}
            </Trans>
          }
        />
      );
    case 'transferOut':
      return <Line title={<Trans>申请转让</Trans>} />;
    case 'transferOutcome':
      return <Line title={i18n._(TRANSFER_OUTCOME[h.state])} detail={h.reason ?? undefined} />;
    case 'transferIn':
      return <Line title={<Trans>转让获得</Trans>} detail={h.usesLeft !== null ? <Trans>剩余{h.usesLeft}次</Trans> : undefined} />;
    case 'refundRequested':
      return <Line title={<Trans>申请退款</Trans>} detail={<Trans>可退{formatYuan(h.quotedCents)}</Trans>} />;
    case 'refundOutcome':
      return (
        <Line
          title={i18n._(REFUND_OUTCOME[h.state])}
          detail={
            h.state === 'approved' && h.amountCents !== null ? <Trans>退回{formatYuan(h.amountCents)}</Trans> : (h.reason ?? undefined)
          }
        />
      );
    case 'adviser':
      return (
        <Line
          title={<Trans>更换顾问</Trans>}
          detail={
            h.from !== null ? <AdviserChanged from={h.from} to={h.to} club={h.clubName} /> : <AdviserChosen to={h.to} club={h.clubName} />
          }
        />
      );
    case 'familyAdded':
      return <Line title={<Trans>添加副卡持有人</Trans>} detail={h.name} />;
    case 'familyRemoved':
      return <Line title={<Trans>解除副卡持有人</Trans>} detail={h.name} />;
    case 'gifted':
      return <Line title={<Trans>好友赠送获得</Trans>} />;
  }
}

function AdviserChanged(props: { from: string; to: string; club: string }) {
  const { from, to, club } = props;
  return (
    <Trans>
      {from} → {to}（{club}）
    </Trans>
  );
}

function AdviserChosen(props: { to: string; club: string }) {
  const { to, club } = props;
  return (
    <Trans>
      {to}（{club}）
    </Trans>
  );
}

const TRANSFER_OUTCOME = { approved: msg`转让已通过`, rejected: msg`转让被拒绝`, cancelled: msg`转让申请已撤销` } as const;
const REFUND_OUTCOME = { approved: msg`退款已通过`, rejected: msg`退款被拒绝`, cancelled: msg`退款申请已撤销` } as const;

/** One line of a card's timeline: what, when, and the uses it moved. */
export function CardHistoryRow(props: { item: CardHistoryItem }) {
  const h = props.item;
  const spent = h.kind === 'class' && h.usesSpent > 0 ? h.usesSpent : 0;
  const back = h.kind === 'returned' ? h.usesReturned : 0;
  return (
    <div className="flex items-start gap-3 bg-white px-4 py-3" data-card-history={h.kind}>
      <div className="min-w-0 flex-1">
        <What item={h} />
      </div>
      <span className="shrink-0 text-right text-xs text-black/60 tabular-nums">
        {h.kind !== 'class' && <span className="block">{when(h.at)}</span>}
        {spent > 0 && <span className="block text-sm text-rose-600">-{spent}</span>}
        {back > 0 && <span className="block text-sm text-emerald-700">+{back}</span>}
      </span>
    </div>
  );
}

/** What an empty history says. */
export function NoCardHistory() {
  return (
    <p className="px-8 py-8 text-center text-sm text-black/60" data-card-history-empty>
      <Trans>暂无使用记录</Trans>
    </p>
  );
}

/** The classes of a history list (one rounded block of rows). */
export const HISTORY_LIST_CLASS = 'mx-4 divide-y divide-black/5 overflow-hidden rounded-xl';

/** A short history (the card page's preview). */
export function CardHistoryList(props: { items: CardHistoryItem[] }) {
  if (props.items.length === 0) return <NoCardHistory />;
  return (
    <ul className={HISTORY_LIST_CLASS} data-list="card-history">
      {props.items.map((h) => (
        <li key={historyKey(h)}>
          <CardHistoryRow item={h} />
        </li>
      ))}
    </ul>
  );
}

/** A stable key for a history line. */
export function historyKey(h: CardHistoryItem): string {
  if (h.kind === 'class' || h.kind === 'returned') return `${h.kind}-${h.bookingId}`;
  return `${h.kind}-${h.at}`;
}
