import { useLingui } from '@lingui/react';
import { Trans } from '@lingui/react/macro';
import type { PayMethod } from '../../../domain/orders';
import { PAY_METHOD_LABELS } from './checkout-labels';

/** How to pay: the methods the server offers, as radio choices. */
export function MethodChoice(props: { methods: PayMethod[]; chosen: PayMethod | undefined; onChoose(m: PayMethod): void }) {
  const { i18n } = useLingui();
  return (
    <fieldset className="mx-4 my-4 space-y-2" data-method-choice>
      <legend className="mb-2 text-sm font-semibold text-black/70">
        <Trans>支付方式</Trans>
      </legend>
      {props.methods.map((m) => (
        <label key={m} data-method={m} className={`flex cursor-pointer items-center gap-3 rounded-xl bg-white p-3 ${props.chosen === m ? 'ring-2 ring-primary' : ''}`}>
          <input type="radio" name="method" value={m} checked={props.chosen === m} onChange={() => props.onChoose(m)} className="h-4 w-4 accent-primary" />
          <span className="flex-1 font-medium">{i18n._(PAY_METHOD_LABELS[m])}</span>
        </label>
      ))}
    </fieldset>
  );
}
