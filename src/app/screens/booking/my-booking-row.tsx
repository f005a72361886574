import { msg } from '@lingui/core/macro';
import { useLingui } from '@lingui/react';
import { Trans } from '@lingui/react/macro';
import { Link } from 'react-router-dom';
import type { MyBooking } from '../../../api/booking';
import { shanghaiClock, shanghaiDate } from '../../../domain/time';
import { AddToCalendar } from './add-to-calendar';
import { BookingActions } from './booking-actions';
import { CANCEL_REASON_LABELS, ROW_STATE_LABELS, ROW_STATE_TINT_KEY } from './booking-labels';
import { StateBadge } from './class-row';

const msgPromoted = msg`排队转正`;

/** One of my bookings: class, when, where, state (promoted, queue position), and its actions. */
export function MyBookingRow(props: { b: MyBooking; detail: (id: number) => string; upcoming: boolean }) {
  const { i18n } = useLingui();
  const { b } = props;
  const start = new Date(b.class.startsAt);
  const reason = b.cancelReason ? CANCEL_REASON_LABELS[b.cancelReason] : undefined;
  const label = b.state === 'booked' && b.promoted ? i18n._(ROW_STATE_LABELS.booked) + ' · ' + i18n._(msgPromoted) : undefined;
  return (
    <li className="rounded-xl bg-white p-3" data-booking={b.bookingId} data-booking-state={b.state}>
      <Link to={props.detail(b.class.id)} className="block">
        <span className="flex items-start justify-between gap-2">
          <span className="truncate font-semibold">{b.class.title}</span>
          <StateBadge state={ROW_STATE_TINT_KEY[b.state]} label={label ?? i18n._(ROW_STATE_LABELS[b.state])} />
        </span>
        <span className="mt-0.5 block text-sm text-black/60 tabular-nums">
          {shanghaiDate(start)} {shanghaiClock(start)}–{shanghaiClock(new Date(b.class.endsAt))}
        </span>
        <span className="mt-0.5 block truncate text-xs text-black/60">
          {b.class.clubName} · {b.class.room}
          {b.class.teacherName ? ` · ${b.class.teacherName}` : ''}
        </span>
      </Link>
      {b.state === 'queued' && b.queuePosition !== null && (
        <p className="mt-1 text-xs text-violet-700" data-queue-position={b.queuePosition}>
          <Trans>排队第{b.queuePosition}位</Trans>
        </p>
      )}
      {reason && (
        <p className="mt-1 text-xs text-black/60" data-cancel-reason={b.cancelReason}>
          {i18n._(reason)}
        </p>
      )}
      {props.upcoming && (b.canCancel || b.canCancelQueue || b.state === 'booked') && (
        <div className="mt-2 flex min-h-8 items-center justify-end gap-4">
          {b.state === 'booked' && <AddToCalendar bookingId={b.bookingId} />}
          <BookingActions
            key={`${b.bookingId}-${b.state}`}
            bookingId={b.bookingId}
            state={b.state}
            canCancel={b.canCancel}
            canCancelQueue={b.canCancelQueue}
            gives={b.cancelGives}
          />
        </div>
      )}
    </li>
  );
}
