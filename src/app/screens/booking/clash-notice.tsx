import { Trans } from '@lingui/react/macro';
import { Link } from 'react-router-dom';
import type { ScheduleItem } from '../../../api/booking';
import { shanghaiClock, shanghaiMonthDay } from '../../../domain/time';

/**
 * A class that shares time with one the member booked: which booking, when, and a way to
 * it, said before any tap (the server refuses the booking with 20030 and names the same one).
 */
export function ClashNotice(props: { clash: NonNullable<ScheduleItem['clashesWith']>; compact?: boolean }) {
  const { clash } = props;
  const title = clash.title;
  const time = `${shanghaiMonthDay(clash.startsAt)} ${shanghaiClock(new Date(clash.startsAt))}–${shanghaiClock(new Date(clash.endsAt))}`;
  if (props.compact) {
    return (
      <span className="mt-0.5 block truncate text-xs text-amber-700" data-clash={clash.bookingId}>
        <Trans>与已约的「{title}」时间冲突</Trans>
      </span>
    );
  }
  return (
    <p className="rounded-lg bg-amber-50 px-3 py-2 text-sm text-amber-800" role="note" data-clash={clash.bookingId}>
      <Trans>
        与您已预约的「{title}」（{time}）时间冲突。
      </Trans>{' '}
      <Link
        to={`/takecourse/bookcourse/bookcoursedetail?id=${clash.classId}`}
        className="inline-flex min-h-11 items-center text-primary underline"
      >
        <Trans>查看该预约</Trans>
      </Link>
    </p>
  );
}
