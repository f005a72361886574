import { Trans } from '@lingui/react/macro';
import type { ReactNode } from 'react';
import { useConfirmWhile } from '../../ui/confirm';
import type { StaffDecisions } from './use-staff-decisions';

/**
 * The one question before a queue's decision that cannot be undone (decision 102): while the chart
 * asks about a row, the dialog says what the decision will do (`what`, from that row: the amounts
 * and the names); confirm sends it, not now returns to the queue with nothing sent.
 */
export function DecisionConfirm(props: {
  decisions: StaffDecisions;
  title: ReactNode;
  what: (id: number) => ReactNode;
  confirmText: ReactNode;
}) {
  const { confirming, accept, dismiss } = props.decisions;
  useConfirmWhile(
    confirming !== null,
    {
      title: props.title,
      message: confirming === null ? null : <div data-decision-confirm={confirming}>{props.what(confirming)}</div>,
      confirmText: props.confirmText,
      cancelText: <Trans>再想想</Trans>,
    },
    (confirmed) => (confirmed ? accept() : dismiss()),
  );
  return null;
}
