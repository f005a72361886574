import { Trans } from '@lingui/react/macro';
import type { MyComplaint } from '../../../api/complaints';

/** Spec §3 complaint: replied or not, satisfied or not. */
export function ComplaintBadges({ complaint }: { complaint: Pick<MyComplaint, 'replied' | 'satisfied'> }) {
  return (
    <p className="flex gap-2 text-xs" data-complaint-badges>
      <span data-replied={complaint.replied} className={complaint.replied ? 'text-emerald-700' : 'text-amber-700'}>
        {complaint.replied ? <Trans>已回复</Trans> : <Trans>未回复</Trans>}
      </span>
      {complaint.satisfied === null ? null : (
        <span data-satisfied={complaint.satisfied} className={complaint.satisfied ? 'text-emerald-700' : 'text-rose-700'}>
          {complaint.satisfied ? <Trans>满意</Trans> : <Trans>不满意</Trans>}
        </span>
      )}
    </p>
  );
}
