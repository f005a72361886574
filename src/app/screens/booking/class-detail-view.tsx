import { useLingui } from '@lingui/react';
import { Trans } from '@lingui/react/macro';
import { Block, Button, List, ListItem } from 'konsta/react';
import { ClashNotice } from './clash-notice';
import type { ReactNode } from 'react';
import { data, Link, useLoaderData, type LoaderFunctionArgs } from 'react-router-dom';
import type { ClassDetail } from '../../../api/booking';
import type { DictItem } from '../../../api/catalog';
import { shanghaiClock, shanghaiDate } from '../../../domain/time';
import { CLASS_TYPES, DIFFICULTIES, dictLabel, EFFECTS } from '../../../domain/catalog';
import { apiFrom } from '../../api-context';
import { dataOr, parseId } from '../../ui/data-or';
import { NotFoundState } from '../../ui/not-found-state';
import { styleLabels } from '../catalog/tutor/style-labels';
import { AddToCalendar } from './add-to-calendar';
import { BookingActions } from './booking-actions';
import { StateBadge } from './class-row';

interface DetailData {
  cls: ClassDetail | null;
  styles: DictItem[];
}

/** A class detail loader: the id from `?id=` or a path parameter; missing, malformed or unknown ids are a 404 state. */
export async function classDetailLoader({ context, request, params }: LoaderFunctionArgs) {
  const id = parseId(params.id ?? new URL(request.url).searchParams.get('id'));
  if (id === null) return data<DetailData>({ cls: null, styles: [] }, { status: 404 });
  const api = apiFrom(context);
  const [r, styles] = await Promise.all([api.booking.detail(id), dataOr(api.catalog.dict('style'), [])]);
  if (r.code === 404 || r.code === 400 || r.code === 70004) return data<DetailData>({ cls: null, styles: [] }, { status: 404 });
  if (r.code !== 200) throw new Response(null, { status: 503 });
  return data<DetailData>({ cls: r.data, styles });
}

/** The class on one day at one time: "11-24 周二 18:30–19:30" style line. */
function when(c: ClassDetail): string {
  const start = new Date(c.startsAt);
  return `${shanghaiDate(start).slice(5)} ${shanghaiClock(start)}–${shanghaiClock(new Date(c.endsAt))}`;
}

/**
 * A class (reservation details): when, where, teacher, style, effect, difficulty, seats; its state
 * for this member and the matching action: book, join the queue, cancel booking, cancel queue.
 * `back` is the list to return to; `confirm` is the booking page.
 */
