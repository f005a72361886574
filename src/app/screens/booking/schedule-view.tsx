import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { useLingui } from '@lingui/react';
import { Trans } from '@lingui/react/macro';
import { memo, useEffect, useState } from 'react';
import { Link, useLoaderData, useNavigation, type LoaderFunctionArgs } from 'react-router-dom';
import type { BookingWindow, ScheduleItem, ScheduleQuery } from '../../../api/booking';
import type { Club, DictItem } from '../../../api/catalog';
import type { ClassTypeKey } from '../../../domain/catalog';
import { apiFrom, keptInBrowser } from '../../api-context';
import { clockFrom } from '../../app-clock';
import { dataOr } from '../../ui/data-or';
import { PaintFirstLink } from '../../ui/paint-first-link';
import { styleLabels } from '../catalog/tutor/style-labels';
import { ClassRow } from './class-row';
import { activeFilterCount, bookableDays, readScheduleQuery, scheduleSearch, shanghaiToday, stripDays, weekdayOf } from './schedule-filter';

export interface ScheduleData {
  q: ScheduleQuery & { date: string };
  today: string;
  classes: ScheduleItem[];
  clubs: Club[];
  styles: DictItem[];
  /** the member's booking window from the server (level and cards); null for a visitor */
  window: BookingWindow | null;
  /** when the page was loaded (ISO), so the server and the hydrated page agree on which classes are over */
  now: string;
}

/** How long a day or studio switch reuses the clubs and style names it already has. */
const CATALOG_KEPT_MS = 60_000;

/** The schedule loader of a page: the filter from the URL (so the server renders the filtered list), one day's classes, clubs, style names. */
export function scheduleLoader(type?: ClassTypeKey) {
  return async ({ context, request }: LoaderFunctionArgs): Promise<ScheduleData> => {
    const api = apiFrom(context);
    const clock = clockFrom(context);
    const today = shanghaiToday(clock);
    const q = readScheduleQuery(new URL(request.url).searchParams, today, type);
    const [r, clubs, styles, window] = await Promise.all([
      api.booking.schedule(q),
      dataOr(
        keptInBrowser(context, 'clubs', CATALOG_KEPT_MS, () => api.catalog.clubs()),
        [],
      ),
      dataOr(
        keptInBrowser(context, 'dict:style', CATALOG_KEPT_MS, () => api.catalog.dict('style')),
        [],
      ),
      dataOr(api.booking.window(), null),
    ]);
    if (r.code !== 200) throw new Response(null, { status: 503 });
    return { q, today, classes: r.data, clubs, styles, window, now: clock.now().toISOString() };
  };
}

const WEEKDAYS: MessageDescriptor[] = [msg`周日`, msg`周一`, msg`周二`, msg`周三`, msg`周四`, msg`周五`, msg`周六`];

/** The week strip: eight days from today; the chosen one highlighted; days beyond the member's booking window marked. */
function WeekStrip(props: {
  base: string;
  q: ScheduleQuery & { date: string };
  today: string;
  open: string[] | undefined;
  chosen: string;
  onTap: (day: string) => void;
}) {
  const { i18n } = useLingui();
  return (
    <nav
      aria-label={i18n._(msg`日期`)}
      className="grid h-16 grid-cols-8 gap-0.5 bg-white px-1.5 py-2"
      data-grid-exempt="a strip of seven days and the calendar: eight equal cells, not a layout"
    >
      {stripDays(props.today).map((day) => {
        const on = day === props.chosen;
        const closed = props.open !== undefined && !props.open.includes(day);
        return (
          <PaintFirstLink
            key={day}
            onTap={() => props.onTap(day)}
            to={props.base + scheduleSearch(props.q, { date: day })}
            replace
            preventScrollReset
            aria-current={on ? 'date' : undefined}
            data-day={day}
            data-bookable={props.open === undefined ? undefined : !closed}
            className={`flex flex-col items-center justify-center rounded-lg text-xs leading-tight ${on ? 'bg-primary text-white' : closed ? 'text-black/60 active:bg-black/5' : 'text-black/70 active:bg-black/5'}`}
          >
            <span>{day === props.today ? i18n._(msg`今天`) : i18n._(WEEKDAYS[weekdayOf(day)]!)}</span>
            <span className="mt-0.5 text-base font-semibold tabular-nums">{Number(day.slice(8))}</span>
            {closed && <span className="sr-only">{i18n._(msg`未开放预约`)}</span>}
          </PaintFirstLink>
        );
      })}
    </nav>
  );
}

