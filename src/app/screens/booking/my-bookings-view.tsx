import { msg } from '@lingui/core/macro';
import { useLingui } from '@lingui/react';
import { Trans } from '@lingui/react/macro';
import { Button } from 'konsta/react';
import { useState } from 'react';
import { Link, useLoaderData, useNavigate, type LoaderFunctionArgs } from 'react-router-dom';
import type { MyBooking } from '../../../api/booking';
import type { Paged } from '../../../domain/envelope';
import { apiFrom, browserApiOrThrow } from '../../api-context';
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

/** Later pages, fetched as the member asks for more (kept with the page they belong to). */
function useMore(first: Paged<MyBooking>, scope: string) {
  const [more, setMore] = useState<{ key: string; list: MyBooking[]; next: number; loading: boolean }>({ key: '', list: [], next: 1, loading: false });
  const key = `${scope}:${first.total}:${first.list.map((b) => `${b.bookingId}${b.state}`).join(',')}`;
  const cur = more.key === key ? more : { key, list: [], next: 1, loading: false };
  const list = [...first.list, ...cur.list];
  const load = async () => {
    setMore({ ...cur, loading: true });
    const r = await browserApiOrThrow()
      .booking.mine({ scope: scope as 'upcoming' | 'past', pagenum: cur.next, pagesize: first.pagesize })
      .catch(() => null);
    setMore({ key, list: r?.code === 200 ? [...cur.list, ...r.data.list] : cur.list, next: r?.code === 200 ? cur.next + 1 : cur.next, loading: false });
  };
  return { list, hasMore: list.length < first.total, loading: cur.loading, load };
}

/** My bookings (upcoming and past) with states and cancel actions; `base` is the page's path. */
export function MyBookingsView(props: { base: string; detail: (id: number) => string }) {
  const d = useLoaderData() as MineData;
  const { i18n } = useLingui();
  const navigate = useNavigate();
  const { list, hasMore, loading, load } = useMore(d.page, d.scope);
  const upcoming = d.scope === 'upcoming';
  return (
    <div className="pb-6">
      <div className="flex h-14 items-center gap-3 px-4">
        <nav className="flex flex-1 rounded-lg bg-black/5 p-0.5 text-sm" aria-label={i18n._(msg`预约范围`)}>
          <Link to={props.base} replace aria-current={upcoming ? 'page' : undefined} data-scope="upcoming" className={tab(upcoming)}>
            <Trans>待上课</Trans>
          </Link>
          <Link to={`${props.base}?scope=past`} replace aria-current={!upcoming ? 'page' : undefined} data-scope="past" className={tab(!upcoming)}>
            <Trans>已结束</Trans>
          </Link>
        </nav>
        <Link to="/takecourse" className="shrink-0 text-sm text-primary">
          <Trans>日历</Trans>
        </Link>
      </div>
      {list.length > 0 ? (
        <ul className="space-y-2 px-4" data-my-bookings={d.scope}>
          {list.map((b) => (
            <MyBookingRow key={b.bookingId} b={b} detail={props.detail} upcoming={upcoming} />
          ))}
        </ul>
      ) : (
        <div className="px-8 py-12 text-center text-black/50" data-my-bookings-empty>
          <p>{upcoming ? <Trans>还没有待上的课程</Trans> : <Trans>还没有上过的课程</Trans>}</p>
          <Button large rounded className="mx-auto mt-4 max-w-60" onClick={() => void navigate('/takecourse/bookcourse')}>
            <Trans>去约课</Trans>
          </Button>
        </div>
      )}
      {hasMore && (
        <div className="px-4 pt-3">
          <Button rounded outline disabled={loading} onClick={() => void load()}>
            {loading ? <Trans>加载中</Trans> : <Trans>加载更多</Trans>}
          </Button>
        </div>
      )}
    </div>
  );
}
