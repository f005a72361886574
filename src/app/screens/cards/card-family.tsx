import { Trans } from '@lingui/react/macro';
import { useActorRef, useSelector } from '@xstate/react';
import { Block, Button, List, ListItem } from 'konsta/react';
import { LabelledInput } from '../../ui/labelled-input';
import { useMemo } from 'react';
import { fromPromise } from 'xstate';
import { cardFamilyMachine } from '../../../../machines/card-family.machine';
import type { MemberCardDetail } from '../../../api/cards';
import { isOk, type Envelope } from '../../../domain/envelope';
import { browserApiOrThrow } from '../../api-context';
import { UnreachableRetry } from '../../ui/unreachable-retry';
import { useStableRevalidate } from '../../ui/use-stable-revalidate';
import { CardFormFooter } from './card-form-footer';
import { OfferRefused } from './offer-refused';

/** The data of an answer, or a throw (a read that failed is "unreachable, retry"). */
function dataOf<T>(r: Envelope<T>): T {
  if (!isOk(r)) throw new Error(`refused ${r.code}`);
  return r.data;
}

/**
 * A family main card's sub cards (decision 040) through the card-family machine: "family
 * sub cards" when the server offers it (else its reason); the holders (masked) with "remove", and a
 * phone to add one while a place is free. Each change reloads the card, so its timeline shows it.
 */
export function CardFamilyEntry(props: { card: MemberCardDetail }) {
  const { card } = props;
  const revalidate = useStableRevalidate();
  const offer = card.offers.find((o) => o.operation === 'family');
  const logic = useMemo(
    () =>
      cardFamilyMachine.provide({
        actors: {
          loadFamily: fromPromise(async ({ input }) => dataOf(await browserApiOrThrow().cards.family(input.id))),
          addSub: fromPromise(({ input }) =>
            browserApiOrThrow().cards.addFamilySub({ id: input.id, phone: input.phone }, input.idempotencyKey),
          ),
          removeSub: fromPromise(({ input }) =>
            browserApiOrThrow().cards.removeFamilySub({ id: input.id, subId: input.subId }, input.idempotencyKey),
          ),
        },
        actions: { cardChanged: revalidate },
      }),
    [revalidate],
  );
  const item = useActorRef(logic, { input: { cardId: card.id, offered: offer?.allowed ?? false } });
  const editing = useSelector(item, (s) => s.hasTag('editing'));
  const busy = useSelector(item, (s) => s.hasTag('busy'));
  const loading = useSelector(item, (s) => s.hasTag('loading'));
  const unreachable = useSelector(item, (s) => s.hasTag('unreachable'));
  const adding = useSelector(item, (s) => s.matches('adding'));
  const removing = useSelector(item, (s) => s.matches('removing'));
  const form = useSelector(item, (s) => s.context);
  if (!offer) return null;

  if (unreachable) {
    return (
      <p className="text-center">
        <UnreachableRetry onRetry={() => item.send({ type: 'network.retry' })} onClose={() => item.send({ type: 'form.close' })} />
      </p>
    );
  }
  if (loading) {
    return (
      <p className="text-center text-sm text-black/60" data-family-loading>
        <Trans>正在加载副卡…</Trans>
      </p>
    );
  }
  if (editing && form.family) {
    const f = form.family;
    return (
      <div data-family-form className="rounded-xl border border-black/10">
        <Block className="!my-2 text-sm">
          <p data-family-places>
            <Trans>
              副卡 {f.members.length}/{f.slots}：副卡持有人用这张卡预约课程，共用次数和有效期。
            </Trans>
          </p>
        </Block>
        <List strong inset className="!my-2" data-family-members>
          {f.members.length === 0 && <ListItem title={<Trans>还没有副卡持有人</Trans>} />}
          {f.members.map((m) => (
            <ListItem
              key={m.id}
              title={[m.name, m.phone].filter(Boolean).join(' ')}
              data-family-member={m.id}
              after={
                <Button
                  small
                  rounded
                  outline
                  className="!min-h-11"
                  disabled={busy}
                  onClick={() => item.send({ type: 'family.remove', subId: m.id })}
                  data-action={`family-remove-${m.id}`}
                >
                  {removing && form.subId === m.id ? <Trans>正在解除…</Trans> : <Trans>解除</Trans>}
                </Button>
              }
            />
          ))}
          {f.canAdd && (
            <LabelledInput
              label={<Trans>新副卡持有人手机号</Trans>}
              type="tel"
              name="phone"
              value={form.phone}
              disabled={busy}
              onChange={(e: { target: { value: string } }) => item.send({ type: 'phone.change', phone: e.target.value })}
            />
          )}
        </List>
        <Block className="!my-2 space-y-2 text-sm">
          {form.missing && (
            <p role="alert" className="text-rose-600" data-family-missing>
              <Trans>请输入副卡持有人的手机号</Trans>
            </p>
          )}
          <CardFormFooter
            name="family"
            errorCode={form.errorCode}
            working={adding}
            submitDisabled={busy || !f.canAdd}
            workingLabel={<Trans>正在添加…</Trans>}
            submitLabel={<Trans>添加副卡</Trans>}
            onCancel={() => item.send({ type: 'form.close' })}
            onSubmit={() => item.send({ type: 'family.add' })}
          />
        </Block>
      </div>
    );
  }
  return offer.allowed ? (
    <Button large rounded outline onClick={() => item.send({ type: 'family.open' })} data-action="family-open">
      <Trans>亲情卡副卡</Trans>
    </Button>
  ) : (
    <OfferRefused offer={offer} label={<Trans>亲情卡副卡</Trans>} />
  );
}
