import { useLingui } from '@lingui/react';
import { Block } from 'konsta/react';
import type { OrderDetail } from '../../../api/orders';
import { refundText } from './split-labels';

/**
 * Money an order gives back to its payers (a cancel, an undone split, a payment it could not take):
 * each refund's amount, where it goes and how far it is. Nothing when none; `causes` narrows it.
 */
export function OrderRefunds(props: { order: OrderDetail; causes?: ReadonlyArray<OrderDetail['refunds'][number]['cause']> }) {
  const { i18n } = useLingui();
  const shown = props.order.refunds.filter((r) => !props.causes || props.causes.includes(r.cause));
  if (shown.length === 0) return null;
  return (
    <Block strong inset className="!my-4 space-y-1 text-sm" data-order-refunds>
      {shown.map((r, i) => (
        <p key={i} data-refund-state={r.state}>
          {refundText(i18n, r)}
        </p>
      ))}
    </Block>
  );
}
