import { useLingui } from '@lingui/react';
import { Trans } from '@lingui/react/macro';
import type { CardHistoryItem } from '../../../api/member-goods';
import { shanghaiClock, shanghaiDate } from '../../../domain/time';
import { formatYuan } from '../../../domain/money';
import { ROW_STATE_LABELS } from '../booking/booking-labels';

const when = (iso: string) => `${shanghaiDate(iso)} ${shanghaiClock(new Date(iso))}`;

/** What one history line says happened to the card. */
function What(props: { item: CardHistoryItem }) {
  const { i18n } = useLingui();
  const h = props.item;
  if (h.kind === 'bought') {
    return (
      <>
        <span className="block font-medium">
          <Trans>购买</Trans>
        </span>
        <span className="block text-xs text-black/60 tabular-nums">
          <Trans>
            订单{h.orderNo}，实付{formatYuan(h.paidCents)}
          </Trans>
        </span>
      </>
    );
  }
  if (h.kind === 'activated') {
    return (
      <span className="block font-medium">
        <Trans>激活</Trans>
      </span>
    );
  }
  return (
    <>
      <span className="block truncate font-medium">{h.classTitle}</span>
      <span className="block truncate text-xs text-black/60 tabular-nums">
        {h.clubName} · {when(h.classStartsAt)} · {i18n._(ROW_STATE_LABELS[h.state])}
      </span>
    </>
  );
}

/** One line of a card's history: when, what, and the uses it moved. */
export function CardHistoryRow(props: { item: CardHistoryItem }) {
  const h = props.item;
  const uses = h.kind === 'class' && h.usesSpent > 0 ? h.usesSpent : 0;
  return (
    <div className="flex items-start gap-3 bg-white px-4 py-3" data-card-history={h.kind}>
      <span className="min-w-0 flex-1">
        <What item={h} />
      </span>
      <span className="shrink-0 text-right text-xs text-black/60 tabular-nums">
        {h.kind !== 'class' && <span className="block">{when(h.at)}</span>}
        {uses > 0 && <span className="block text-sm text-rose-600">-{uses}</span>}
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
  return h.kind === 'class' ? `class-${h.bookingId}` : `${h.kind}-${h.at}`;
}
