import { useLingui } from '@lingui/react';
import { Trans } from '@lingui/react/macro';
import { useActorRef, useSelector } from '@xstate/react';
import { Block, Button } from 'konsta/react';
import { useMemo } from 'react';
import { data, Link, useLoaderData, type LoaderFunctionArgs } from 'react-router-dom';
import { fromPromise, type SnapshotFrom } from 'xstate';
import { scheduleConfirmMachine } from '../../../../machines/schedule-confirm.machine';
import type { TeacherWeek } from '../../../api/schedule';
import { Errors } from '../../../domain/errors';
import { apiFrom, browserApiOrThrow } from '../../api-context';
import { useStableRevalidate } from '../../ui/use-stable-revalidate';
import { refusalMessage } from '../../ui/refusal-message';
import { ForbiddenState, TeacherClassLink, weekSpan } from './schedule-labels';

type WeekData = { week: TeacherWeek | null; forbidden: boolean };

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** The teacher's week (`?week=` any day of it; this week without); a member or staff gets the forbidden state. */
export async function loader({ context, request }: LoaderFunctionArgs) {
  const raw = new URL(request.url).searchParams.get('week');
  const r = await apiFrom(context).schedule.teacherWeek(raw && DAY.test(raw) ? raw : undefined);
  if (r.code === 70008) return data<WeekData>({ week: null, forbidden: true }, { status: 403 });
  if (r.code !== 200) throw new Response(null, { status: 503 });
  return data<WeekData>({ week: r.data, forbidden: false });
}

/**
 * /bindPage/teacherConfirm (spec "tutor schedule confirmation"; decision 029): the teacher's
 * classes of a week with their state, the week before and after, each class opening its confirm form,
 * and "confirm all" for the classes still waiting, through the schedule confirmation machine.
 */
export default function TeacherConfirmScreen() {
  const { week, forbidden } = useLoaderData<typeof loader>();
  if (forbidden || !week) return <ForbiddenState forWhom="teacher" />;
  return <Week key={week.week} week={week} />;
}

/** Where the week's confirmation stands, from the chart's tags (ready carries none; a week is not declined). */
const weekPhaseOf = (s: SnapshotFrom<typeof scheduleConfirmMachine>) =>
  s.hasTag('confirmed')
    ? 'confirmed'
    : s.hasTag('refused')
      ? 'refused'
      : s.hasTag('submitting')
        ? 'confirming'
        : s.hasTag('unreachable')
          ? 'confirmUnreachable'
          : 'ready';

function Week({ week }: { week: TeacherWeek }) {
  const { i18n } = useLingui();
  const revalidate = useStableRevalidate();
  const logic = useMemo(
    () =>
      scheduleConfirmMachine.provide({
        actors: {
          // a week is confirmed, never declined (the chart's `oneClass` guard)
          confirm: fromPromise(({ input }) =>
            browserApiOrThrow().schedule.confirmWeek({ week: input.target.kind === 'week' ? input.target.week : '' }, input.idempotencyKey),
          ),
        },
        actions: { changed: revalidate },
      }),
    [revalidate],
  );
  const actor = useActorRef(logic, { input: { target: { kind: 'week', week: week.week } } });
  const phase = useSelector(actor, weekPhaseOf);
  const errorCode = useSelector(actor, (s) => s.context.errorCode);
  const waiting = week.classes.filter((c) => c.canConfirm).length;
  return (
    <Block className="space-y-3" data-teacher-week={week.week}>
      <div className="flex items-center justify-between">
        <Link to={`/bindPage/teacherConfirm?week=${week.prevWeek}`} className="text-primary" data-week-nav="prev">
          <Trans>上一周</Trans>
        </Link>
        <h1 className="text-base font-semibold tabular-nums">{weekSpan(week.week)}</h1>
        <Link to={`/bindPage/teacherConfirm?week=${week.nextWeek}`} className="text-primary" data-week-nav="next">
          <Trans>下一周</Trans>
        </Link>
      </div>
      <p className="text-sm text-black/60">
        <Trans>
          {week.teacherName}老师，本周 {week.classes.length} 节课，{waiting} 节待确认
        </Trans>
      </p>
      {week.classes.length === 0 ? (
        <p className="py-10 text-center text-black/60" data-empty>
          <Trans>这一周没有安排给您的课程</Trans>
        </p>
      ) : (
        <ul className="space-y-2">
          {week.classes.map((c) => (
            <li key={c.id}>
              <TeacherClassLink c={c} />
            </li>
          ))}
        </ul>
      )}
      <p role="alert" className="min-h-5 text-center text-sm text-rose-600" data-confirm-feedback={errorCode ?? undefined}>
        {phase === 'refused' ? i18n._(refusalMessage(errorCode)) : phase === 'confirmUnreachable' ? i18n._(Errors.network.message) : null}
      </p>
      {phase === 'confirmed' ? (
        <p className="text-center font-semibold text-emerald-700" data-confirmed-all>
          <Trans>本周待确认的课程已全部确认</Trans>
        </p>
      ) : waiting > 0 || phase !== 'ready' ? (
        <Button
          large
          rounded
          disabled={phase === 'confirming' || phase === 'refused'}
          data-action="confirm-all"
          onClick={() => actor.send({ type: phase === 'confirmUnreachable' ? 'network.retry' : 'schedule.confirm' })}
        >
          {phase === 'confirming' ? <Trans>确认中…</Trans> : phase === 'confirmUnreachable' ? <Trans>重试</Trans> : <Trans>全部确认</Trans>}
        </Button>
      ) : null}
      <p className="flex justify-center gap-6">
        <Link to="/bindPage/teacherHome" className="inline-flex min-h-11 items-center text-primary">
          <Trans>老师主页</Trans>
        </Link>
        <Link to="/bindPage/teacherImg" className="inline-flex min-h-11 items-center text-primary">
          <Trans>签到二维码</Trans>
        </Link>
      </p>
    </Block>
  );
}
