import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { useLingui } from '@lingui/react/macro';
import type { ReactNode } from 'react';
import type { MoneyBack, MoneyBreakdown as Breakdown, MoneyPayer } from '../../contracts/orders';
import { formatYuan } from '../../domain/money';

/** The payment methods as a payer line names them (decision 101). */
const METHOD_LABELS: Record<MoneyPayer['method'], MessageDescriptor> = {
  balance: msg`余额支付`,
  wechat: msg`微信支付`,
  alipay: msg`支付宝支付`,
};

/** Where a refund goes back to, by the way it was paid. */
const BACK_LABELS: Record<MoneyPayer['method'], MessageDescriptor> = {
  balance: msg`退回余额`,
  wechat: msg`退回微信支付`,
  alipay: msg`退回支付宝`,
};

type Who = Pick<MoneyPayer, 'who' | 'name' | 'method'>;

/** A payer line's title: the member's own lines by method, a friend's with their name and method. */
function usePayerTitle() {
  const { i18n, t: tr } = useLingui();
  return (p: Who) => {
    const method = i18n._(METHOD_LABELS[p.method]);
    if (p.who === 'me') return method;
    const name = p.name;
    return name ? tr`好友代付（${name}，${method}）` : tr`好友代付（${method}）`;
  };
}

function Line(props: { line: string; title: ReactNode; cents: number; strong?: boolean; minus?: boolean; note?: ReactNode }) {
  return (
    <li className={`py-1 ${props.strong ? 'font-semibold' : ''}`} data-money-line={props.line}>
      <div className="flex justify-between gap-3">
        <span>{props.title}</span>
        <span className="tabular-nums">
          {props.minus ? '-' : ''}
          {formatYuan(props.cents)}
        </span>
      </div>
      {props.note && <p className="text-xs text-black/60">{props.note}</p>}
    </li>
  );
}

/**
 * An order's money, the one way every screen tells it (decision 101): the goods, the coupon, each
 * payer's line (method, a friend's name, what went back), 实付 as the sum of those lines, the
 * refunds and what is left to pay. The friend's page passes a share breakdown (the amount asked).
 */
export function MoneyBreakdown(props: { money: Breakdown; className?: string }) {
  const m = props.money;
  const { t: tr } = useLingui();
  const payerTitle = usePayerTitle();
  return (
    <ul aria-label={tr`金额明细`} className={`text-sm ${props.className ?? ''}`} data-money-breakdown={m.scope}>
      {m.scope === 'order' ? (
        <Line line="goods" title={tr`商品金额`} cents={m.goodsTotalCents} />
      ) : (
        <Line line="asked" title={tr`代付金额`} cents={m.goodsTotalCents} />
      )}
      {m.couponCents > 0 && <Line line="coupon" title={tr`优惠券抵扣`} cents={m.couponCents} minus />}
      {m.payers.map((p, i) => {
        const back = formatYuan(p.refundedCents);
        const going = formatYuan(p.refundingCents);
        const notes = [p.refundedCents > 0 ? tr`已退回 ${back}` : null, p.refundingCents > 0 ? tr`退款中 ${going}` : null].filter(Boolean);
        return (
          <Line
            key={i}
            line={`payer-${p.who}-${p.method}`}
            title={payerTitle(p)}
            cents={p.paidCents}
            note={notes.length ? notes.join(' · ') : undefined}
          />
        );
      })}
      <Line line="paid" title={tr`实付金额`} cents={m.paidCents} strong />
      {m.refundedCents > 0 && <Line line="refunded" title={tr`已退款`} cents={m.refundedCents} />}
      {m.refundingCents > 0 && <Line line="refunding" title={tr`退款中`} cents={m.refundingCents} />}
      {m.toPayCents > 0 && (
        <li className="flex justify-between gap-3 py-1 font-semibold text-red-600" data-money-line="to-pay">
          <span>{tr`待支付`}</span>
          <span className="tabular-nums">{formatYuan(m.toPayCents)}</span>
        </li>
      )}
    </ul>
  );
}

/** What a refund gives back, to whom and by which way (the refund quote, decision 101). */
export function MoneyBackLines(props: { back: readonly MoneyBack[]; className?: string }) {
  const { i18n, t: tr } = useLingui();
  return (
    <ul aria-label={tr`退回去向`} className={`text-sm ${props.className ?? ''}`} data-money-back>
      {props.back.map((b, i) => {
        const to = i18n._(BACK_LABELS[b.method]);
        const name = b.name;
        const title = b.who === 'me' ? to : name ? tr`${to}（好友${name}）` : tr`${to}（好友）`;
        return <Line key={i} line={`back-${b.who}-${b.method}`} title={title} cents={b.cents} />;
      })}
    </ul>
  );
}
