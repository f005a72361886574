import { Trans } from '@lingui/react/macro';
import type { GoodsPhase, GoodsTeacher } from '../../../../api/catalog-goods';
import { shanghaiDateSpan } from '../../../../domain/time';
import { GoodsPrice } from '../../../ui/goods-price';

const option = (on: boolean, usable = true) =>
  `flex items-center gap-3 rounded-xl bg-white p-3 ${usable ? 'cursor-pointer' : 'opacity-55'} ${on ? 'ring-2 ring-primary' : ''}`;
const radio = 'h-4 w-4 shrink-0 accent-primary';

/** The phases of a training course as radio choices; a phase that cannot be chosen says why. */
export function PhasePicker(props: { phases: GoodsPhase[]; chosen: number | undefined; member: boolean; onChoose(id: number): void }) {
  return (
    <fieldset className="mx-4 space-y-2" data-phase-choice>
      <legend className="mb-2 text-sm font-semibold text-black/70">
        <Trans>选择课程阶段</Trans>
      </legend>
      {props.phases.map((p) => {
        const usable = p.isUable !== false;
        return (
          <label key={p.id} data-phase={p.id} data-usable={usable} className={option(props.chosen === p.id, usable)}>
            <input
              type="radio"
              name="phase"
              value={p.id}
              disabled={!usable}
              checked={props.chosen === p.id}
              onChange={() => props.onChoose(p.id)}
              className={radio}
            />
            <span className="min-w-0 flex-1">
              <span className="block truncate font-medium">{p.name}</span>
              {p.startsAt && p.endsAt && (
                <span className="block text-xs text-black/60 tabular-nums">{shanghaiDateSpan(p.startsAt, p.endsAt)}</span>
              )}
              {!usable && p.message && <span className="block text-xs text-rose-600">{p.message}</span>}
            </span>
            {p.listPriceCents != null && (
              <span className="shrink-0">
                <GoodsPrice
                  listPriceCents={p.listPriceCents}
                  memberPriceCents={props.member ? (p.memberPriceCents ?? undefined) : undefined}
                />
              </span>
            )}
          </label>
        );
      })}
    </fieldset>
  );
}

/** The teachers a private class can be taken with, as radio choices with their photos. */
export function TeacherPicker(props: { teachers: GoodsTeacher[]; chosen: number | undefined; onChoose(id: number): void }) {
  return (
    <fieldset className="mx-4 space-y-2" data-teacher-choice>
      <legend className="mb-2 text-sm font-semibold text-black/70">
        <Trans>选择导师</Trans>
      </legend>
      {props.teachers.map((t) => (
        <label key={t.id} data-teacher-option={t.id} className={option(props.chosen === t.id)}>
          <input
            type="radio"
            name="teacher"
            value={t.id}
            checked={props.chosen === t.id}
            onChange={() => props.onChoose(t.id)}
            className={radio}
          />
          {t.photo && (
            <img
              src={t.photo}
              alt=""
              width={40}
              height={40}
              loading="lazy"
              decoding="async"
              className="h-10 w-10 shrink-0 rounded-full bg-black/5 object-cover"
            />
          )}
          <span className="min-w-0 flex-1">
            <span className="block truncate font-medium">{t.name}</span>
            {t.clubName && <span className="block truncate text-xs text-black/60">{t.clubName}</span>}
          </span>
        </label>
      ))}
    </fieldset>
  );
}
