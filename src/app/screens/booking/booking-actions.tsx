import { msg } from '@lingui/core/macro';
import { useLingui } from '@lingui/react';
import { Trans } from '@lingui/react/macro';
import { useActorRef, useSelector } from '@xstate/react';
import { Button } from 'konsta/react';
import { useCallback, useEffect, useMemo, useRef } from 'react';
import { useRevalidator } from 'react-router-dom';
import { fromPromise } from 'xstate';
import { bookingItemMachine } from '../../../../machines/booking-item.machine';
import { canApply } from '../../../../machines/domain/booking-transitions';
import type { BookingRowState } from '../../../domain/booking-rules';
import { Errors } from '../../../domain/errors';
import { browserApiOrThrow } from '../../api-context';
import { SessionContext } from '../../session/session-provider';
import { useConfirm } from '../../ui/confirm';
import { useToast } from '../../ui/toast';
import { refusal } from './booking-labels';

const cancelledMsg = msg`已取消预约`;
const leftQueueMsg = msg`已取消排队`;

/**
 * Cancel booking / cancel queue for one booking (spec §4), through the booking-item machine: the
 * domain chart says which change the state allows, the server's flag whether time still allows it.
 * A done change refreshes the footer badge and the screen's data.
 */
export function BookingActions(props: { bookingId: number; state: BookingRowState; canCancel: boolean; canCancelQueue: boolean; block?: boolean }) {
  const { i18n } = useLingui();
  const confirm = useConfirm();
  const toast = useToast();
  const session = SessionContext.useActorRef();
  const revalidator = useRevalidator();
  // the revalidator object changes each render; a stable callback keeps the machine's logic stable
  const latest = useRef(revalidator);
  latest.current = revalidator;
  const revalidate = useCallback(() => void latest.current.revalidate(), []);

  const logic = useMemo(
    () =>
      bookingItemMachine.provide({
        actors: {
          cancelBooking: fromPromise(({ input }) => browserApiOrThrow().booking.cancel(input.bookingId, input.idempotencyKey)),
          cancelQueue: fromPromise(({ input }) => browserApiOrThrow().booking.cancelQueue(input.bookingId, input.idempotencyKey)),
        },
        actions: {
          bookingChanged: () => {
            session.send({ type: 'booked.refresh' });
            revalidate();
          },
        },
      }),
    [session, revalidate],
  );
  const item = useActorRef(logic, { input: { bookingId: props.bookingId, state: props.state } });
  const phase = useSelector(item, (s) =>
    s.status === 'done' ? String(s.value) : typeof s.value === 'string' ? s.value : Object.values(s.value as Record<string, string>)[0]!,
  );
  const errorCode = useSelector(item, (s) => s.context.errorCode);

  useEffect(() => {
    if (phase === 'cancelled') toast(i18n._(cancelledMsg));
    if (phase === 'leftQueue') toast(i18n._(leftQueueMsg));
    if (phase === 'refused') {
      toast({ message: i18n._(refusal(errorCode)), type: 'fail' });
      item.send({ type: 'confirm.dismiss' });
    }
  }, [phase, errorCode, i18n, toast, item]);

  const seat = props.canCancel && canApply(props.state, 'booking.cancel');
  const queue = props.canCancelQueue && canApply(props.state, 'queue.cancel');
  if (!seat && !queue) return null;
  const busy = phase === 'submitting';

  const ask = async (kind: 'seat' | 'queue') => {
    item.send({ type: kind === 'seat' ? 'booking.cancel' : 'queue.cancel' });
    const r = await confirm({
      title: kind === 'seat' ? <Trans>取消预约</Trans> : <Trans>取消排队</Trans>,
      message: kind === 'seat' ? <Trans>确定取消这节课的预约吗？次卡的次数会退回。</Trans> : <Trans>确定退出这节课的排队吗？</Trans>,
      confirmText: <Trans>确定</Trans>,
      cancelText: <Trans>再想想</Trans>,
    });
    item.send({ type: r.confirmed ? 'confirm.accept' : 'confirm.dismiss' });
  };

  if (phase === 'unreachable') {
    return (
      <span className="inline-flex items-center gap-2 text-sm text-rose-600" role="alert">
        {i18n._(Errors.network.message)}
        <Button small rounded inline onClick={() => item.send({ type: 'retry' })}>
          <Trans>重试</Trans>
        </Button>
        <Button small rounded inline clear onClick={() => item.send({ type: 'confirm.dismiss' })}>
          <Trans>关闭</Trans>
        </Button>
      </span>
    );
  }
  if (phase === 'cancelled' || phase === 'leftQueue') return null;
  return (
    <Button
      small={!props.block}
      large={props.block}
      rounded
      outline
      inline={!props.block}
      disabled={busy}
      className={props.block ? '' : 'w-auto px-3'}
      data-action={seat ? 'cancel-booking' : 'cancel-queue'}
      onClick={() => void ask(seat ? 'seat' : 'queue')}
    >
      {seat ? <Trans>取消预约</Trans> : <Trans>取消排队</Trans>}
    </Button>
  );
}
