import { useLingui } from '@lingui/react';
import { Trans } from '@lingui/react/macro';
import { useActorRef, useSelector } from '@xstate/react';
import { Block, Button } from 'konsta/react';
import { useMemo } from 'react';
import { data, Link, useLoaderData, type LoaderFunctionArgs } from 'react-router-dom';
import { fromPromise, type SnapshotFrom } from 'xstate';
import { scheduleConfirmMachine } from '../../../../machines/schedule-confirm.machine';
import type { TeacherClass } from '../../../api/schedule';
import { Errors } from '../../../domain/errors';
import { DECLINE_REASON_MAX } from '../../../domain/limits';
import { shanghaiDate } from '../../../domain/time';
import { apiFrom, browserApiOrThrow } from '../../api-context';
import { parseId } from '../../ui/data-or';
import { NotFoundState } from '../../ui/not-found-state';
import { useStableRevalidate } from '../../ui/use-stable-revalidate';
import { refusalMessage } from '../../ui/refusal-message';
import { classWhen, ForbiddenState, momentOf, ScheduleBadge } from './schedule-labels';

type FormData = { cls: TeacherClass | null; forbidden: boolean };

/** One class of the teacher's (`?id=&week=`, week: the class's day); another teacher's or unknown class: not found. */
export async function loader({ context, request }: LoaderFunctionArgs) {
  const params = new URL(request.url).searchParams;
  const id = parseId(params.get('id'));
  const week = params.get('week') ?? '';
  if (id === null || !/^\d{4}-\d{2}-\d{2}$/.test(week)) return data<FormData>({ cls: null, forbidden: false }, { status: 404 });
  const r = await apiFrom(context).schedule.teacherWeek(week);
  if (r.code === 70008) return data<FormData>({ cls: null, forbidden: true }, { status: 403 });
  if (r.code === 70003) return data<FormData>({ cls: null, forbidden: false }, { status: 404 });
  if (r.code !== 200) throw new Response(null, { status: 503 });
  const cls = r.data.classes.find((c) => c.id === id) ?? null;
  return data<FormData>({ cls, forbidden: false }, { status: cls ? 200 : 404 });
}

/**
 * /bindPage/teacherConfirmForm (decision 029): one class the teacher was asked to teach:
 * confirm it, or decline it with a reason (required), through the schedule confirmation machine.
 */
export default function TeacherConfirmFormScreen() {
  const { cls, forbidden } = useLoaderData<typeof loader>();
  if (forbidden) return <ForbiddenState forWhom="teacher" />;
  if (!cls)
    return <NotFoundState message={<Trans>没有找到这节课</Trans>} backTo="/bindPage/teacherConfirm" backLabel={<Trans>我的课表</Trans>} />;
  return <Form key={cls.id} cls={cls} />;
}

/** Where the class's answer stands, from the chart's tags (ready carries none); the decline's own states carry `declining`. */
const phaseOf = (s: SnapshotFrom<typeof scheduleConfirmMachine>) =>
  s.hasTag('confirmed')
    ? 'confirmed'
    : s.hasTag('declined')
      ? 'declined'
      : s.hasTag('refused')
        ? 'refused'
        : s.hasTag('declining')
          ? s.hasTag('submitting')
            ? 'sendingDecline'
            : s.hasTag('unreachable')
              ? 'declineUnreachable'
              : 'declining'
          : s.hasTag('submitting')
            ? 'confirming'
            : s.hasTag('unreachable')
              ? 'confirmUnreachable'
              : 'ready';

