import { useLingui } from '@lingui/react';
import { Trans } from '@lingui/react/macro';
import { Button } from 'konsta/react';
import type { ReactNode } from 'react';
import { refusalMessage } from '../../ui/refusal-message';

/**
 * The end of a card operation's form (freeze, extend, change adviser): the server's refusal if it
 * gave one, then cancel and confirm. `name` makes the test hooks: data-{name}-refused,
 * data-action="{name}-cancel" and "{name}-submit".
 */
export function CardFormFooter(props: {
  name: string;
  errorCode: number | undefined;
  /** the operation was sent and is not answered yet: cancel waits, confirm says so */
  working: boolean;
  /** confirm cannot be tapped (the form is not complete, or something else runs) */
  submitDisabled: boolean;
  workingLabel: ReactNode;
  submitLabel: ReactNode;
  onCancel(): void;
  onSubmit(): void;
}) {
  const { i18n } = useLingui();
  return (
    <>
      {props.errorCode !== undefined && (
        <p role="alert" className="text-rose-600" {...{ [`data-${props.name}-refused`]: props.errorCode }}>
          {i18n._(refusalMessage(props.errorCode))}
        </p>
      )}
      <div className="flex gap-3">
        <Button rounded outline disabled={props.working} onClick={props.onCancel} data-action={`${props.name}-cancel`}>
          <Trans>取消</Trans>
        </Button>
        <Button rounded disabled={props.submitDisabled} onClick={props.onSubmit} data-action={`${props.name}-submit`}>
          {props.working ? props.workingLabel : props.submitLabel}
        </Button>
      </div>
    </>
  );
}
