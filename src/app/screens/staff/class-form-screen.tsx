import { msg } from '@lingui/core/macro';
import { useLingui } from '@lingui/react';
import { Trans } from '@lingui/react/macro';
import { useActorRef, useSelector } from '@xstate/react';
import { Block, Button } from 'konsta/react';
import { useMemo } from 'react';
import { data, Link, useLoaderData, useNavigate, type LoaderFunctionArgs } from 'react-router-dom';
import { fromPromise } from 'xstate';
import { scheduleClassFormMachine, type ClassFormValues } from '../../../../machines/schedule-class-form.machine';
import type { StaffWeek } from '../../../api/schedule';
import { CLASS_TYPES } from '../../../domain/catalog';
import { Errors } from '../../../domain/errors';
import { shanghaiDate, shanghaiFormat } from '../../../domain/time';
import { apiFrom, browserApiOrThrow } from '../../api-context';
import { refusalMessage } from '../../ui/refusal-message';
import { ForbiddenState } from '../schedule/schedule-labels';

type FormData = { week: StaffWeek | null; forbidden: boolean; classId: number | null; values: ClassFormValues | null; title: string };

const DAY_RE = /^\d{4}-\d{2}-\d{2}$/;

/** The week holding `?week=` (or the class): its clubs and teachers, and the class edited (`:id`). */
export async function loader({ context, request, params }: LoaderFunctionArgs) {
  const raw = new URL(request.url).searchParams.get('week');
  const day = raw && DAY_RE.test(raw) ? raw : undefined;
  const r = await apiFrom(context).schedule.staffWeek(day);
  if (r.code === 70008) return data<FormData>({ week: null, forbidden: true, classId: null, values: null, title: '' }, { status: 403 });
  if (r.code !== 200) throw new Response(null, { status: 503 });
  const week = r.data;
  if (params.id === undefined) {
    const values: ClassFormValues = {
      clubId: String(week.clubs[0]?.id ?? ''),
      classType: 'regular',
      title: '',
      room: '',
      capacity: '20',
      day: day ?? week.week,
      start: '19:00',
      end: '20:00',
      teacherId: '',
    };
    return data<FormData>({ week, forbidden: false, classId: null, values, title: '' });
  }
  const c = week.classes.find((x) => x.id === Number(params.id) && x.canEdit);
  if (!c) throw new Response(null, { status: 404 });
  const at = new Date(c.startsAt);
  const values: ClassFormValues = {
    clubId: String(c.clubId),
    classType: c.classType,
    title: c.title,
    room: c.room,
    capacity: String(c.capacity),
    day: shanghaiDate(at),
    start: shanghaiFormat(at, 'HH:mm'),
    end: shanghaiFormat(new Date(c.endsAt), 'HH:mm'),
    teacherId: c.teacherId === null ? '' : String(c.teacherId),
  };
  return data<FormData>({ week, forbidden: false, classId: c.id, values, title: c.title });
}

const msgNoTeacher = msg`暂不安排老师`;

/**
 * /staff/classes/new and /staff/classes/:id/edit (decision 041): staff create a class at one
 * of their clubs, or change a class's time, capacity and teacher before it starts, or cancel it after a
 * confirm. The server decides every rule; its refusal is shown by the field it names.
 */
export default function ClassFormScreen() {
  const d = useLoaderData<typeof loader>();
  if (d.forbidden || !d.week || !d.values) return <ForbiddenState forWhom="staff" />;
  return <ClassForm week={d.week} classId={d.classId} values={d.values} title={d.title} />;
}

