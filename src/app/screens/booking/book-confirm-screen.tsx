import { msg } from '@lingui/core/macro';
import { useLingui } from '@lingui/react';
import { Trans } from '@lingui/react/macro';
import { useActorRef, useSelector } from '@xstate/react';
import { Block, Button, Checkbox } from 'konsta/react';
import { useMemo } from 'react';
import { Link, useLoaderData } from 'react-router-dom';
import { fromPromise } from 'xstate';
import { bookingBookMachine } from '../../../../machines/booking-book.machine';
import type { ClassDetail } from '../../../api/booking';
import { shanghaiClock, shanghaiDate } from '../../../domain/time';
import { Errors } from '../../../domain/errors';
import { browserApiOrThrow } from '../../api-context';
import { SessionContext } from '../../session/session-provider';
import { useConfirmWhile } from '../../ui/confirm';
import { NotFoundState } from '../../ui/not-found-state';
import { AddToCalendar } from './add-to-calendar';
import { BUY_CARD_CODES, REMINDER_LABELS } from './booking-labels';
import { refusalMessage } from '../../ui/refusal-message';
import { CardChoice, CardsNotUsable } from './card-choice';
import { rememberClassToBook } from './class-to-book';
import { classDetailLoader } from './class-detail-view';
import { StateBadge } from './class-row';

export const loader = classDetailLoader;

const choosingMessages: Record<string, ReturnType<typeof msg>> = {
  noticeMissing: msg`请先阅读并同意会员须知`,
};

function leaf(value: unknown): string {
  return typeof value === 'string' ? value : Object.entries(value as Record<string, unknown>).map(([k, v]) => `${k}.${leaf(v)}`)[0]!;
}

/** The class being booked, in one line. */
function ClassSummary(props: { c: ClassDetail }) {
  const start = new Date(props.c.startsAt);
  return (
    <Block strong inset className="!my-4">
      <h1 className="text-lg font-semibold">{props.c.title}</h1>
      <p className="mt-1 text-sm text-black/60 tabular-nums">
        {shanghaiDate(start).slice(5)} {shanghaiClock(start)}–{shanghaiClock(new Date(props.c.endsAt))} · {props.c.clubName} ·{' '}
        {props.c.room}
      </p>
    </Block>
  );
}

/**
 * /takecourse/bookcourse/bookcourseconfirm?id=: book a class through the book-class machine (card,
 * member notice, confirm with the card's reminders, submit; booked, queued or refused).
 */
export default function BookConfirmScreen() {
  const { cls } = useLoaderData<typeof loader>();
  if (!cls)
    return <NotFoundState message={<Trans>没有找到这节课</Trans>} backTo="/takecourse/bookcourse" backLabel={<Trans>查看课程表</Trans>} />;
  if (cls.state !== 'bookable' && cls.state !== 'queueable') {
    // already booked, queued, full or over: nothing to book here; the class page shows where the member stands
    return (
      <div>
        <ClassSummary c={cls} />
        <Block className="text-center">
          <p className="mb-4">
            <StateBadge state={cls.state} />
          </p>
          <Button large rounded component={Link} {...{ to: `/takecourse/bookcourse/bookcoursedetail?id=${cls.id}` }}>
            <Trans>查看课程详情</Trans>
          </Button>
        </Block>
      </div>
    );
  }
  return <BookForm key={cls.id} cls={cls} />;
}

