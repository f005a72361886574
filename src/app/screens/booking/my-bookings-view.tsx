import { msg } from '@lingui/core/macro';
import { useLingui } from '@lingui/react';
import { Trans } from '@lingui/react/macro';
import { Button } from 'konsta/react';
import { Link, useLoaderData, useNavigate, type LoaderFunctionArgs } from 'react-router-dom';
import type { MyBooking } from '../../../api/booking';
import type { Paged } from '../../../domain/envelope';
import { apiFrom, browserApiOrThrow } from '../../api-context';
import { MoreButton } from '../../ui/paged-list';
import { usePager } from '../../ui/use-pager';
import { MyBookingRow } from './my-booking-row';

const PAGE_SIZE = 10;

const tab = (on: boolean) => `flex-1 rounded-md py-1.5 text-center ${on ? 'bg-white font-semibold shadow-sm' : 'text-black/60'}`;

interface MineData {
  scope: 'upcoming' | 'past';
  page: Paged<MyBooking>;
}

/** My bookings, first page of the scope in `?scope=` (upcoming by default). */
export async function myBookingsLoader({ context, request }: LoaderFunctionArgs): Promise<MineData> {
  const scope = new URL(request.url).searchParams.get('scope') === 'past' ? 'past' : 'upcoming';
  const r = await apiFrom(context).booking.mine({ scope, pagenum: 0, pagesize: PAGE_SIZE });
  if (r.code !== 200) throw new Response(null, { status: r.code === 401 ? 401 : 503 });
  return { scope, page: r.data };
}

/** My bookings (upcoming and past) with states and cancel actions; `base` is the page's path. */
export function MyBookingsView(props: { base: string; detail: (id: number) => string }) {
  const d = useLoaderData() as MineData;
  const { i18n } = useLingui();
  const upcoming = d.scope === 'upcoming';
  return (
    <div className="pb-6">
      <div className="flex h-14 items-center gap-3 px-4">
        <nav className="flex flex-1 rounded-lg bg-black/5 p-0.5 text-sm" aria-label={i18n._(msg`预约范围`)}>
          <Link
            to={`${props.base}?scope=upcoming`}
            replace
            aria-current={upcoming ? 'page' : undefined}
            data-scope="upcoming"
            className={tab(upcoming)}
          >
            <Trans>待上课</Trans>
          </Link>
          <Link
            to={`${props.base}?scope=past`}
            replace
            aria-current={!upcoming ? 'page' : undefined}
            data-scope="past"
            className={tab(!upcoming)}
          >
            <Trans>已结束</Trans>
          </Link>
        </nav>
        <Link
          to="/takecourse/bookcourse"
          className="inline-flex min-h-11 shrink-0 items-center text-sm text-primary"
          data-action="to-schedule"
        >
          <Trans>课程表</Trans>
        </Link>
        <Link to="/takecourse" className="inline-flex min-h-11 shrink-0 items-center text-sm text-primary">
          <Trans>日历</Trans>
        </Link>
      </div>
      <MyBookingsList
        key={`${d.scope}:${d.page.total}:${d.page.list.map((b) => `${b.bookingId}${b.state}`).join(',')}`}
        d={d}
        detail={props.detail}
      />
    </div>
  );
}

/** The scope's bookings, later pages as the member asks (a new first page starts a new list). */
function MyBookingsList(props: { d: MineData; detail: (id: number) => string }) {
  const { d } = props;
  const navigate = useNavigate();
  const upcoming = d.scope === 'upcoming';
  const { list, state, load, retry } = usePager(d.page, (pagenum, pagesize) =>
    browserApiOrThrow().booking.mine({ scope: d.scope, pagenum, pagesize }),
  );
  return (
    <>
      {list.length > 0 ? (
        <ul className="space-y-2 px-4" data-my-bookings={d.scope}>
          {list.map((b) => (
            <MyBookingRow key={b.bookingId} b={b} detail={props.detail} upcoming={upcoming} />
          ))}
        </ul>
      ) : (
        <div className="px-8 py-12 text-center text-black/60" data-my-bookings-empty>
          <p>{upcoming ? <Trans>还没有待上的课程</Trans> : <Trans>还没有上过的课程</Trans>}</p>
          <Button large rounded className="mx-auto mt-4 max-w-60" onClick={() => void navigate('/takecourse/bookcourse')}>
            <Trans>去约课</Trans>
          </Button>
        </div>
      )}
      <MoreButton state={state} onLoad={load} onRetry={retry} />
    </>
  );
}
