import { msg } from '@lingui/core/macro';
import { useLingui } from '@lingui/react';
import { Trans } from '@lingui/react/macro';
import { useActorRef, useSelector } from '@xstate/react';
import { Block, Button } from 'konsta/react';
import { useMemo } from 'react';
import { data, Link, useLoaderData, type LoaderFunctionArgs } from 'react-router-dom';
import { fromPromise, type SnapshotFrom } from 'xstate';
import { bookingCheckInMachine } from '../../../../machines/booking-check-in.machine';
import type { ClassDetail } from '../../../api/booking';
import { shanghaiClock, shanghaiDate } from '../../../domain/time';
import { Errors } from '../../../domain/errors';
import { apiFrom, browserApiOrThrow } from '../../api-context';
import { parseId } from '../../ui/data-or';
import { NotFoundState } from '../../ui/not-found-state';
import { refusalMessage } from '../../ui/refusal-message';
import { StateBadge } from './class-row';

interface CheckInData {
  cls: ClassDetail | null;
  code: string;
}

/** The class a scanned QR code names (`?classId=&code=`); a missing or unknown class is a 404 state. */
export async function loader({ context, request }: LoaderFunctionArgs) {
  const params = new URL(request.url).searchParams;
  const classId = parseId(params.get('classId'));
  const code = (params.get('code') ?? '').trim().slice(0, 32);
  if (classId === null || !code) return data<CheckInData>({ cls: null, code }, { status: 404 });
  const r = await apiFrom(context).booking.detail(classId);
  if (r.code === 404 || r.code === 400 || r.code === 70004) return data<CheckInData>({ cls: null, code }, { status: 404 });
  if (r.code !== 200) throw new Response(null, { status: 503 });
  return data<CheckInData>({ cls: r.data, code });
}

/**
 * /signed?classId=&code=: check in by the class's QR code (the teacher shows it; private lessons and
 * every other class; decision 007), through the check-in machine.
 */
export default function CheckInScreen() {
  const { cls, code } = useLoaderData<typeof loader>();
  if (!cls)
    return (
      <NotFoundState message={<Trans>签到码无效，请重新扫描</Trans>} backTo="/takecourse/takelistm" backLabel={<Trans>我的预约</Trans>} />
    );
  return <CheckIn key={cls.id} cls={cls} code={code} />;
}

/** Where the check-in stands, from the chart's tags (ready carries none). */
const phaseOf = (s: SnapshotFrom<typeof bookingCheckInMachine>) =>
  s.hasTag('checkedIn')
    ? 'checkedIn'
    : s.hasTag('unreachable')
      ? 'unreachable'
      : s.hasTag('refused')
        ? 'refused'
        : s.hasTag('submitting')
          ? 'submitting'
          : 'ready';

/**
 * The member holds no seat in the class the code names: no check-in to confirm, but the way to what
 * they can do (book it while it can be booked, wait in its queue, or find another class).
 */
function NotBooked(props: { cls: ClassDetail }) {
  const c = props.cls;
  const detail = `/takecourse/bookcourse/bookcoursedetail?id=${c.id}`;
  return (
    <div className="mt-6 space-y-4" data-checkin-not-booked={c.state}>
      <p>
        {c.state === 'queued' ? (
          <Trans>您正在排队，有空位并预约成功后才能签到</Trans>
        ) : c.state === 'not-checked-in' ? (
          <Trans>这节课已结束，不能再签到</Trans>
        ) : (
          <Trans>您没有预约这节课，预约成功后才能签到</Trans>
        )}
      </p>
      {c.state === 'bookable' || c.state === 'queueable' ? (
        <Button large rounded component={Link} {...{ to: detail }} data-action="book-this-class">
          {c.state === 'bookable' ? <Trans>预约这节课</Trans> : <Trans>排队这节课</Trans>}
        </Button>
      ) : (
        <Button large rounded outline component={Link} {...{ to: '/takecourse/bookcourse' }} data-action="find-a-class">
          <Trans>查看课程表</Trans>
        </Button>
      )}
    </div>
  );
}

function CheckIn(props: { cls: ClassDetail; code: string }) {
  const { i18n } = useLingui();
  const c = props.cls;
  const logic = useMemo(
    () =>
      bookingCheckInMachine.provide({
        actors: {
          checkIn: fromPromise(({ input }) =>
            browserApiOrThrow().booking.checkIn({ classId: input.classId, code: input.code }, input.idempotencyKey),
          ),
        },
      }),
    [],
  );
  const actor = useActorRef(logic, { input: { classId: c.id, code: props.code } });
  const phase = useSelector(actor, phaseOf);
  const errorCode = useSelector(actor, (s) => s.context.errorCode);
  const start = new Date(c.startsAt);
  const done = phase === 'checkedIn' || c.state === 'checked-in';
  return (
    <Block className="text-center" data-checkin={phase}>
      <h1 className="mt-6 text-xl font-semibold">{c.title}</h1>
      <p className="mt-1 text-sm text-black/60 tabular-nums">
        {shanghaiDate(start).slice(5)} {shanghaiClock(start)}–{shanghaiClock(new Date(c.endsAt))} · {c.clubName} · {c.room}
      </p>
      <p className="mt-3">
        <StateBadge state={done ? 'checked-in' : c.state} />
      </p>
      {done ? (
        <p className="mt-6 text-lg font-semibold text-emerald-700" data-checked-in>
          <Trans>签到成功，祝您练习愉快</Trans>
        </p>
      ) : c.state !== 'booked' ? (
        <NotBooked cls={c} />
      ) : (
        <>
          <p role="alert" className="mt-4 min-h-5 text-sm text-rose-600" data-checkin-feedback={errorCode ?? undefined}>
            {phase === 'refused' ? i18n._(refusalMessage(errorCode)) : phase === 'unreachable' ? i18n._(Errors.network.message) : null}
          </p>
          <Button
            large
            rounded
            className="mt-4"
            disabled={phase === 'submitting'}
            data-action="checkin"
            onClick={() => actor.send({ type: phase === 'unreachable' ? 'network.retry' : 'checkin.submit' })}
          >
            {phase === 'submitting' ? <Trans>签到中…</Trans> : phase === 'unreachable' ? <Trans>重试</Trans> : <Trans>确认签到</Trans>}
          </Button>
        </>
      )}
      <Link to="/takecourse/takelistm" className="mt-6 inline-block text-primary">
        {i18n._(msg`查看我的预约`)}
      </Link>
    </Block>
  );
}
