import { useLingui } from '@lingui/react';
import { refusalMessage } from '../../ui/refusal-message';
import { UnreachableRetry } from '../../ui/unreachable-retry';
import type { StaffDecisions } from './use-staff-decisions';

/** What a queue's row says about its last decision: the server's refusal, or retry and close when it did not reach the server. */
export function DecisionNotice(props: { decisions: StaffDecisions; id: number; className?: string }) {
  const { i18n } = useLingui();
  const { error, unreachable, retry, dismiss } = props.decisions;
  if (unreachable === props.id) return <UnreachableRetry className={props.className} onRetry={retry} onClose={dismiss} />;
  if (error?.id !== props.id) return null;
  return (
    <p role="alert" className={`text-rose-600 ${props.className ?? ''}`}>
      {i18n._(refusalMessage(error.code))}
    </p>
  );
}
