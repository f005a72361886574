import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { useLingui } from '@lingui/react';
import { Trans } from '@lingui/react/macro';
import { useActorRef, useSelector } from '@xstate/react';
import { Block, Button } from 'konsta/react';
import { useMemo } from 'react';
import { data, Link, useLoaderData, type LoaderFunctionArgs } from 'react-router-dom';
import { fromPromise } from 'xstate';
import { scheduleTeacherAssignMachine } from '../../../../machines/schedule-teacher-assign.machine';
import type { StaffClass, StaffWeek } from '../../../api/schedule';
import { Errors } from '../../../domain/errors';
import { GLANCE_KEYS, GLANCE_OF_STATE, type GlanceKey } from '../../../domain/teacher-schedule';
import { shanghaiDate } from '../../../domain/time';
import { apiFrom, browserApiOrThrow } from '../../api-context';
import { useStableRevalidate } from '../../ui/use-stable-revalidate';
import { refusalMessage } from '../../ui/refusal-message';
import { classWhen, ForbiddenState, ScheduleBadge, weekSpan } from '../schedule/schedule-labels';

const msgChoose = msg`选择老师`;
const msgReassign = msg`换一位老师`;

type WeekData = { week: StaffWeek | null; forbidden: boolean; show: GlanceKey | null };

const GLANCE_LABELS: Record<GlanceKey, MessageDescriptor> = {
  confirmed: msg`已确认`,
  waiting: msg`待确认`,
  declined: msg`未确认`,
  noTeacher: msg`未安排老师`,
};

/** Staff's week (`?week=` any day of it; this week without); anyone else gets the forbidden state. */
export async function loader({ context, request }: LoaderFunctionArgs) {
  const params = new URL(request.url).searchParams;
  const raw = params.get('week');
  const show = (GLANCE_KEYS as readonly string[]).includes(params.get('show') ?? '') ? (params.get('show') as GlanceKey) : null;
  const r = await apiFrom(context).schedule.staffWeek(raw && /^\d{4}-\d{2}-\d{2}$/.test(raw) ? raw : undefined);
  if (r.code === 70008) return data<WeekData>({ week: null, forbidden: true, show }, { status: 403 });
  if (r.code !== 200) throw new Response(null, { status: 503 });
  return data<WeekData>({ week: r.data, forbidden: false, show });
}

/**
 * /staff/classes (decision 029): the week's classes with their teachers and confirmations at
 * a glance (those needing a teacher first in mind: not started and unconfirmed, with the decline
 * reason), and per class a teacher to assign, which asks that teacher to confirm.
 */
export default function StaffClassesScreen() {
  const { week, forbidden, show } = useLoaderData<typeof loader>();
  const { i18n } = useLingui();
  if (forbidden || !week) return <ForbiddenState forWhom="staff" />;
  const shown = show === null ? week.classes : week.classes.filter((c) => GLANCE_OF_STATE[c.state] === show);
  const needs = week.classes.filter((c) => c.state === 'not_started' || c.state === 'unconfirmed').length;
  return (
    <Block className="space-y-3" data-staff-week={week.week}>
      <div className="flex items-center justify-between">
        <Link to={`/staff/classes?week=${week.prevWeek}`} className="text-primary" data-week-nav="prev">
          <Trans>上一周</Trans>
        </Link>
        <h1 className="text-base font-semibold tabular-nums">{weekSpan(week.week)}</h1>
        <Link to={`/staff/classes?week=${week.nextWeek}`} className="text-primary" data-week-nav="next">
          <Trans>下一周</Trans>
        </Link>
      </div>
      <p className="text-sm text-black/60">
        <Trans>
          本周 {week.classes.length} 节课，{needs} 节需要安排老师
        </Trans>
      </p>
      {/* confirmations at a glance (decision 041): each count filters the list to its classes */}
      <nav className="grid-12 cols-2 sm:cols-4 gap-y-2" data-glance>
        {GLANCE_KEYS.map((k) => (
          <Link
            key={k}
            to={show === k ? `/staff/classes?week=${week.week}` : `/staff/classes?week=${week.week}&show=${k}`}
            className={`flex min-h-11 items-center justify-between rounded-lg px-3 ${show === k ? 'bg-primary text-white' : 'bg-white'}`}
            data-glance-key={k}
            aria-current={show === k ? 'true' : undefined}
          >
            <span className="text-sm">{i18n._(GLANCE_LABELS[k])}</span>
            <span className="font-semibold tabular-nums" data-glance-count={k}>
              {week.counts[k]}
            </span>
          </Link>
        ))}
      </nav>
      {week.clubs.length ? (
        <Link
          to={`/staff/classes/new?week=${week.week}`}
          className="flex min-h-11 items-center justify-center rounded-lg bg-primary text-white"
          data-action="new-class"
        >
          <Trans>新建课程</Trans>
        </Link>
      ) : null}
      <ul className="space-y-2">
        {shown.map((c) => (
          // a new row after each change: its machine starts again from the class as it now is
          <ClassRow key={`${c.id}-${c.state}-${c.teacherId ?? 0}`} cls={c} teachers={week.teachers} />
        ))}
      </ul>
    </Block>
  );
}

