import { Trans } from '@lingui/react/macro';
import { icsPath } from '../../../api/booking';

/**
 * "Add to calendar": the booking's .ics file (title, club address, start, end, Asia/Shanghai), as a
 * plain link: the server also reads the token cookie for this file, so the phone's browser (or the
 * messaging app's) downloads or opens it itself, with or without JavaScript.
 */
export function AddToCalendar(props: { bookingId: number }) {
  return (
    <a
      href={icsPath(props.bookingId)}
      download={`booking-${props.bookingId}.ics`}
      data-ics={props.bookingId}
      className="inline-flex items-center gap-1 text-sm text-primary"
    >
      <svg aria-hidden width="16" height="16" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round">
        <rect x="4" y="5.5" width="16" height="15" rx="2" />
        <path d="M8 3.5v4M16 3.5v4M4 10h16M12 13v5M9.5 15.5h5" />
      </svg>
      <Trans>添加到日历</Trans>
    </a>
  );
}
