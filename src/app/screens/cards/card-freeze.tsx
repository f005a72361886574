import { msg } from '@lingui/core/macro';
import { useLingui } from '@lingui/react';
import { Trans } from '@lingui/react/macro';
import { useActorRef, useSelector } from '@xstate/react';
import { Block, Button, List } from 'konsta/react';
import { LabelledInput } from '../../ui/labelled-input';
import { useMemo, useRef } from 'react';
import { fromPromise } from 'xstate';
import { cardFreezeMachine } from '../../../../machines/card-freeze.machine';
import type { MemberCardDetail } from '../../../api/cards';
import { daysBetween, freezeDateBounds, freezeDatesRefusal } from '../../../domain/card-rules';
import { Errors } from '../../../domain/errors';
import { browserApiOrThrow } from '../../api-context';
import { useConfirmWhile } from '../../ui/confirm';
import { useToast } from '../../ui/toast';
import { UnreachableRetry } from '../../ui/unreachable-retry';
import { useStableRevalidate } from '../../ui/use-stable-revalidate';
import { refusalMessage } from '../../ui/refusal-message';
import { OfferRefused } from './offer-refused';
import { CardFormFooter } from './card-form-footer';

const frozenMsg = msg`会员卡已冻结`;
const plannedMsg = msg`冻结已安排`;
const unfrozenMsg = msg`会员卡已解冻`;
const calledOffMsg = msg`冻结已取消`;

/**
 * Freeze and unfreeze on the card page (spec §4, §5; decision 024) through the card-freeze machine:
 * the server's offers say whether each is there or why not; the freeze form takes the first and the
 * last frozen day (Shanghai dates) and says how far the end date moves; unfreezing asks first. The
 * page keys it by the card's status and freeze, so after a reload it starts from the card as it is.
 */