export function ClassDetailView(props: { back: string; backLabel: ReactNode; yoga?: boolean }) {
  const { cls: c, styles } = useLoaderData() as DetailData;
  const { i18n } = useLingui();
  if (!c) return <NotFoundState message={<Trans>没有找到这节课</Trans>} backTo={props.back} backLabel={props.backLabel} />;
  const locale = i18n.locale === 'en' ? 'en' : 'zh';
  const label = <T extends string>(list: readonly { value: T; zh: string; en: string }[], v: string) => {
    const e = list.find((x) => x.value === v);
    return e ? dictLabel(e, locale) : v;
  };
  const left = Math.max(0, c.capacity - c.bookedCount);
  const confirmTo = `/takecourse/bookcourse/bookcourseconfirm?id=${c.id}`;

  return (
    <article className="pb-6" data-class-detail={c.id}>
      {props.yoga && c.teacherPhoto && (
        <img
          src={c.teacherPhoto}
          alt=""
          width={240}
          height={240}
          decoding="async"
          className="mx-auto mt-4 block h-24 w-24 rounded-full bg-black/5 object-cover"
        />
      )}
      <Block className="!my-4">
        <div className="flex items-start justify-between gap-3">
          <h1 className="text-xl font-semibold">{c.title}</h1>
          <StateBadge state={c.state} />
        </div>
        <p className="mt-1 text-sm text-black/60 tabular-nums">{when(c)}</p>
        {c.promoted && c.state === 'booked' && (
          <p className="mt-2 rounded-lg bg-emerald-50 px-3 py-2 text-sm text-emerald-700">
            <Trans>排队成功：有会员取消后，您已自动预约这节课</Trans>
          </p>
        )}
      </Block>
      <List strong inset className="!my-4">
        <ListItem title={<Trans>门店</Trans>} after={<span className="max-w-[60vw] text-right text-sm">{c.clubName}</span>} />
        <ListItem title={<Trans>地址</Trans>} after={<span className="max-w-[60vw] text-right text-sm">{c.clubAddress}</span>} />
        <ListItem title={<Trans>教室</Trans>} after={c.room} />
        {c.teacherName && (
          <ListItem
            title={<Trans>导师</Trans>}
            after={
              c.teacherId ? (
                <Link to={`/tutor/tutorDetail/${c.teacherId}`} className="text-primary">
                  {c.teacherName}
                </Link>
              ) : (
                c.teacherName
              )
            }
          />
        )}
        <ListItem title={<Trans>类型</Trans>} after={label(CLASS_TYPES, c.classType)} />
        <ListItem title={<Trans>风格</Trans>} after={styleLabels([c.style], styles)[0]} />
        <ListItem title={<Trans>功效</Trans>} after={label(EFFECTS, c.effect)} />
        <ListItem title={<Trans>难度</Trans>} after={label(DIFFICULTIES, c.difficulty)} />
        <ListItem
          title={<Trans>名额</Trans>}
          after={
            <span className="tabular-nums">
              <Trans>
                已约{c.bookedCount}/{c.capacity}，排队{c.queueCount}人
              </Trans>
            </span>
          }
        />
      </List>
      <Block className="space-y-3">
        {c.clashesWith && <ClashNotice clash={c.clashesWith} />}
        {c.clashesWith && (c.state === 'bookable' || c.state === 'queueable') && (
          <Button large rounded disabled data-action="clash">
            <Trans>时间冲突，不能预约</Trans>
          </Button>
        )}
        {!c.clashesWith && c.state === 'bookable' && (
          <Button large rounded component={Link} {...{ to: confirmTo }} data-action="book">
            <Trans>立即预约（剩余{left}位）</Trans>
          </Button>
        )}
        {!c.clashesWith && c.state === 'queueable' && (
          <Button large rounded component={Link} {...{ to: confirmTo }} data-action="queue">
            <Trans>课程已满，加入排队</Trans>
          </Button>
        )}
        {c.state === 'queued' && c.queuePosition !== null && (
          <p className="text-center text-sm text-violet-700" data-queue-position={c.queuePosition}>
            <Trans>您在排队第{c.queuePosition}位，有人取消后将按顺序自动预约</Trans>
          </p>
        )}
        {c.bookingId !== null && (c.state === 'booked' || c.state === 'queued') && (
          <BookingActions
            key={`${c.bookingId}-${c.state}`}
            bookingId={c.bookingId}
            state={c.state === 'booked' ? 'booked' : 'queued'}
            canCancel={c.canCancel}
            canCancelQueue={c.canCancelQueue}
            gives={c.cancelGives}
            block
          />
        )}
        {c.bookingId !== null && c.state === 'booked' && (
          <p className="text-center">
            <AddToCalendar bookingId={c.bookingId} />
          </p>
        )}
        {c.state === 'not-open' && c.opensOn !== null && (
          <>
            <Button large rounded disabled data-action="not-open">
              <Trans>未开放预约</Trans>
            </Button>
            <p className="text-center text-sm text-black/60" data-opens-on={c.opensOn}>
              <Trans>{c.opensOn.slice(5)} 起可预约这节课</Trans>
            </p>
          </>
        )}
        {(c.state === 'full' || c.state === 'expired') && (
          <Button large rounded disabled>
            {c.state === 'full' ? <Trans>已约满</Trans> : <Trans>已过期</Trans>}
          </Button>
        )}
      </Block>
    </article>
  );
}