function Form({ cls }: { cls: TeacherClass }) {
  const { i18n } = useLingui();
  const revalidate = useStableRevalidate();
  const logic = useMemo(
    () =>
      scheduleConfirmMachine.provide({
        actors: {
          confirm: fromPromise(({ input }) =>
            browserApiOrThrow().schedule.confirm(input.target.kind === 'class' ? input.target.id : 0, input.idempotencyKey),
          ),
          decline: fromPromise(({ input }) =>
            browserApiOrThrow().schedule.decline(input.id, { reason: input.reason }, input.idempotencyKey),
          ),
        },
        actions: { changed: revalidate },
      }),
    [revalidate],
  );
  const actor = useActorRef(logic, { input: { target: { kind: 'class', id: cls.id } } });
  const phase = useSelector(actor, phaseOf);
  const ctx = useSelector(actor, (s) => s.context);
  const feedback =
    phase === 'refused'
      ? i18n._(refusalMessage(ctx.errorCode))
      : phase === 'confirmUnreachable' || phase === 'declineUnreachable'
        ? i18n._(Errors.network.message)
        : null;
  const form = phase === 'declining' || phase === 'sendingDecline' || phase === 'declineUnreachable';
  return (
    <Block className="space-y-3" data-schedule-form={phase}>
      <h1 className="mt-4 text-xl font-semibold">{cls.title}</h1>
      <p className="text-sm text-black/60 tabular-nums">
        {classWhen(cls.startsAt, cls.endsAt)} · {cls.clubName} · {cls.room}
      </p>
      <p>
        <ScheduleBadge state={cls.state} />
      </p>
      {cls.confirmBy && cls.state === 'waiting' ? (
        <p className="text-sm text-black/60" data-confirm-by>
          <Trans>请在 {momentOf(cls.confirmBy)} 前确认</Trans>
        </p>
      ) : null}
      {cls.declineReason ? (
        <p className="text-sm text-black/60" data-decline-reason>
          <Trans>无法上课的原因：{cls.declineReason}</Trans>
        </p>
      ) : null}
      <p role="alert" className="min-h-5 text-sm text-rose-600" data-schedule-feedback={ctx.errorCode ?? undefined}>
        {feedback}
      </p>
      {phase === 'confirmed' ? (
        <p className="font-semibold text-emerald-700" data-done="confirmed">
          <Trans>已确认，谢谢！</Trans>
        </p>
      ) : phase === 'declined' ? (
        <p className="font-semibold text-black/70" data-done="declined">
          <Trans>已告知门店，工作人员会重新安排老师</Trans>
        </p>
      ) : form ? (
        <div className="space-y-2">
          <label className="block text-sm font-semibold" htmlFor="decline-reason">
            <Trans>无法上课的原因</Trans>
          </label>
          <textarea
            id="decline-reason"
            className="w-full rounded-lg border border-black/15 p-2"
            rows={3}
            maxLength={DECLINE_REASON_MAX}
            value={ctx.reason}
            disabled={phase !== 'declining'}
            onChange={(e) => actor.send({ type: 'reason.change', value: e.target.value })}
          />
          {ctx.reasonMissing ? (
            <p className="text-sm text-rose-600" data-reason-missing>
              <Trans>请填写无法上课的原因</Trans>
            </p>
          ) : null}
          <Button
            large
            rounded
            disabled={phase === 'sendingDecline'}
            data-action="decline-submit"
            onClick={() => actor.send({ type: phase === 'declineUnreachable' ? 'network.retry' : 'decline.submit' })}
          >
            {phase === 'sendingDecline' ? (
              <Trans>提交中…</Trans>
            ) : phase === 'declineUnreachable' ? (
              <Trans>重试</Trans>
            ) : (
              <Trans>提交</Trans>
            )}
          </Button>
          {phase === 'declining' ? (
            <Button large rounded outline data-action="decline-cancel" onClick={() => actor.send({ type: 'decline.cancel' })}>
              <Trans>返回</Trans>
            </Button>
          ) : null}
        </div>
      ) : phase === 'refused' ? null : cls.canConfirm || phase !== 'ready' ? (
        <div className="space-y-2">
          <Button
            large
            rounded
            disabled={phase === 'confirming'}
            data-action="confirm"
            onClick={() => actor.send({ type: phase === 'confirmUnreachable' ? 'network.retry' : 'schedule.confirm' })}
          >
            {phase === 'confirming' ? (
              <Trans>确认中…</Trans>
            ) : phase === 'confirmUnreachable' ? (
              <Trans>重试</Trans>
            ) : (
              <Trans>确认上课</Trans>
            )}
          </Button>
          {cls.canDecline && phase === 'ready' ? (
            <Button large rounded outline data-action="decline-start" onClick={() => actor.send({ type: 'decline.start' })}>
              <Trans>无法上课</Trans>
            </Button>
          ) : null}
        </div>
      ) : null}
      <Link
        to={`/bindPage/teacherConfirm?week=${shanghaiDate(new Date(cls.startsAt))}`}
        className="inline-block text-primary"
        data-back-to-week
      >
        <Trans>返回本周课表</Trans>
      </Link>
    </Block>
  );
}
