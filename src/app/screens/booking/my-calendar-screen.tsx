import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { useLingui } from '@lingui/react';
import { Trans } from '@lingui/react/macro';
import { Button } from 'konsta/react';
import { Link, useLoaderData, type LoaderFunctionArgs } from 'react-router-dom';
import type { MyBooking } from '../../../api/booking';
import type { Paged } from '../../../domain/envelope';
import { addMonths, shanghaiDate } from '../../../domain/time';
import { apiFrom } from '../../api-context';
import { clockFrom } from '../../app-clock';
import { dataOr } from '../../ui/data-or';
import { bookedDays, monthGrid, monthOf, parseMonth } from './calendar-grid';
import { MyBookingRow } from './my-booking-row';

/** The calendar reads its month page by page (the server's largest page), at most a few pages. */
const CALENDAR_PAGE = 50;
const CALENDAR_MAX_PAGES = 4;

export async function loader({ context, request }: LoaderFunctionArgs) {
  const api = apiFrom(context);
  const url = new URL(request.url);
  const now = clockFrom(context).now();
  const today = shanghaiDate(now);
  const month = parseMonth(url.searchParams.get('month')) ?? monthOf(today);
  const dayParam = url.searchParams.get('day');
  const day =
    dayParam && /^\d{4}-\d{2}-\d{2}$/.test(dayParam) && monthOf(dayParam) === month ? dayParam : monthOf(today) === month ? today : null;
  const empty: Paged<MyBooking> = { list: [], total: 0, pagenum: 0, pagesize: CALENDAR_PAGE };
  // one month's bookings of a scope, every page of it
  const ofMonth = async (scope: 'upcoming' | 'past') => {
    const list: MyBooking[] = [];
    for (let pagenum = 0; pagenum < CALENDAR_MAX_PAGES; pagenum++) {
      const page = await dataOr(api.booking.mine({ scope, month, pagenum, pagesize: CALENDAR_PAGE }), empty);
      list.push(...page.list);
      if (page.list.length === 0 || list.length >= page.total) break;
    }
    return list;
  };
  const [upcoming, past] = await Promise.all([ofMonth('upcoming'), ofMonth('past')]);
  return { now: now.toISOString(), today, month, day, bookings: [...past.reverse(), ...upcoming] };
}

const WEEK_HEAD: MessageDescriptor[] = [msg`一`, msg`二`, msg`三`, msg`四`, msg`五`, msg`六`, msg`日`];

/** /takecourse: a month calendar of my bookings, dots on booked days; a day's bookings below. */
export default function MyCalendarScreen() {
  const d = useLoaderData<typeof loader>();
  const { i18n } = useLingui();
  const marks = bookedDays(d.bookings);
  const ofDay = d.day ? d.bookings.filter((b) => shanghaiDate(new Date(b.class.startsAt)) === d.day) : [];
  const [y, m] = d.month.split('-');
  return (
    <div className="pb-6">
      <div className="mx-4 mt-3 rounded-xl bg-white p-3">
        <div className="flex items-center justify-between">
          <Link
            to={`/takecourse?month=${addMonths(d.month, -1)}`}
            replace
            className="px-3 py-1 text-primary"
            aria-label={i18n._(msg`上个月`)}
          >
            ‹
          </Link>
          <h1 className="font-semibold tabular-nums">
            <Trans>
              {y}年{Number(m)}月
            </Trans>
          </h1>
          <Link
            to={`/takecourse?month=${addMonths(d.month, 1)}`}
            replace
            className="px-3 py-1 text-primary"
            aria-label={i18n._(msg`下个月`)}
          >
            ›
          </Link>
        </div>
        <table className="mt-2 w-full table-fixed text-center text-sm" data-calendar={d.month}>
          <thead>
            <tr className="text-xs text-black/60">
              {WEEK_HEAD.map((w, i) => (
                <th key={i} className="py-1 font-normal">
                  {i18n._(w)}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {monthGrid(d.month).map((week, i) => (
              <tr key={i}>
                {week.map((date, j) => (
                  <td key={j} className="h-11 p-0.5">
                    {date && (
                      <Link
                        to={`/takecourse?month=${d.month}&day=${date}`}
                        replace
                        preventScrollReset
                        data-date={date}
                        data-mark={marks.get(date)}
                        aria-current={date === d.day ? 'date' : undefined}
                        className={`flex h-10 flex-col items-center justify-center rounded-lg tabular-nums ${date === d.day ? 'bg-primary text-white' : date === d.today ? 'text-primary' : ''}`}
                      >
                        {Number(date.slice(8))}
                        <span
                          aria-hidden
                          className={`mt-0.5 h-1.5 w-1.5 rounded-full ${marks.get(date) === 'booked' ? (date === d.day ? 'bg-white' : 'bg-primary') : marks.get(date) === 'queued' ? 'border border-current' : ''}`}
                        />
                      </Link>
                    )}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {d.day && (
        <section className="mt-3 px-4">
          <h2 className="mb-2 text-sm font-semibold text-black/60 tabular-nums">{d.day}</h2>
          {ofDay.length > 0 ? (
            <ul className="space-y-2">
              {ofDay.map((b) => (
                <MyBookingRow
                  key={b.bookingId}
                  b={b}
                  detail={(id) => `/takecourse/bookcourse/bookcoursedetail?id=${id}`}
                  upcoming={Date.parse(b.class.endsAt) > Date.parse(d.now)}
                />
              ))}
            </ul>
          ) : (
            <p className="py-6 text-center text-sm text-black/60">
              <Trans>这一天没有预约</Trans>
            </p>
          )}
        </section>
      )}
      <div className="mt-4 flex gap-3 px-4">
        <Button rounded outline component={Link} {...{ to: '/takecourse/takelistm' }} className="flex-1">
          <Trans>预约列表</Trans>
        </Button>
        <Button rounded component={Link} {...{ to: '/takecourse/bookcourse' }} className="flex-1">
          <Trans>去约课</Trans>
        </Button>
      </div>
    </div>
  );
}
