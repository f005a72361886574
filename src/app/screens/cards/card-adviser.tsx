import { msg } from '@lingui/core/macro';
import { useLingui } from '@lingui/react';
import { Trans } from '@lingui/react/macro';
import { useActorRef, useSelector } from '@xstate/react';
import { Block, Button, List } from 'konsta/react';
import { LabelledInput } from '../../ui/labelled-input';
import { useMemo, useRef } from 'react';
import { fromPromise } from 'xstate';
import { cardAdviserMachine } from '../../../../machines/card-adviser.machine';
import type { MemberCardDetail } from '../../../api/cards';
import { isOk, type Envelope } from '../../../domain/envelope';
import { browserApiOrThrow } from '../../api-context';
import { useToast } from '../../ui/toast';
import { UnreachableRetry } from '../../ui/unreachable-retry';
import { useStableRevalidate } from '../../ui/use-stable-revalidate';
import { OfferRefused } from './offer-refused';
import { CardFormFooter } from './card-form-footer';

const changedMsg = msg`顾问已更换`;
const MISSING = { clubId: msg`请选择门店`, adviserId: msg`请选择顾问` } as const;

/** The data of an answer, or a throw (a read that failed is "unreachable, retry"). */
function dataOf<T>(r: Envelope<T>): T {
  if (!isOk(r)) throw new Error(`refused ${r.code}`);
  return r.data;
}

/**
 * The card's adviser on its page (spec §4, §5; decision 034) through the card-adviser machine: who
 * advises the card now, and "change adviser" when the server offers it (else its reason); the form
 * takes a club first, then one of its advisers, both required. The page keys it by the card's status
 * and adviser, so after a reload it starts from the card as it is.
 */
export function CardAdviserEntry(props: { card: MemberCardDetail }) {
  const { card } = props;
  const { i18n } = useLingui();
  const toast = useToast();
  const revalidate = useStableRevalidate();
  const say = useRef({ toast, i18n });
  say.current = { toast, i18n };
  const logic = useMemo(
    () =>
      cardAdviserMachine.provide({
        actors: {
          loadClubs: fromPromise(async () => dataOf(await browserApiOrThrow().catalog.clubs()).map((c) => ({ id: c.id, name: c.name }))),
          loadAdvisers: fromPromise(async ({ input }) => dataOf(await browserApiOrThrow().cards.advisers(input.clubId))),
          changeAdviser: fromPromise(({ input }) =>
            browserApiOrThrow().cards.changeAdviser(
              { id: input.id, clubId: input.clubId, adviserId: input.adviserId },
              input.idempotencyKey,
            ),
          ),
        },
        actions: { cardChanged: revalidate, sayChanged: () => void say.current.toast(say.current.i18n._(changedMsg)) },
      }),
    [revalidate],
  );
  const offer = card.offers.find((o) => o.operation === 'changeAdviser');
  const item = useActorRef(logic, { input: { cardId: card.id, status: card.status, adviser: card.adviser } });
  const editing = useSelector(item, (s) => s.hasTag('editing'));
  const busy = useSelector(item, (s) => s.hasTag('busy'));
  const loading = useSelector(item, (s) => s.hasTag('loading'));
  const unreachable = useSelector(item, (s) => s.hasTag('unreachable'));
  const changing = useSelector(item, (s) => s.matches('changing'));
  const loadingAdvisers = useSelector(item, (s) => s.matches('loadingAdvisers'));
  const form = useSelector(item, (s) => s.context);

  const current = (
    <p className="text-center text-sm" data-card-adviser>
      {card.adviser ? (
        <Trans>
          顾问：{card.adviser.name}（{card.adviser.clubName}）
        </Trans>
      ) : (
        <Trans>顾问：未选择</Trans>
      )}
    </p>
  );

  if (unreachable) {
    return (
      <p className="text-center">
        <UnreachableRetry onRetry={() => item.send({ type: 'network.retry' })} onClose={() => item.send({ type: 'form.close' })} />
      </p>
    );
  }
  if (loading) {
    return (
      <p className="text-center text-sm text-black/60" data-adviser-loading>
        <Trans>正在加载门店…</Trans>
      </p>
    );
  }
  if (editing) {
    return (
      <div data-adviser-form className="rounded-xl border border-black/10">
        <List strong inset className="!my-2">
          <LabelledInput
            label={<Trans>门店</Trans>}
            type="select"
            name="clubId"
            value={form.clubId === undefined ? '' : String(form.clubId)}
            disabled={changing}
            onChange={(e: { target: { value: string } }) =>
              e.target.value !== '' && item.send({ type: 'club.choose', clubId: Number(e.target.value) })
            }
          >
            <option value="">{i18n._(msg`请选择门店`)}</option>
            {form.clubs.map((c) => (
              <option key={c.id} value={c.id}>
                {c.name}
              </option>
            ))}
          </LabelledInput>
          <LabelledInput
            label={<Trans>顾问</Trans>}
            type="select"
            name="adviserId"
            value={form.adviserId === undefined ? '' : String(form.adviserId)}
            disabled={busy || form.clubId === undefined}
            onChange={(e: { target: { value: string } }) =>
              e.target.value !== '' && item.send({ type: 'adviser.choose', adviserId: Number(e.target.value) })
            }
          >
            <option value="">{loadingAdvisers ? i18n._(msg`正在加载顾问…`) : i18n._(msg`请选择顾问`)}</option>
            {form.advisers.map((a) => (
              <option key={a.id} value={a.id}>
                {a.name}
              </option>
            ))}
          </LabelledInput>
        </List>
        <Block className="!my-2 space-y-2 text-sm">
          {form.missing !== undefined && (
            <p role="alert" className="text-rose-600" data-adviser-missing={form.missing}>
              {i18n._(MISSING[form.missing])}
            </p>
          )}
          <CardFormFooter
            name="adviser"
            errorCode={form.errorCode}
            working={changing}
            submitDisabled={busy}
            workingLabel={<Trans>正在更换…</Trans>}
            submitLabel={<Trans>确认更换</Trans>}
            onCancel={() => item.send({ type: 'form.close' })}
            onSubmit={() => item.send({ type: 'adviser.submit' })}
          />
        </Block>
      </div>
    );
  }
  return (
    <div className="space-y-2">
      {current}
      {offer &&
        (offer.allowed ? (
          <Button large rounded outline onClick={() => item.send({ type: 'adviser.open' })} data-action="change-adviser">
            <Trans>更换顾问</Trans>
          </Button>
        ) : (
          <OfferRefused offer={offer} label={<Trans>更换顾问</Trans>} />
        ))}
    </div>
  );
}
