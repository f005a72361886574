import { msg } from '@lingui/core/macro';
import { useLingui } from '@lingui/react';
import { Trans } from '@lingui/react/macro';
import { useActorRef, useSelector } from '@xstate/react';
import { Block, Button, List } from 'konsta/react';
import { LabelledInput } from '../../ui/labelled-input';
import { useMemo, useRef } from 'react';
import { fromPromise } from 'xstate';
import { cardExtendMachine } from '../../../../machines/card-extend.machine';
import type { MemberCardDetail } from '../../../api/cards';
import { extensionDateBounds, extensionDateRefusal } from '../../../domain/card-rules';
import { Errors } from '../../../domain/errors';
import { lastValidDay } from '../../../domain/time';
import { browserApiOrThrow } from '../../api-context';
import { useToast } from '../../ui/toast';
import { UnreachableRetry } from '../../ui/unreachable-retry';
import { useStableRevalidate } from '../../ui/use-stable-revalidate';
import { OfferRefused } from './offer-refused';
import { CardFormFooter } from './card-form-footer';

const extendedMsg = msg`会员卡已延期`;

/**
 * Extension on the card page (spec §4, §5; decision 024) through the card-extend machine: offered
 * when the server offers it (in use or expired, within the card type's rule), else its reason; the
 * form takes the new last valid day. The page keys it by the card's end and extensions, so after a
 * reload it starts from the card as it is.
 */
export function CardExtend(props: { card: MemberCardDetail; today: string }) {
  const { card, today } = props;
  const { i18n } = useLingui();
  const toast = useToast();
  const revalidate = useStableRevalidate();
  const say = useRef({ toast, i18n });
  say.current = { toast, i18n };
  const logic = useMemo(
    () =>
      cardExtendMachine.provide({
        actors: {
          extendCard: fromPromise(({ input }) =>
            browserApiOrThrow().cards.extendCard({ id: input.id, until: input.until }, input.idempotencyKey),
          ),
        },
        actions: { cardChanged: revalidate, sayExtended: () => void say.current.toast(say.current.i18n._(extendedMsg)) },
      }),
    [revalidate],
  );
  const offer = card.offers.find((o) => o.operation === 'extend');
  const currentEnd = card.validUntil ? lastValidDay(new Date(card.validUntil)) : '';
  const maxDays = card.extension?.maxExtensionDays ?? 0;
  const item = useActorRef(logic, { input: { cardId: card.id, status: card.status, currentEnd, maxDays, today } });
  const editing = useSelector(item, (s) => s.hasTag('editing'));
  const busy = useSelector(item, (s) => s.hasTag('busy'));
  const unreachable = useSelector(item, (s) => s.hasTag('unreachable'));
  const form = useSelector(item, (s) => ({ until: s.context.until, errorCode: s.context.errorCode }));

  if (unreachable) {
    return (
      <p className="text-center">
        <UnreachableRetry onRetry={() => item.send({ type: 'network.retry' })} onClose={() => item.send({ type: 'form.close' })} />
      </p>
    );
  }
  if (editing) {
    // the card type's rule, said at the date before anything is sent; the picker offers only its days
    const refusal = extensionDateRefusal(currentEnd, maxDays, form.until, today);
    const bounds = extensionDateBounds({ validUntil: card.validUntil ? new Date(card.validUntil) : null }, card.extension, today);
    return (
      <div data-extend-form className="rounded-xl border border-black/10">
        <List strong inset className="!my-2">
          <LabelledInput
            label={<Trans>延期至</Trans>}
            type="date"
            name="until"
            min={bounds?.min}
            max={bounds?.max}
            value={form.until}
            error={refusal === null ? undefined : <span data-extend-date-wrong>{i18n._(Errors[refusal].message)}</span>}
            onChange={(e: { target: { value: string } }) => item.send({ type: 'date.change', until: e.target.value })}
          />
        </List>
        <Block className="!my-2 space-y-2 text-sm">
          <p className="text-black/60" data-extend-rule>
            <Trans>
              当前到期日期 {currentEnd}；每次最多延期{maxDays}天，共可延期{card.extension?.maxExtensions ?? 0}
              次，免费。
            </Trans>
          </p>
          <CardFormFooter
            name="extend"
            errorCode={form.errorCode}
            working={busy}
            submitDisabled={busy || refusal !== null}
            workingLabel={<Trans>正在延期…</Trans>}
            submitLabel={<Trans>确认延期</Trans>}
            onCancel={() => item.send({ type: 'form.close' })}
            onSubmit={() => item.send({ type: 'extend.submit' })}
          />
        </Block>
      </div>
    );
  }
  if (!offer) return null;
  return offer.allowed ? (
    <Button large rounded outline onClick={() => item.send({ type: 'extend.open' })} data-action="extend">
      <Trans>延期</Trans>
    </Button>
  ) : (
    <OfferRefused offer={offer} label={<Trans>延期</Trans>} />
  );
}