function ClassForm({ week, classId, values, title }: { week: StaffWeek; classId: number | null; values: ClassFormValues; title: string }) {
  const { i18n } = useLingui();
  const navigate = useNavigate();
  const back = `/staff/classes?week=${values.day}`;
  const logic = useMemo(
    () =>
      scheduleClassFormMachine.provide({
        actors: {
          save: fromPromise(({ input }) => {
            const v = input.values;
            const common = {
              capacity: Number(v.capacity),
              day: v.day,
              start: v.start,
              end: v.end,
              teacherId: v.teacherId ? Number(v.teacherId) : null,
            };
            const api = browserApiOrThrow().schedule;
            return input.classId === null
              ? api.createClass(
                  { ...common, clubId: Number(v.clubId), classType: v.classType as 'regular', title: v.title, room: v.room },
                  input.idempotencyKey,
                )
              : api.editClass(input.classId, common, input.idempotencyKey);
          }),
          cancel: fromPromise(({ input }) => browserApiOrThrow().schedule.cancelClass(input.classId, input.idempotencyKey)),
        },
        actions: { done: () => void navigate(back) },
      }),
    [navigate, back],
  );
  const actor = useActorRef(logic, { input: { classId, values } });
  const busy = useSelector(actor, (s) => s.hasTag('busy'));
  // the cancel confirm is open: submitting, refused and unreachable below are the cancel's, else the save's
  const asking = useSelector(actor, (s) => s.hasTag('asking'));
  const submitting = useSelector(actor, (s) => s.hasTag('submitting'));
  const refused = useSelector(actor, (s) => s.hasTag('refused'));
  const unreachable = useSelector(actor, (s) => s.hasTag('unreachable'));
  const ctx = useSelector(actor, (s) => s.context);
  const v = ctx.values;
  const change = (field: keyof ClassFormValues) => (e: { target: { value: string } }) =>
    actor.send({ type: 'field.change', field, value: e.target.value });
  const fieldError = (field: string) =>
    refused && !asking && ctx.errorField === field ? (
      <p className="text-sm text-rose-700" data-field-error={field}>
        {i18n._(refusalMessage(ctx.errorCode))}
      </p>
    ) : null;
  const input = 'min-h-11 w-full rounded-lg border border-black/15 p-2';
  return (
    <Block className="space-y-3" data-class-form={classId ?? 'new'}>
      <Link to={back} className="inline-flex min-h-11 items-center text-primary">
        <Trans>返回本周课程</Trans>
      </Link>
      <h1 className="text-base font-semibold">{classId === null ? <Trans>新建课程</Trans> : <Trans>修改课程：{title}</Trans>}</h1>
      {classId === null ? (
        <>
          <label className="block space-y-1">
            <span className="text-sm text-black/60">
              <Trans>门店</Trans>
            </span>
            <select name="clubId" className={input} value={v.clubId} disabled={busy} onChange={change('clubId')}>
              {week.clubs.map((c) => (
                <option key={c.id} value={c.id}>
                  {c.name}
                </option>
              ))}
            </select>
            {fieldError('clubId')}
          </label>
          <label className="block space-y-1">
            <span className="text-sm text-black/60">
              <Trans>课程类型</Trans>
            </span>
            <select name="classType" className={input} value={v.classType} disabled={busy} onChange={change('classType')}>
              {CLASS_TYPES.map((t) => (
                <option key={t.value} value={t.value}>
                  {i18n.locale === 'en' ? t.en : t.zh}
                </option>
              ))}
            </select>
          </label>
          <label className="block space-y-1">
            <span className="text-sm text-black/60">
              <Trans>课程名称</Trans>
            </span>
            <input name="title" className={input} value={v.title} disabled={busy} onChange={change('title')} />
            {fieldError('title')}
          </label>
          <label className="block space-y-1">
            <span className="text-sm text-black/60">
              <Trans>教室</Trans>
            </span>
            <input name="room" className={input} value={v.room} disabled={busy} onChange={change('room')} />
            {fieldError('room')}
          </label>
        </>
      ) : null}
      <label className="block space-y-1">
        <span className="text-sm text-black/60">
          <Trans>人数上限</Trans>
        </span>
        <input
          name="capacity"
          type="number"
          inputMode="numeric"
          className={input}
          value={v.capacity}
          disabled={busy}
          onChange={change('capacity')}
        />
        {fieldError('capacity')}
      </label>
      <label className="block space-y-1">
        <span className="text-sm text-black/60">
          <Trans>日期</Trans>
        </span>
        <input name="day" type="date" className={input} value={v.day} disabled={busy} onChange={change('day')} />
        {fieldError('day')}
      </label>
      <div className="grid-12 cols-2 gap-y-2">
        <label className="block space-y-1">
          <span className="text-sm text-black/60">
            <Trans>上课时间</Trans>
          </span>
          <input name="start" type="time" className={input} value={v.start} disabled={busy} onChange={change('start')} />
          {fieldError('start')}
        </label>
        <label className="block space-y-1">
          <span className="text-sm text-black/60">
            <Trans>下课时间</Trans>
          </span>
          <input name="end" type="time" className={input} value={v.end} disabled={busy} onChange={change('end')} />
          {fieldError('end')}
        </label>
      </div>
      <label className="block space-y-1">
        <span className="text-sm text-black/60">
          <Trans>老师（安排后请老师确认）</Trans>
        </span>
        <select name="teacherId" className={input} value={v.teacherId} disabled={busy} onChange={change('teacherId')}>
          <option value="">{i18n._(msgNoTeacher)}</option>
          {week.teachers.map((t) => (
            <option key={t.id} value={t.id}>
              {t.name}
            </option>
          ))}
        </select>
        {fieldError('teacherId')}
      </label>
      <p role="alert" className="min-h-5 text-sm text-rose-700" data-form-feedback={ctx.errorCode ?? undefined}>
        {refused && (asking || !ctx.errorField)
          ? i18n._(refusalMessage(ctx.errorCode))
          : unreachable
            ? i18n._(Errors.network.message)
            : null}
      </p>
      {!asking ? (
        <Button
          large
          rounded
          className="min-h-11"
          data-action="save"
          disabled={busy || refused}
          onClick={() => actor.send({ type: unreachable ? 'network.retry' : 'form.save' })}
        >
          {submitting ? <Trans>保存中…</Trans> : unreachable ? <Trans>重试</Trans> : <Trans>保存</Trans>}
        </Button>
      ) : null}
      {classId !== null && !asking && !submitting && !unreachable ? (
        <Button
          large
          rounded
          outline
          className="min-h-11"
          data-action="cancel-ask"
          disabled={busy}
          onClick={() => actor.send({ type: 'cancel.ask' })}
        >
          <Trans>取消这节课</Trans>
        </Button>
      ) : null}
      {asking ? (
        <section className="space-y-2 rounded-xl bg-rose-50 p-3" data-cancel-confirm>
          <p className="text-sm">
            <Trans>取消后，这节课的所有预约都会取消，会员卡次数退回，排队清空，并通知每位会员。确定取消吗？</Trans>
          </p>
          <div className="flex gap-2">
            <Button
              rounded
              outline
              className="min-h-11"
              data-action="cancel-back"
              disabled={submitting}
              onClick={() => actor.send({ type: 'cancel.back' })}
            >
              <Trans>再想想</Trans>
            </Button>
            {!refused ? (
              <Button
                rounded
                className="min-h-11"
                data-action="cancel-confirm"
                disabled={submitting}
                onClick={() => actor.send({ type: unreachable ? 'network.retry' : 'cancel.confirm' })}
              >
                {submitting ? <Trans>取消中…</Trans> : unreachable ? <Trans>重试</Trans> : <Trans>确定取消</Trans>}
              </Button>
            ) : null}
          </div>
        </section>
      ) : null}
    </Block>
  );
}