function ClassRow({ cls, teachers }: { cls: StaffClass; teachers: StaffWeek['teachers'] }) {
  const { i18n } = useLingui();
  const revalidate = useStableRevalidate();
  const logic = useMemo(
    () =>
      scheduleTeacherAssignMachine.provide({
        actors: {
          assign: fromPromise(({ input }) =>
            browserApiOrThrow().schedule.assign(input.classId, { teacherId: input.teacherId }, input.idempotencyKey),
          ),
        },
        actions: { changed: revalidate },
      }),
    [revalidate],
  );
  const actor = useActorRef(logic, { input: { classId: cls.id } });
  // where the assignment stands, from the chart's tags (ready carries none)
  const phase = useSelector(actor, (s) =>
    s.hasTag('assigned')
      ? 'assigned'
      : s.hasTag('unreachable')
        ? 'unreachable'
        : s.hasTag('refused')
          ? 'refused'
          : s.hasTag('submitting')
            ? 'assigning'
            : 'ready',
  );
  const ctx = useSelector(actor, (s) => s.context);
  return (
    <li className="rounded-xl bg-white p-3" data-staff-class={cls.id}>
      <div className="flex items-start justify-between gap-3">
        <span className="min-w-0">
          <span className="block truncate font-semibold">{cls.title}</span>
          <span className="block text-sm text-black/60 tabular-nums">{classWhen(cls.startsAt, cls.endsAt)}</span>
          <span className="block text-xs text-black/60">
            {cls.clubName} · {cls.room} · {cls.teacherName ?? <Trans>未安排老师</Trans>}
          </span>
        </span>
        <ScheduleBadge state={cls.state} />
      </div>
      {cls.canEdit ? (
        <Link
          to={`/staff/classes/${cls.id}/edit?week=${shanghaiDate(cls.startsAt)}`}
          className="mt-1 inline-flex min-h-11 items-center text-primary"
          data-action="edit-class"
        >
          <Trans>修改或取消</Trans>
        </Link>
      ) : null}
      {cls.declineReason ? (
        <p className="mt-1 text-sm text-rose-700" data-decline-reason>
          <Trans>老师无法上课：{cls.declineReason}</Trans>
        </p>
      ) : null}
      {cls.canAssign ? (
        <div className="mt-2 flex items-center gap-2">
          <label className="sr-only" htmlFor={`teacher-${cls.id}`}>
            <Trans>选择老师</Trans>
          </label>
          <select
            id={`teacher-${cls.id}`}
            className="min-w-0 flex-1 rounded-lg border border-black/15 p-2"
            value={ctx.teacherId ?? ''}
            disabled={phase === 'assigning' || phase === 'assigned'}
            onChange={(e) => e.target.value && actor.send({ type: 'teacher.choose', teacherId: Number(e.target.value) })}
          >
            <option value="">{i18n._(cls.teacherId ? msgReassign : msgChoose)}</option>
            {teachers.map((t) => (
              <option key={t.id} value={t.id}>
                {t.name}
              </option>
            ))}
          </select>
          <Button
            small
            rounded
            inline
            disabled={phase === 'assigning' || phase === 'assigned' || phase === 'refused' || (phase === 'ready' && ctx.teacherId === null)}
            data-action="assign"
            onClick={() => actor.send({ type: phase === 'unreachable' ? 'network.retry' : 'teacher.assign' })}
          >
            {phase === 'assigning' ? <Trans>安排中…</Trans> : phase === 'unreachable' ? <Trans>重试</Trans> : <Trans>安排</Trans>}
          </Button>
        </div>
      ) : null}
      <p role="alert" className="mt-1 min-h-5 text-sm text-rose-600" data-assign-feedback={ctx.errorCode ?? undefined}>
        {phase === 'refused' ? i18n._(refusalMessage(ctx.errorCode)) : phase === 'unreachable' ? i18n._(Errors.network.message) : null}
      </p>
    </li>
  );
}
