import { msg } from '@lingui/core/macro';
import { useLingui } from '@lingui/react';
import { Trans } from '@lingui/react/macro';
import { useActorRef, useSelector } from '@xstate/react';
import { Button } from 'konsta/react';
import { useMemo, useRef } from 'react';
import { fromPromise } from 'xstate';
import { cardItemMachine } from '../../../../machines/card-item.machine';
import type { CardStatus } from '../../../../machines/domain/card-transitions';
import { browserApiOrThrow } from '../../api-context';
import { useConfirmWhile } from '../../ui/confirm';
import { useToast } from '../../ui/toast';
import { UnreachableRetry } from '../../ui/unreachable-retry';
import { useStableRevalidate } from '../../ui/use-stable-revalidate';
import { refusalMessage } from '../../ui/refusal-message';

const activatedMsg = msg`会员卡已激活`;

/**
 * Activate one of my cards by hand (spec §4 operation activate), through the card-item machine: the
 * card chart says whether the status allows it; a confirm step says the validity starts now; a done
 * activation reloads the page's data.
 */
export function ActivateCard(props: { cardId: number; status: CardStatus }) {
  const { i18n } = useLingui();
  const toast = useToast();
  const revalidate = useStableRevalidate();
  // what the machine says goes through the toast and the language of the moment
  const say = useRef({ toast, i18n });
  say.current = { toast, i18n };

  const logic = useMemo(
    () =>
      cardItemMachine.provide({
        actors: {
          activateCard: fromPromise(({ input }) => browserApiOrThrow().cards.activateCard(input.cardId, input.idempotencyKey)),
        },
        actions: {
          cardChanged: revalidate,
          sayActivated: () => void say.current.toast(say.current.i18n._(activatedMsg)),
          sayRefused: (_, { code }) => void say.current.toast({ message: say.current.i18n._(refusalMessage(code)), type: 'fail' }),
        },
      }),
    [revalidate],
  );
  const item = useActorRef(logic, { input: { cardId: props.cardId, status: props.status } });
  const confirming = useSelector(item, (s) => s.matches({ activating: 'confirming' }));
  const busy = useSelector(item, (s) => s.hasTag('busy'));
  const unreachable = useSelector(item, (s) => s.hasTag('unreachable'));
  const offered = useSelector(item, (s) => s.matches('idle') && s.can({ type: 'card.activate' }));
  // the chart decides whether there is anything to confirm
  useConfirmWhile(
    confirming,
    {
      title: <Trans>激活会员卡</Trans>,
      message: <Trans>激活后立即开始计算有效期，确定现在激活吗？</Trans>,
      confirmText: <Trans>确定激活</Trans>,
      cancelText: <Trans>再想想</Trans>,
    },
    (confirmed) => item.send({ type: confirmed ? 'confirm.accept' : 'confirm.dismiss' }),
  );

  if (unreachable) {
    return (
      <p className="text-center">
        <UnreachableRetry onRetry={() => item.send({ type: 'network.retry' })} onClose={() => item.send({ type: 'confirm.dismiss' })} />
      </p>
    );
  }
  if (!offered && !confirming && !busy) return null;

  return (
    <Button large rounded disabled={busy} data-action="activate" onClick={() => item.send({ type: 'card.activate' })}>
      {busy ? <Trans>正在激活…</Trans> : <Trans>立即激活</Trans>}
    </Button>
  );
}
