import { msg } from '@lingui/core/macro';
import { useLingui } from '@lingui/react';
import { Trans } from '@lingui/react/macro';
import { useActorRef, useSelector } from '@xstate/react';
import { Button } from 'konsta/react';
import { useCallback, useMemo, useRef } from 'react';
import { useRevalidator } from 'react-router-dom';
import { fromPromise } from 'xstate';
import { bookingItemMachine } from '../../../../machines/booking-item.machine';
import { canApply } from '../../../../machines/domain/booking-transitions';
import type { CancelGives } from '../../../api/booking';
import type { BookingRowState } from '../../../domain/booking-rules';
import { browserApiOrThrow } from '../../api-context';
import { SessionContext } from '../../session/session-provider';
import { useConfirmWhile } from '../../ui/confirm';
import { useToast } from '../../ui/toast';
import { UnreachableRetry } from '../../ui/unreachable-retry';
import { refusalMessage } from '../../ui/refusal-message';

const cancelledMsg = msg`已取消预约`;

/** The cancel dialog's words: what comes back, and, when this seat activated its card, that the card stays activated. */
function CancelMessage(props: { gives: CancelGives | null }) {
  const g = props.gives;
  return (
    <span className="block" data-cancel-gives={g ? `${g.usesBack}:${g.cardStaysActive}` : undefined}>
      <span className="block">
        <Trans>确定取消这节课的预约吗？</Trans>
      </span>
      {g && g.usesBack > 0 && (
        <span className="block">
          <Trans>{g.usesBack}次会退回会员卡。</Trans>
        </span>
      )}
      {g?.cardStaysActive && (
        <span className="mt-1 block text-amber-700">
          <Trans>这张卡因这次预约而激活：取消后仍保持激活，有效期照常计算。</Trans>
        </span>
      )}
    </span>
  );
}
const leftQueueMsg = msg`已取消排队`;

/**
 * Cancel booking / cancel queue for one booking (spec §4), through the booking-item machine: the
 * domain chart says which change the state allows, the server's flag whether time still allows it.
 * A done change refreshes the footer badge and the screen's data.
 */
export function BookingActions(props: {
  bookingId: number;
  state: BookingRowState;
  canCancel: boolean;
  canCancelQueue: boolean;
  /** what cancelling the seat gives back (the server's answer), said before the member confirms */
  gives?: CancelGives | null;
  block?: boolean;
}) {
  const { i18n } = useLingui();
  const toast = useToast();
  const session = SessionContext.useActorRef();
  const revalidator = useRevalidator();
  // the revalidator object changes each render; a stable callback keeps the machine's logic stable
  const latest = useRef(revalidator);
  latest.current = revalidator;
  const revalidate = useCallback(() => void latest.current.revalidate(), []);
  // the same for what the machine says: the toast and the language of the moment
  const say = useRef({ toast, i18n });
  say.current = { toast, i18n };

  const logic = useMemo(
    () =>
      bookingItemMachine.provide({
        actors: {
          applyChange: fromPromise(({ input }) => {
            const { booking } = browserApiOrThrow();
            return input.change === 'seat'
              ? booking.cancel(input.bookingId, input.idempotencyKey)
              : booking.cancelQueue(input.bookingId, input.idempotencyKey);
          }),
        },
        actions: {
          bookingChanged: () => {
            session.send({ type: 'booked.refresh' });
            revalidate();
          },
          sayChanged: (_, { change }) => void say.current.toast(say.current.i18n._(change === 'seat' ? cancelledMsg : leftQueueMsg)),
          sayRefused: (_, { code }) => void say.current.toast({ message: say.current.i18n._(refusalMessage(code)), type: 'fail' }),
        },
      }),
    [session, revalidate],
  );
  const item = useActorRef(logic, { input: { bookingId: props.bookingId, state: props.state } });
  const busy = useSelector(item, (s) => s.hasTag('busy'));
  const unreachable = useSelector(item, (s) => s.hasTag('unreachable'));
  const changed = useSelector(item, (s) => s.matches('changed'));
  // the chart decides whether there is anything to confirm, and which change it asks about
  const asking = useSelector(item, (s) => (s.matches({ changing: 'confirming' }) ? (s.context.change ?? null) : null));
  useConfirmWhile(
    asking !== null,
    {
      title: asking === 'queue' ? <Trans>取消排队</Trans> : <Trans>取消预约</Trans>,
      message: asking === 'queue' ? <Trans>确定退出这节课的排队吗？</Trans> : <CancelMessage gives={props.gives ?? null} />,
      confirmText: <Trans>确定</Trans>,
      cancelText: <Trans>再想想</Trans>,
    },
    (confirmed) => item.send({ type: confirmed ? 'confirm.accept' : 'confirm.dismiss' }),
  );
  const seat = props.canCancel && canApply(props.state, 'booking.cancel');
  const queue = props.canCancelQueue && canApply(props.state, 'queue.cancel');
  if (!seat && !queue) return null;

  if (unreachable) {
    return <UnreachableRetry onRetry={() => item.send({ type: 'network.retry' })} onClose={() => item.send({ type: 'confirm.dismiss' })} />;
  }
  if (changed) return null;
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
      onClick={() => item.send({ type: seat ? 'booking.cancel' : 'queue.cancel' })}
    >
      {seat ? <Trans>取消预约</Trans> : <Trans>取消排队</Trans>}
    </Button>
  );
}