function BookForm(props: { cls: ClassDetail }) {
  const { i18n } = useLingui();
  const session = SessionContext.useActorRef();
  const c = props.cls;

  const logic = useMemo(
    () =>
      bookingBookMachine.provide({
        actors: {
          loadCards: fromPromise(({ input }) => browserApiOrThrow().booking.cardsForClass(input.classId)),
          book: fromPromise(({ input }) => browserApiOrThrow().booking.book(input.body, input.idempotencyKey)),
        },
        actions: { bookingChanged: () => session.send({ type: 'booked.refresh' }) },
      }),
    [session],
  );
  const book = useActorRef(logic, { input: { classId: c.id } });
  const state = useSelector(book, (s) => leaf(s.value));
  const cards = useSelector(book, (s) => s.context.cards);
  const cardId = useSelector(book, (s) => s.context.cardId);
  const agreed = useSelector(book, (s) => s.context.agreed);
  const errorCode = useSelector(book, (s) => s.context.errorCode);
  const position = useSelector(book, (s) => s.context.position);
  const bookingId = useSelector(book, (s) => s.context.bookingId);

  // the chart decides whether there is anything to confirm (the card chosen, the notice agreed)
  const chosen = state === 'confirming' ? cards.find((x) => x.id === cardId) : undefined;
  useConfirmWhile(
    chosen !== undefined,
    {
      title: c.state === 'queueable' ? <Trans>确认排队</Trans> : <Trans>确认预约</Trans>,
      message: chosen && (
        <span className="block text-left">
          <span className="block">
            {c.title} · {shanghaiDate(new Date(c.startsAt)).slice(5)} {shanghaiClock(new Date(c.startsAt))}
          </span>
          <span className="block">
            <Trans>使用：{chosen.name}</Trans>
          </span>
          {chosen.reminders.map((rem) => (
            <span key={rem} className="mt-1 block text-amber-700" data-reminder={rem}>
              {i18n._(REMINDER_LABELS[rem])}
            </span>
          ))}
        </span>
      ),
      confirmText: <Trans>确定</Trans>,
      cancelText: <Trans>返回</Trans>,
    },
    (confirmed) => book.send({ type: confirmed ? 'booking.confirm' : 'booking.back' }),
  );

  if (state === 'loadingCards') {
    return (
      <div aria-busy="true" data-skeleton>
        <ClassSummary c={c} />
        <div className="mx-4 space-y-2">
          {[0, 1].map((i) => (
            <div key={i} className="h-[84px] animate-pulse rounded-xl bg-black/[.07]" />
          ))}
        </div>
      </div>
    );
  }
  if (state === 'unavailable')
    return <NotFoundState message={<Trans>这节课不能预约</Trans>} backTo="/takecourse/bookcourse" backLabel={<Trans>查看课程表</Trans>} />;
  if (state === 'cardsUnreachable') {
    return (
      <Block className="text-center" role="alert">
        <p className="mb-4">{i18n._(Errors.network.message)}</p>
        <Button large rounded onClick={() => book.send({ type: 'booking.retry' })}>
          <Trans>重试</Trans>
        </Button>
      </Block>
    );
  }
  if (state === 'needsCard') {
    return (
      <div data-needs-card>
        <ClassSummary c={c} />
        <Block className="text-center">
          <p className="mb-4">
            {cards.length > 0 ? <Trans>您的会员卡都不能预约这节课</Trans> : <Trans>您还没有可用于这节课的会员卡，请先购买</Trans>}
          </p>
          {cards.length > 0 && <CardsNotUsable cards={cards} />}
          <Button
            large
            rounded
            component={Link}
            {...{ to: '/vipcard?tab=shop', onClick: () => rememberClassToBook({ id: c.id, title: c.title }) }}
          >
            <Trans>去购买会员卡</Trans>
          </Button>
        </Block>
      </div>
    );
  }
  if (state === 'booked' || state === 'queued') {
    return (
      <Block className="text-center" data-booking-result={state}>
        <svg
          aria-hidden
          width="56"
          height="56"
          viewBox="0 0 32 32"
          fill="none"
          stroke="currentColor"
          strokeWidth="2.2"
          className="mx-auto mt-8 text-emerald-700"
        >
          <circle cx="16" cy="16" r="14" />
          <path d="M9.5 16.5l4.5 4.5 8.5-9" />
        </svg>
        <h1 className="mt-3 text-lg font-semibold">
          {state === 'booked' ? <Trans>预约成功</Trans> : <Trans>已加入排队，当前第{position}位</Trans>}
        </h1>
        <p className="mt-1 text-sm text-black/60">
          {c.title} · {shanghaiDate(new Date(c.startsAt)).slice(5)} {shanghaiClock(new Date(c.startsAt))}
        </p>
        {state === 'queued' && (
          <p className="mt-2 text-sm text-black/60">
            <Trans>有会员取消后将按排队顺序自动为您预约，并发送通知</Trans>
          </p>
        )}
        {state === 'booked' && bookingId !== undefined && (
          <p className="mt-4">
            <AddToCalendar bookingId={bookingId} />
          </p>
        )}
        <div className="mt-6 space-y-3">
          <Button large rounded component={Link} {...{ to: '/takecourse/takelistm' }}>
            <Trans>查看我的预约</Trans>
          </Button>
          <Link to="/takecourse/bookcourse" className="inline-block text-primary">
            <Trans>继续约课</Trans>
          </Link>
        </div>
      </Block>
    );
  }

  const busy = state === 'submitting' || state === 'confirming';
  const sub = state.startsWith('choosing.') ? state.slice('choosing.'.length) : '';
  const feedback =
    state === 'unreachable'
      ? i18n._(Errors.network.message)
      : sub === 'refused' || sub === 'cardUnusable'
        ? i18n._(refusalMessage(errorCode))
        : choosingMessages[sub]
          ? i18n._(choosingMessages[sub])
          : null;

  return (
    <form
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        if (state === 'unreachable') book.send({ type: 'booking.retry' });
        else book.send({ type: 'booking.submit' });
      }}
      className="pb-6"
    >
      <ClassSummary c={c} />
      <CardChoice cards={cards} chosen={cardId} onChoose={(id) => book.send({ type: 'card.choose', cardId: id })} />
      <Block className="!my-4">
        <div className="flex items-center gap-2 text-sm text-black/70">
          <label className="flex items-center gap-2">
            <Checkbox component="div" name="agreeNotice" checked={agreed} onChange={() => book.send({ type: 'notice.toggle' })} />
            <span>
              <Trans>我已阅读并同意</Trans>
            </span>
          </label>
          <Link to="/takecourse/bookcourse/membersNotice" className="text-primary">
            <Trans>《会员须知》</Trans>
          </Link>
        </div>
      </Block>
      <p role="alert" className="mx-4 min-h-5 text-sm text-rose-600" data-book-feedback>
        {feedback}
        {sub === 'refused' && errorCode !== undefined && BUY_CARD_CODES.includes(errorCode) && (
          <Link to="/vipcard" className="ml-2 text-primary">
            <Trans>去购买</Trans>
          </Link>
        )}
      </p>
      <Block className="!my-4">
        <Button large rounded type="submit" disabled={busy} data-action="submit-booking">
          {state === 'submitting' ? (
            <Trans>提交中…</Trans>
          ) : state === 'unreachable' ? (
            <Trans>重试</Trans>
          ) : c.state === 'queueable' ? (
            <Trans>加入排队</Trans>
          ) : (
            <Trans>确认预约</Trans>
          )}
        </Button>
      </Block>
    </form>
  );
}
