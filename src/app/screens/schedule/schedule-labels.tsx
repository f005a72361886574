import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { useLingui } from '@lingui/react';
import { Trans } from '@lingui/react/macro';
import { Block, Button } from 'konsta/react';
import { Link } from 'react-router-dom';
import type { ScheduleState, TeacherClass } from '../../../api/schedule';
import { addDays, shanghaiClock, shanghaiDate } from '../../../domain/time';

/** Spec §4 teacher schedule states as the teacher and staff read them (decision 029). */
export const SCHEDULE_STATE_LABELS: Record<ScheduleState, MessageDescriptor> = {
  not_started: msg`未开始`,
  waiting: msg`待确认`,
  confirmed: msg`已确认`,
  unconfirmed: msg`未确认`,
};

const TINTS: Record<ScheduleState, string> = {
  not_started: 'bg-black/5 text-black/60',
  waiting: 'bg-amber-100 text-amber-800',
  confirmed: 'bg-emerald-100 text-emerald-800',
  unconfirmed: 'bg-rose-100 text-rose-700',
};

/** A class's teacher schedule state badge. */
export function ScheduleBadge(props: { state: ScheduleState }) {
  const { i18n } = useLingui();
  return (
    <span
      data-schedule-state={props.state}
      className={`inline-block shrink-0 rounded-full px-2 py-0.5 text-xs whitespace-nowrap ${TINTS[props.state]}`}
    >
      {i18n._(SCHEDULE_STATE_LABELS[props.state])}
    </span>
  );
}

/** "11-23 周一 19:00–20:00": when a class is, on the Shanghai calendar. */
export function classWhen(startsAt: string, endsAt: string): string {
  const start = new Date(startsAt);
  return `${shanghaiDate(start).slice(5)} ${shanghaiClock(start)}–${shanghaiClock(new Date(endsAt))}`;
}

/** "11-22 19:00": an instant on the Shanghai calendar (a deadline). */
export const momentOf = (at: string): string => `${shanghaiDate(new Date(at)).slice(5)} ${shanghaiClock(new Date(at))}`;

/** "11-23 – 11-29": a week from its Monday. */
export const weekSpan = (monday: string) => `${monday.slice(5)} – ${addDays(monday, 6).slice(5)}`;

/** A teacher or staff page opened by someone else (the API answered 403): says who it is for. */
export function ForbiddenState(props: { forWhom: 'teacher' | 'staff' }) {
  return (
    <Block className="text-center" data-forbidden>
      <h1 className="mt-10 mb-8 text-lg font-semibold">
        {props.forWhom === 'teacher' ? <Trans>此页面仅供已绑定的老师使用</Trans> : <Trans>此页面仅供门店工作人员使用</Trans>}
      </h1>
      <Button large rounded component={Link} {...{ to: '/' }} className="mx-auto max-w-60">
        <Trans>返回首页</Trans>
      </Button>
    </Block>
  );
}

/**
 * One of the teacher's classes as a row that opens its confirmation form: title, when, where, the
 * state badge, and (on the home's waiting list) the deadline to answer by.
 */
export function TeacherClassLink(props: { c: TeacherClass; deadline?: boolean }) {
  const { c } = props;
  return (
    <Link
      to={`/bindPage/teacherConfirmForm?id=${c.id}&week=${shanghaiDate(new Date(c.startsAt))}`}
      className="flex items-start justify-between gap-3 rounded-xl bg-white p-3 active:bg-black/5"
      data-teacher-class={c.id}
    >
      <span className="min-w-0">
        <span className="block truncate font-semibold">{c.title}</span>
        <span className="block text-sm text-black/60 tabular-nums">{classWhen(c.startsAt, c.endsAt)}</span>
        <span className="block text-xs text-black/60">
          {c.clubName} · {c.room}
        </span>
        {props.deadline && c.confirmBy ? (
          <span className="mt-1 block text-xs text-amber-800 tabular-nums" data-confirm-by={c.confirmBy}>
            <Trans>请在 {momentOf(c.confirmBy)} 前确认</Trans>
          </span>
        ) : null}
      </span>
      <ScheduleBadge state={c.state} />
    </Link>
  );
}
