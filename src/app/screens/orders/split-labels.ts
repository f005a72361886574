import type { I18n, MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import type { OrderDetail, OrderPart } from '../../../api/orders';
import { formatYuan } from '../../../domain/money';
import type { SplitProblem } from '../../../domain/split';
import { PAY_METHOD_LABELS } from './checkout-labels';

/** What the form says about one part (named by its number) or about the parts together. */
export function problemText(i18n: I18n, p: SplitProblem, totalCents: number): string {
  if (p.field === 'parts') {
    if (p.problem === 'count') return i18n._(msg`份数须为 2 到 10 份`);
    const diff = formatYuan(Math.abs(p.differenceCents));
    const total = formatYuan(totalCents);
    return p.differenceCents > 0
      ? i18n._(msg`各份合计须等于待支付金额 ${total}，还差 ${diff}`)
      : i18n._(msg`各份合计须等于待支付金额 ${total}，多了 ${diff}`);
  }
  const n = p.field + 1;
  if (p.problem === 'notAmount') return i18n._(msg`第 ${n} 份：请输入金额，最多两位小数`);
  const total = formatYuan(totalCents);
  return i18n._(msg`第 ${n} 份：金额须大于 0 且小于待支付金额 ${total}`);
}

/** One part's own state as the member reads it: paid (by whom and how: a friend by name, or "you"), being paid (by them or a friend), with a friend, failed, or still to pay. */
export function partStateText(i18n: I18n, part: OrderPart): string {
  if (part.state !== 'paid') {
    if (part.holder === 'memberTrade') return i18n._(msg`支付中`);
    if (part.holder === 'friendTrade') return i18n._(msg`好友正在支付`);
    if (part.holder === 'friendLink') return i18n._(msg`等好友代付`);
    return part.payFailed ? i18n._(msg`支付未成功，可重新支付`) : i18n._(msg`待支付`);
  }
  const method = part.paidBy ? i18n._(PAY_METHOD_LABELS[part.paidBy]) : '';
  // friendName is null for the member's own money, '' for a friend the messaging app gave no name
  if (part.friendName !== null) {
    const name = part.friendName;
    if (!name) return method ? i18n._(msg`好友已代付（${method}）`) : i18n._(msg`好友已代付`);
    return method ? i18n._(msg`${name} 已代付（${method}）`) : i18n._(msg`${name} 已代付`);
  }
  return method ? i18n._(msg`你已支付（${method}）`) : i18n._(msg`你已支付`);
}

type Refund = OrderDetail['refunds'][number];

/** Where a refund's money goes back to: the payment it returns. */
const REFUND_TO: Record<Refund['to'], MessageDescriptor> = {
  balance: msg({ message: '余额', context: 'refund to' }),
  wechat: msg({ message: '微信', context: 'refund to' }),
  alipay: msg({ message: '支付宝', context: 'refund to' }),
};

/** Money an order gives back (an undone split, a cancel, a payment it could not take): where it goes, and how far it is. */
export function refundText(i18n: I18n, r: Refund): string {
  const amount = formatYuan(r.amountCents);
  const to = i18n._(REFUND_TO[r.to]);
  if (r.state === 'succeeded' || r.state === 'settled') return i18n._(msg`${amount} 已退回${to}`);
  if (r.state === 'failed' || r.state === 'held') return i18n._(msg`${amount} 退回${to}遇到问题，客服会处理`);
  return i18n._(msg`${amount} 正在退回${to}`);
}
