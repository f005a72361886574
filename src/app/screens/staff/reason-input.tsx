import { useLingui } from '@lingui/react/macro';

/**
 * The reason a queue's refusal gives the member, typed beside its row's decision buttons. Named for
 * a screen reader by what it asks, since the row has no label of its own.
 */
export function ReasonInput(props: { value: string; onChange(value: string): void; className?: string }) {
  const { t } = useLingui();
  const asked = t`不通过的原因（会员可见）`;
  return (
    <input
      className={`block min-h-11 w-full rounded-lg border border-black/15 px-3 ${props.className ?? ''}`}
      name="reason"
      aria-label={asked}
      placeholder={asked}
      value={props.value}
      onChange={(e) => props.onChange(e.target.value)}
    />
  );
}
