import { Trans } from '@lingui/react/macro';
import type { QuoteCoupon } from '../../../api/orders';
import { formatYuan } from '../../../domain/money';

const row = (on: boolean, usable: boolean) =>
  `flex items-center gap-3 rounded-xl bg-white p-3 ${usable ? 'cursor-pointer' : 'opacity-55'} ${on ? 'ring-2 ring-primary' : ''}`;

/** My coupons for these goods (from the quote): none, or one; one under its minimum says why. */
export function CouponChoice(props: {
  coupons: QuoteCoupon[];
  chosen: number | undefined;
  disabled: boolean;
  onChoose(id: number | undefined): void;
}) {
  if (props.coupons.length === 0) return null;
  return (
    <fieldset className="mx-4 my-4 space-y-2" data-coupon-choice disabled={props.disabled}>
      <legend className="mb-2 text-sm font-semibold text-black/70">
        <Trans>优惠券</Trans>
      </legend>
      <label className={row(props.chosen === undefined, true)} data-coupon="none">
        <input
          type="radio"
          name="coupon"
          checked={props.chosen === undefined}
          onChange={() => props.onChoose(undefined)}
          className="h-4 w-4 accent-primary"
        />
        <span className="flex-1">
          <Trans>不使用优惠券</Trans>
        </span>
      </label>
      {props.coupons.map((c) => (
        <label key={c.id} className={row(props.chosen === c.id, c.usable)} data-coupon={c.id} data-usable={c.usable}>
          <input
            type="radio"
            name="coupon"
            disabled={!c.usable}
            checked={props.chosen === c.id}
            onChange={() => props.onChoose(c.id)}
            className="h-4 w-4 accent-primary"
          />
          <span className="min-w-0 flex-1">
            <span className="block truncate font-medium">{c.name}</span>
            {!c.usable && c.message && <span className="block text-xs text-rose-600">{c.message}</span>}
          </span>
          <span className="shrink-0 font-semibold text-red-600 tabular-nums">-{formatYuan(c.deductionCents)}</span>
        </label>
      ))}
    </fieldset>
  );
}
