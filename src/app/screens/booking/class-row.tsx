import { useLingui } from '@lingui/react';
import { Trans } from '@lingui/react/macro';
import { Link } from 'react-router-dom';
import type { ClassState, ScheduleItem } from '../../../api/booking';
import { shanghaiClock } from '../../../domain/time';
import { DIFFICULTIES, dictLabel } from '../../../domain/catalog';
import { CLASS_STATE_LABELS, CLASS_STATE_TINTS } from './booking-labels';
import { ClashNotice } from './clash-notice';

/** A class's state badge (spec §4). */
export function StateBadge(props: { state: ClassState; label?: string }) {
  const { i18n } = useLingui();
  return (
    <span
      data-class-state={props.state}
      className={`inline-block shrink-0 rounded-full px-2 py-0.5 text-xs whitespace-nowrap ${CLASS_STATE_TINTS[props.state]}`}
    >
      {props.label ?? i18n._(CLASS_STATE_LABELS[props.state])}
    </span>
  );
}

/** One class of the schedule: time, title, teacher, room, seats, state; the row opens the class. */
export function ClassRow(props: { item: ScheduleItem; to: string; styleLabel: string }) {
  const { i18n } = useLingui();
  const c = props.item;
  const locale = i18n.locale === 'en' ? 'en' : 'zh';
  const difficulty = DIFFICULTIES.find((d) => d.value === c.difficulty);
  const left = Math.max(0, c.capacity - c.bookedCount);
  return (
    <li>
      <Link to={props.to} className="flex gap-3 rounded-xl bg-white p-3 active:bg-black/5" data-class={c.id}>
        <span className="w-12 shrink-0 text-center">
          <span className="block text-base font-semibold tabular-nums">{shanghaiClock(new Date(c.startsAt))}</span>
          <span className="block text-xs text-black/60 tabular-nums">
            <Trans>{c.durationMin}分钟</Trans>
          </span>
        </span>
        <span className="min-w-0 flex-1">
          <span className="flex items-start justify-between gap-2">
            <span className="truncate font-semibold">{c.title}</span>
            <StateBadge state={c.state} />
          </span>
          <span className="mt-0.5 block truncate text-xs text-black/60">
            {[c.teacherName, props.styleLabel, difficulty ? dictLabel(difficulty, locale) : null].filter(Boolean).join(' · ')}
          </span>
          {c.clashesWith && <ClashNotice clash={c.clashesWith} compact />}
          <span className="mt-0.5 flex justify-between gap-2 text-xs text-black/60">
            <span className="truncate">
              {c.clubName} · {c.room}
            </span>
            <span className="shrink-0 tabular-nums">
              {c.state === 'queued' && c.queuePosition !== null ? (
                <Trans>排队第{c.queuePosition}位</Trans>
              ) : left > 0 ? (
                <Trans>
                  余{left}/{c.capacity}
                </Trans>
              ) : (
                <Trans>排队{c.queueCount}人</Trans>
              )}
            </span>
          </span>
        </span>
      </Link>
    </li>
  );
}
