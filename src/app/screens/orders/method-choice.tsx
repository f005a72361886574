import { useLingui } from '@lingui/react';
import { Trans } from '@lingui/react/macro';
import type { PayMethodUnavailable } from '../../../api/orders';
import type { PayMethod } from '../../../domain/orders';
import { PAY_METHOD_LABELS } from './checkout-labels';

/**
 * How to pay: the methods the member can use, as radio choices; then those the server offers but not
 * to this member now (WeChat Pay without a bound open id), disabled, each with the server's reason.
 */
export function MethodChoice(props: {
  methods: PayMethod[];
  unavailable?: PayMethodUnavailable[];
  chosen: PayMethod | undefined;
  onChoose(m: PayMethod): void;
}) {
  const { i18n } = useLingui();
  return (
    <fieldset className="mx-4 my-4 space-y-2" data-method-choice>
      <legend className="mb-2 text-sm font-semibold text-black/70">
        <Trans>支付方式</Trans>
      </legend>
      {props.methods.map((m) => (
        <label
          key={m}
          data-method={m}
          className={`flex cursor-pointer items-center gap-3 rounded-xl bg-white p-3 ${props.chosen === m ? 'ring-2 ring-primary' : ''}`}
        >
          <input
            type="radio"
            name="method"
            value={m}
            checked={props.chosen === m}
            onChange={() => props.onChoose(m)}
            className="h-4 w-4 accent-primary"
          />
          <span className="flex-1 font-medium">{i18n._(PAY_METHOD_LABELS[m])}</span>
        </label>
      ))}
      {(props.unavailable ?? []).map((u) => (
        <label
          key={u.method}
          data-method={u.method}
          data-method-unavailable={u.code}
          aria-disabled="true"
          className="flex cursor-not-allowed items-center gap-3 rounded-xl bg-white p-3 opacity-60"
        >
          <input
            type="radio"
            name="method"
            value={u.method}
            disabled
            className="h-4 w-4"
            aria-describedby={`method-unavailable-${u.method}`}
          />
          <span className="flex-1">
            <span className="block font-medium">{i18n._(PAY_METHOD_LABELS[u.method])}</span>
            <span id={`method-unavailable-${u.method}`} data-method-unavailable-reason className="block text-xs text-black/60">
              {u.message}
            </span>
          </span>
        </label>
      ))}
    </fieldset>
  );
}