export function CardFreeze(props: { card: MemberCardDetail; today: string }) {
  const { card, today } = props;
  const { i18n } = useLingui();
  const toast = useToast();
  const revalidate = useStableRevalidate();
  const say = useRef({ toast, i18n });
  say.current = { toast, i18n };

  const logic = useMemo(
    () =>
      cardFreezeMachine.provide({
        actors: {
          freezeCard: fromPromise(({ input }) =>
            browserApiOrThrow().cards.freezeCard({ id: input.id, from: input.from, until: input.until }, input.idempotencyKey),
          ),
          unfreezeCard: fromPromise(({ input }) => browserApiOrThrow().cards.unfreezeCard(input.id, input.idempotencyKey)),
        },
        actions: {
          cardChanged: revalidate,
          sayFrozen: (_, { planned }) => void say.current.toast(say.current.i18n._(planned ? plannedMsg : frozenMsg)),
          sayUnfrozen: (_, { calledOff }) => void say.current.toast(say.current.i18n._(calledOff ? calledOffMsg : unfrozenMsg)),
          sayRefused: (_, { code }) => void say.current.toast({ message: say.current.i18n._(refusalMessage(code)), type: 'fail' }),
        },
      }),
    [revalidate],
  );
  const planned = card.status === 'in_use' && card.frozenFrom !== null;
  const item = useActorRef(logic, {
    input: { cardId: card.id, today, status: card.status, freezePlanned: planned, validUntil: card.validUntil },
  });
  const editing = useSelector(item, (s) => s.hasTag('editing'));
  const busy = useSelector(item, (s) => s.hasTag('busy'));
  const unreachable = useSelector(item, (s) => s.hasTag('unreachable'));
  const confirming = useSelector(item, (s) => s.matches('confirmingUnfreeze'));
  const form = useSelector(item, (s) => ({ from: s.context.from, until: s.context.until, errorCode: s.context.errorCode }));
  const freezeOffer = card.offers.find((o) => o.operation === 'freeze');
  useConfirmWhile(
    confirming,
    {
      title: planned ? <Trans>取消冻结</Trans> : <Trans>解冻会员卡</Trans>,
      message: planned ? (
        <Trans>确定取消已安排的冻结吗？到期日期将恢复。</Trans>
      ) : (
        <Trans>确定现在解冻吗？未冻结的天数将从到期日期中扣回。</Trans>
      ),
      confirmText: planned ? <Trans>确定取消冻结</Trans> : <Trans>确定解冻</Trans>,
      cancelText: <Trans>再想想</Trans>,
    },
    (confirmed) => item.send({ type: confirmed ? 'confirm.accept' : 'confirm.dismiss' }),
  );
  const unfreezeOffer = card.offers.find((o) => o.operation === 'unfreeze');

  if (unreachable) {
    return (
      <p className="text-center">
        <UnreachableRetry onRetry={() => item.send({ type: 'network.retry' })} onClose={() => item.send({ type: 'confirm.dismiss' })} />
      </p>
    );
  }

  if (editing) {
    // the server's rule, said at the date it concerns before anything is sent
    const validUntil = card.validUntil === null ? null : new Date(card.validUntil);
    const refusal = freezeDatesRefusal({ from: form.from, until: form.until }, today, validUntil);
    const bounds = freezeDateBounds(form.from, today, validUntil);
    const days = refusal === null ? daysBetween(form.from, form.until) : 0;
    const wrong = refusal === null ? undefined : <span data-freeze-dates-wrong>{i18n._(Errors[refusal].message)}</span>;
    const fromWrong = refusal === 'freezeStartPast' || refusal === 'freezeAfterValidity';
    const setDates = (from: string, until: string) => item.send({ type: 'dates.change', from, until });
    return (
      <div data-freeze-form className="rounded-xl border border-black/10">
        <List strong inset className="!my-2">
          <LabelledInput
            label={<Trans>开始日期</Trans>}
            type="date"
            name="from"
            min={bounds.fromMin}
            max={bounds.fromMax}
            value={form.from}
            error={fromWrong ? wrong : undefined}
            onChange={(e: { target: { value: string } }) => setDates(e.target.value, form.until)}
          />
          <LabelledInput
            label={<Trans>结束日期</Trans>}
            type="date"
            name="until"
            min={bounds.untilMin}
            max={bounds.untilMax}
            value={form.until}
            error={!fromWrong ? wrong : undefined}
            onChange={(e: { target: { value: string } }) => setDates(form.from, e.target.value)}
          />
        </List>
        <Block className="!my-2 space-y-2 text-sm">
          <p className="text-black/60" data-freeze-rule>
            <Trans>最长冻结{card.freezeMaxDays}天，冻结期间不能预约。</Trans>
          </p>
          {refusal === null && (
            <p data-freeze-days>
              <Trans>
                共冻结{days}天，到期日期将顺延{days}天。
              </Trans>
            </p>
          )}
          <CardFormFooter
            name="freeze"
            errorCode={form.errorCode}
            working={busy}
            submitDisabled={busy || refusal !== null}
            workingLabel={<Trans>正在冻结…</Trans>}
            submitLabel={<Trans>确认冻结</Trans>}
            onCancel={() => item.send({ type: 'form.close' })}
            onSubmit={() => item.send({ type: 'freeze.submit' })}
          />
        </Block>
      </div>
    );
  }

  return (
    <div className="space-y-3" data-card-freeze>
      {card.frozenFrom && card.frozenUntil && (
        <p className="text-center text-sm text-sky-700" data-card-frozen-dates>
          {planned ? (
            <Trans>
              已安排冻结：{card.frozenFrom} 至 {card.frozenUntil}
            </Trans>
          ) : (
            <Trans>
              冻结中：{card.frozenFrom} 至 {card.frozenUntil}
            </Trans>
          )}
        </p>
      )}
      {unfreezeOffer?.allowed && (
        <Button large rounded outline disabled={busy} onClick={() => item.send({ type: 'unfreeze.ask' })} data-action="unfreeze">
          {busy ? <Trans>正在处理…</Trans> : planned ? <Trans>取消冻结</Trans> : <Trans>解冻</Trans>}
        </Button>
      )}
      {freezeOffer?.allowed ? (
        <Button large rounded outline onClick={() => item.send({ type: 'freeze.open' })} data-action="freeze">
          <Trans>冻结会员卡</Trans>
        </Button>
      ) : (
        freezeOffer && !unfreezeOffer?.allowed && <OfferRefused offer={freezeOffer} label={<Trans>冻结</Trans>} />
      )}
    </div>
  );
}
