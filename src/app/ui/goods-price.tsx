import { formatYuan } from '../../domain/money';

/**
 * A goods price (spec §1: discounts only after login): a member sees the member price with the list
 * price struck through; a visitor, who gets no member price from the server, sees the list price.
 */
export function GoodsPrice(props: { listPriceCents: number; memberPriceCents?: number; large?: boolean }) {
  const big = props.large ? 'text-xl' : 'text-sm';
  if (props.memberPriceCents === undefined) {
    return (
      <span className={`font-semibold tabular-nums ${big}`} data-price="list">
        {formatYuan(props.listPriceCents)}
      </span>
    );
  }
  return (
    <span className="tabular-nums" data-price="member">
      <span className={`font-semibold text-red-600 ${big}`}>{formatYuan(props.memberPriceCents)}</span>{' '}
      {props.memberPriceCents !== props.listPriceCents && <s className="text-xs text-black/60">{formatYuan(props.listPriceCents)}</s>}
    </span>
  );
}
