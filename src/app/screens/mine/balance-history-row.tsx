import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { useLingui } from '@lingui/react';
import { Trans } from '@lingui/react/macro';
import { Link } from 'react-router-dom';
import type { BalanceLedgerRow } from '../../../api/payments';
import type { LedgerReason } from '../../../domain/balance-ledger';
import { formatYuan, formatYuanChange } from '../../../domain/money';
import { shanghaiClock, shanghaiDate } from '../../../domain/time';
import { orderPath } from '../orders/checkout-paths';

/** Why the balance changed, in words (decision 021's ledger reasons; their own context, as a short word like 退款 means other things elsewhere). */
export const LEDGER_REASON_LABELS: Record<LedgerReason, MessageDescriptor> = {
  order: msg({ message: '购买', context: 'balance change' }),
  split_part: msg({ message: '拆分支付', context: 'balance change' }),
  cancel: msg({ message: '取消退回', context: 'balance change' }),
  refund: msg({ message: '退款', context: 'balance change' }),
  topup: msg({ message: '充值', context: 'balance change' }),
  grant: msg({ message: '赠送', context: 'balance change' }),
};

const when = (iso: string) => `${shanghaiDate(iso)} ${shanghaiClock(new Date(iso))}`;

/** One change of my balance: why, its order (a link to it) and goods, when, the signed amount and the balance after it. */
export function BalanceHistoryRow(props: { row: BalanceLedgerRow }) {
  const { i18n } = useLingui();
  const r = props.row;
  const moneyIn = r.changeCents > 0;
  return (
    <div className="flex items-start gap-3 bg-white px-4 py-3" data-ledger-row={r.id} data-reason={r.reason}>
      <span className="min-w-0 flex-1">
        <span className="block font-medium" data-reason-label>
          {i18n._(LEDGER_REASON_LABELS[r.reason])}
        </span>
        {r.goodsName && <span className="block truncate text-xs text-black/60">{r.goodsName}</span>}
        {r.orderNo && (
          <Link to={orderPath(r.orderNo)} className="block truncate text-xs text-primary tabular-nums" data-ledger-order={r.orderNo}>
            <Trans>订单 {r.orderNo}</Trans>
          </Link>
        )}
        <span className="block text-xs text-black/60 tabular-nums">{when(r.createdAt)}</span>
      </span>
      <span className="shrink-0 text-right tabular-nums">
        <span className={`block font-semibold ${moneyIn ? 'text-emerald-700' : ''}`} data-change={moneyIn ? 'in' : 'out'}>
          {formatYuanChange(r.changeCents)}
        </span>
        <span className="block text-xs text-black/60" data-balance-after>
          <Trans>余额 {formatYuan(r.balanceAfterCents)}</Trans>
        </span>
      </span>
    </div>
  );
}