/** The studio switch: all studios, or one; scrolls sideways on a narrow phone. */
const StudioSwitch = memo(function StudioSwitch(props: { base: string; q: ScheduleQuery & { date: string }; clubs: Club[] }) {
  const { i18n } = useLingui();
  const chip = (on: boolean) =>
    `shrink-0 rounded-full px-3 py-1 text-sm whitespace-nowrap ${on ? 'bg-primary text-white' : 'bg-white text-black/70'}`;
  return (
    <nav aria-label={i18n._(msg`门店`)} className="flex h-12 items-center gap-2 overflow-x-auto px-4 [scrollbar-width:none]">
      <Link
        to={props.base + scheduleSearch(props.q, { clubId: undefined })}
        replace
        preventScrollReset
        className={chip(props.q.clubId === undefined)}
        data-club="all"
      >
        <Trans>全部门店</Trans>
      </Link>
      {props.clubs.map((c) => (
        <Link
          key={c.id}
          to={props.base + scheduleSearch(props.q, { clubId: c.id })}
          replace
          preventScrollReset
          className={chip(props.q.clubId === c.id)}
          data-club={c.id}
        >
          {c.name}
        </Link>
      ))}
    </nav>
  );
});

/** Which days this member may book (spec §5), and why the chosen day cannot be booked yet. */
function BookingWindowNote(props: { open: string[]; chosen: string }) {
  const first = props.open[0]!.slice(5);
  const last = props.open[props.open.length - 1]!.slice(5);
  const closed = !props.open.includes(props.chosen);
  return (
    <p className={`px-4 pt-2 text-xs ${closed ? 'text-amber-700' : 'text-black/60'}`} data-booking-window={props.open.join(',')}>
      {closed ? (
        <Trans>
          这一天还未开放预约：您可预约 {first} 至 {last} 的课程
        </Trans>
      ) : (
        <Trans>
          您可预约 {first} 至 {last} 的课程
        </Trans>
      )}
    </p>
  );
}

/**
 * A schedule page: week strip, studio switch, filter entry, one day's classes with their state.
 * `base` is the page's own path; `detail` opens a class; `filter` is the filter page.
 */
export function ScheduleView(props: { base: string; detail: (id: number) => string; filter: string }) {
  const d = useLoaderData() as ScheduleData;
  // another day, studio or filter of this page is loading: the list on screen is the old one, so it
  // is dimmed and cannot be tapped (the root layout's skeleton covers moves to other pages)
  const navigation = useNavigation();
  const pending = navigation.state === 'loading' && navigation.location.pathname === props.base;
  // a day tapped shows as chosen at once, its list a skeleton until it arrives
  // (a tapped day shows before its navigation starts: the strip's links paint first)
  const [tapped, setTapped] = useState<{ day: string; from: string }>();
  useEffect(() => {
    if (pending) setTapped(undefined);
  }, [pending]);
  const pendingDay = pending
    ? (new URLSearchParams(navigation.location.search).get('date') ?? d.today)
    : tapped?.from === d.q.date
      ? tapped.day
      : d.q.date;
  const switchingDay = pendingDay !== d.q.date;
  const open = d.window ? bookableDays(d.today, d.window.days) : undefined;
  const filters = activeFilterCount(d.q);
  const filterTo = `${props.filter}${scheduleSearch(d.q) || '?'}${scheduleSearch(d.q) ? '&' : ''}back=${encodeURIComponent(props.base)}`;
  return (
    <div className="pb-6">
      <WeekStrip
        base={props.base}
        q={d.q}
        today={d.today}
        open={open}
        chosen={pendingDay}
        onTap={(day) => setTapped({ day, from: d.q.date })}
      />
      {open && <BookingWindowNote open={open} chosen={d.q.date} />}
      <div className="flex items-center">
        <div className="min-w-0 flex-1">
          <StudioSwitch base={props.base} q={d.q} clubs={d.clubs} />
        </div>
        <Link to={filterTo} className="mr-3 shrink-0 rounded-full bg-white px-3 py-1 text-sm text-primary" data-filter-link>
          <Trans>筛选</Trans>
          {filters > 0 && <span className="ml-1 tabular-nums">({filters})</span>}
        </Link>
      </div>
      {switchingDay && <DaySkeleton day={pendingDay} />}
      {/* the day left is hidden, not taken down, while the next one loads: the tap stays cheap */}
      <div hidden={switchingDay}>
        {d.classes.length > 0 ? (
          <DayClasses d={d} pending={pending} detail={props.detail} />
        ) : (
          <div
            className={`px-8 py-12 text-center text-black/60 ${pending ? 'opacity-50' : ''}`}
            data-schedule-empty
            aria-busy={pending || undefined}
          >
            <p>
              <Trans>当天没有符合条件的课程</Trans>
            </p>
            {filters > 0 && (
              <Link to={props.base + `?date=${d.q.date}`} replace className="mt-3 inline-block text-primary">
                <Trans>清除筛选条件</Trans>
              </Link>
            )}
          </div>
        )}
      </div>
      {d.window && <MyBookingsLinks />}
    </div>
  );
}

