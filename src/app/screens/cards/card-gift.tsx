import { Trans } from '@lingui/react/macro';
import { useActorRef, useSelector } from '@xstate/react';
import { Block, Button, List } from 'konsta/react';
import { LabelledInput } from '../../ui/labelled-input';
import { useMemo } from 'react';
import { Link } from 'react-router-dom';
import { fromPromise } from 'xstate';
import { cardGiftMachine } from '../../../../machines/card-gift.machine';
import type { MemberCardDetail } from '../../../api/cards';
import { browserApiOrThrow } from '../../api-context';
import { UnreachableRetry } from '../../ui/unreachable-retry';
import { CardFormFooter } from './card-form-footer';
import { OfferRefused } from './offer-refused';

/**
 * Giving the card as a gift (decision 040) through the card-gift machine: "give as a gift"
 * when the server offers it (else its reason), the friend's phone, confirm; once given, to whom
 * (masked) and a way back to my cards, since the card is no longer the member's.
 */
export function CardGiftEntry(props: { card: MemberCardDetail }) {
  const { card } = props;
  const offer = card.offers.find((o) => o.operation === 'gift');
  const logic = useMemo(
    () =>
      cardGiftMachine.provide({
        actors: {
          giveCard: fromPromise(({ input }) =>
            browserApiOrThrow().cards.giveCard({ id: input.id, phone: input.phone }, input.idempotencyKey),
          ),
        },
      }),
    [],
  );
  const item = useActorRef(logic, { input: { cardId: card.id, offered: offer?.allowed ?? false } });
  const editing = useSelector(item, (s) => s.hasTag('editing'));
  const busy = useSelector(item, (s) => s.hasTag('busy'));
  const unreachable = useSelector(item, (s) => s.hasTag('unreachable'));
  const given = useSelector(item, (s) => s.matches('given'));
  const form = useSelector(item, (s) => s.context);
  if (!offer) return null;

  if (given && form.given) {
    // a recipient with no name on record is named by their (masked) phone alone
    const who = form.given.recipientName ? `${form.given.recipientName}（${form.given.recipientPhone}）` : form.given.recipientPhone;
    return (
      <div className="space-y-2 text-center text-sm" data-gift-given>
        <p role="status">
          <Trans>已赠送给 {who}，这张卡已不在您的会员卡中。</Trans>
        </p>
        <Button large rounded outline component={Link} {...{ to: '/vipcard?tab=mine' }} data-action="gift-back">
          <Trans>返回我的会员卡</Trans>
        </Button>
      </div>
    );
  }
  if (unreachable) {
    return (
      <p className="text-center">
        <UnreachableRetry onRetry={() => item.send({ type: 'network.retry' })} onClose={() => item.send({ type: 'form.close' })} />
      </p>
    );
  }
  if (editing) {
    return (
      <div data-gift-form className="rounded-xl border border-black/10">
        <List strong inset className="!my-2">
          <LabelledInput
            label={<Trans>好友手机号</Trans>}
            type="tel"
            name="phone"
            value={form.phone}
            disabled={busy}
            onChange={(e: { target: { value: string } }) => item.send({ type: 'phone.change', phone: e.target.value })}
          />
        </List>
        <Block className="!my-2 space-y-2 text-sm">
          <p className="text-black/60">
            <Trans>赠送后这张卡归好友所有，不能撤回，也不能再次赠送。</Trans>
          </p>
          {form.missing && (
            <p role="alert" className="text-rose-600" data-gift-missing>
              <Trans>请输入好友的手机号</Trans>
            </p>
          )}
          <CardFormFooter
            name="gift"
            errorCode={form.errorCode}
            working={busy}
            submitDisabled={busy}
            workingLabel={<Trans>正在赠送…</Trans>}
            submitLabel={<Trans>确认赠送</Trans>}
            onCancel={() => item.send({ type: 'form.close' })}
            onSubmit={() => item.send({ type: 'gift.submit' })}
          />
        </Block>
      </div>
    );
  }
  return offer.allowed ? (
    <Button large rounded outline onClick={() => item.send({ type: 'gift.open' })} data-action="give-card">
      <Trans>赠送给好友</Trans>
    </Button>
  ) : (
    <OfferRefused offer={offer} label={<Trans>赠送给好友</Trans>} />
  );
}
