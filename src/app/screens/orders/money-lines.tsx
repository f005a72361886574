import { Trans } from '@lingui/react/macro';
import { List, ListItem } from 'konsta/react';
import { formatYuan } from '../../../domain/money';

/** The money of an order or a quote (spec §3 order fields), all integer cents from the server. */
export interface MoneyFacts {
  goodsName: string;
  listPriceCents: number;
  memberPriceCents: number;
  couponDeductionCents: number;
  balanceUsedCents: number;
  amountToPayCents: number;
}

/** Goods name, price, member price, coupon deduction, balance use and the amount to pay, one per line. */
export function MoneyLines(props: { facts: MoneyFacts }) {
  const f = props.facts;
  return (
    <List strong inset className="!my-4 tabular-nums" data-money-lines>
      <ListItem title={<Trans>商品</Trans>} after={<span data-goods-name>{f.goodsName}</span>} />
      <ListItem title={<Trans>价格</Trans>} after={<span data-price-list>{formatYuan(f.listPriceCents)}</span>} />
      <ListItem title={<Trans>会员价</Trans>} after={<span data-price-member>{formatYuan(f.memberPriceCents)}</span>} />
      <ListItem title={<Trans>优惠券抵扣</Trans>} after={<span data-coupon-deduction>-{formatYuan(f.couponDeductionCents)}</span>} />
      <ListItem title={<Trans>余额抵扣</Trans>} after={<span data-balance-used>-{formatYuan(f.balanceUsedCents)}</span>} />
      <ListItem
        title={
          <span className="font-semibold">
            <Trans>应付金额</Trans>
          </span>
        }
        after={
          <span className="text-lg font-semibold text-red-600" data-amount-to-pay>
            {formatYuan(f.amountToPayCents)}
          </span>
        }
      />
    </List>
  );
}