/** A member's way from the schedule to what they booked: upcoming, finished, the calendar. */
function MyBookingsLinks() {
  const { i18n } = useLingui();
  return (
    <nav
      aria-label={i18n._(msg`我的预约`)}
      className="mx-4 mt-6 flex justify-around rounded-xl bg-white py-1 text-sm"
      data-my-bookings-links
    >
      <Link to="/takecourse/takelistm?scope=upcoming" className="inline-flex min-h-11 items-center px-2 text-primary">
        <Trans>我的预约</Trans>
      </Link>
      <Link to="/takecourse/takelistm?scope=past" className="inline-flex min-h-11 items-center px-2 text-primary">
        <Trans>已上课程</Trans>
      </Link>
      <Link to="/takecourse" className="inline-flex min-h-11 items-center px-2 text-primary">
        <Trans>预约日历</Trans>
      </Link>
    </nav>
  );
}

/**
 * One day's classes. Today opens at the next class: the classes already over are folded
 * above it, one tap to see them; other days list every class.
 */
const DayClasses = memo(function DayClasses(props: { d: ScheduleData; pending: boolean; detail: (id: number) => string }) {
  const { d, pending } = props;
  const [showOver, setShowOver] = useState(false);
  const { over, ahead } = d.q.date === d.today ? splitOver(d.classes, new Date(d.now)) : { over: [], ahead: d.classes };
  const row = (c: ScheduleItem) => (
    <ClassRow key={c.id} item={c} to={props.detail(c.id)} styleLabel={styleLabels([c.style], d.styles)[0]!} />
  );
  const count = over.length;
  return (
    <div
      className={`space-y-2 px-4 transition-opacity ${pending ? 'pointer-events-none opacity-50' : ''}`}
      data-schedule={d.q.date}
      aria-busy={pending || undefined}
      data-pending={pending || undefined}
    >
      {count > 0 && (
        <button
          type="button"
          className="min-h-11 w-full rounded-xl bg-white/60 text-sm text-black/60"
          aria-expanded={showOver}
          onClick={() => setShowOver(!showOver)}
          data-action="show-over"
        >
          {showOver ? <Trans>收起已结束的课程</Trans> : <Trans>今天已结束 {count} 节课，点此查看</Trans>}
        </button>
      )}
      {showOver && count > 0 && (
        <ul className="space-y-2" data-over-classes>
          {over.map(row)}
        </ul>
      )}
      {ahead.length > 0 ? (
        <ul className="space-y-2" data-ahead-classes>
          {ahead.map(row)}
        </ul>
      ) : (
        <p className="py-8 text-center text-black/60" data-day-over>
          <Trans>今天的课程都已结束，看看明天的吧</Trans>
        </p>
      )}
    </div>
  );
});

/** A day's classes split at `now`: those already over (ended), and those still to come or under way. */
export function splitOver(classes: readonly ScheduleItem[], now: Date): { over: ScheduleItem[]; ahead: ScheduleItem[] } {
  const ended = (c: ScheduleItem) => new Date(c.endsAt).getTime() <= now.getTime();
  return { over: classes.filter(ended), ahead: classes.filter((c) => !ended(c)) };
}

/** The list of a day being loaded: rows in the shape of class rows, marked busy. */
function DaySkeleton(props: { day: string }) {
  return (
    <div className="space-y-2 px-4" aria-busy="true" data-schedule-skeleton={props.day}>
      {[0, 1, 2].map((i) => (
        <div key={i} className="h-[88px] animate-pulse rounded-xl bg-black/[.07]" />
      ))}
    </div>
  );
}
