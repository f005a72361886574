import { useLingui } from '@lingui/react';
import { Trans } from '@lingui/react/macro';
import { Button } from 'konsta/react';
import { Errors } from '../../domain/errors';

/** What an action says when the server could not be reached: the network message, retry and close. */
export function UnreachableRetry(props: { onRetry(): void; onClose(): void; className?: string }) {
  const { i18n } = useLingui();
  return (
    <span className={`inline-flex items-center gap-2 text-sm text-rose-600 ${props.className ?? ''}`} role="alert">
      {i18n._(Errors.network.message)}
      <Button small rounded inline onClick={props.onRetry}>
        <Trans>重试</Trans>
      </Button>
      <Button small rounded inline clear onClick={props.onClose}>
        <Trans>关闭</Trans>
      </Button>
    </span>
  );
}
