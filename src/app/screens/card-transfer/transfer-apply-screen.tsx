import { msg } from '@lingui/core/macro';
import { useLingui } from '@lingui/react';
import { Trans } from '@lingui/react/macro';
import { useActorRef, useSelector } from '@xstate/react';
import { Block, BlockTitle, Button, List } from 'konsta/react';
import { LabelledInput } from '../../ui/labelled-input';
import { useMemo, useRef } from 'react';
import { useLoaderData, useNavigate } from 'react-router-dom';
import { fromPromise } from 'xstate';
import { cardTransferMachine, type TransferSubmission } from '../../../../machines/card-transfer.machine';
import type { Api } from '../../../api/index';
import { validIdNumber, validRealName } from '../../../domain/identity';
import { transferRecipientRefusal } from '../../../domain/card-transfer';
import { Errors } from '../../../domain/errors';
import { browserApiOrThrow } from '../../api-context';
import { NotFoundState } from '../../ui/not-found-state';
import { UnreachableRetry } from '../../ui/unreachable-retry';
import { refusalText } from '../../ui/refusal-message';
import { preparePhoto } from '../booking/prepare-photo';
import { transferLoader, transferStatePath, type TransferPageData } from './transfer-data';

export const loader = transferLoader;

const unreadableMsg = msg`无法读取这张图片，请换一张照片`;

/** The images uploaded, then the application: one intent, one key (a retry uploads again and applies once). */
async function submit(api: Api, s: TransferSubmission) {
  const ids: number[] = [];
  for (const image of [s.idPhoto, s.photo]) {
    const r = await api.cardTransfers.uploadImage(image);
    if (r.code !== 200) return { ...r, data: null as never };
    ids.push(r.data.imageId);
  }
  return api.cardTransfers.apply(
    { cardId: s.cardId, phone: s.phone, name: s.name, idNumber: s.idNumber, idPhotoId: ids[0]!, photoId: ids[1]!, agreed: true },
    s.idempotencyKey,
  );
}

/** One image input (the ID photo or the photo), scaled in the browser as the front photo is. */
function ImageInput(props: {
  name: 'idPhoto' | 'photo';
  chosen: boolean;
  disabled: boolean;
  label: React.ReactNode;
  onReady: (image: string) => void;
  onUnreadable: () => void;
}) {
  return (
    <label
      className={`flex h-10 cursor-pointer items-center justify-center rounded-full border border-primary px-4 text-sm text-primary ${props.chosen ? 'bg-primary/10' : ''}`}
      data-image-chosen={props.chosen ? props.name : undefined}
    >
      {props.label}
      {props.chosen && <span className="ml-1">✓</span>}
      <input
        type="file"
        name={props.name}
        accept="image/jpeg,image/png,image/webp"
        className="sr-only"
        disabled={props.disabled}
        onChange={async (e) => {
          const file = e.currentTarget.files?.[0];
          e.currentTarget.value = '';
          if (!file) return;
          try {
            props.onReady((await preparePhoto(file)).image);
          } catch {
            props.onUnreadable();
          }
        }}
      />
    </label>
  );
}

/**
 * /mine/transferapply?id=: the transfer application through the card-transfer machine (spec §3, §5;
 * decision 026): the recipient's phone looked up first (a masked name, or no such member), then the
 * name, ID number and the two images; applied, the member sees the application's state.
 */
export default function TransferApplyScreen() {
  const { card, ownPhone } = useLoaderData() as TransferPageData;
  const { i18n } = useLingui();
  const navigate = useNavigate();
  const go = useRef(navigate);
  go.current = navigate;
  const unreadable = useRef<string | null>(null);
  const cardId = card?.id ?? 0;
  const logic = useMemo(
    () =>
      cardTransferMachine.provide({
        actors: {
          lookupMember: fromPromise(({ input }) => browserApiOrThrow().cardTransfers.memberByPhone(input.phone)),
          submitTransfer: fromPromise(({ input }) => submit(browserApiOrThrow(), input)),
        },
        actions: { showState: () => void go.current(transferStatePath(cardId)) },
      }),
    [cardId],
  );
  const flow = useActorRef(logic, { input: { cardId, ownPhone } });
  const lookup = useSelector(flow, (s) => s.hasTag('lookup'));
  const shown = useSelector(flow, (s) => s.hasTag('form'));
  const busy = useSelector(flow, (s) => s.hasTag('busy'));
  const unreachable = useSelector(flow, (s) => s.hasTag('unreachable'));
  const notFound = useSelector(flow, (s) => s.matches('notFound'));
  const c = useSelector(flow, (s) => s.context);
  if (!card)
    return <NotFoundState message={<Trans>没有找到这张会员卡</Trans>} backTo="/vipcard?tab=mine" backLabel={<Trans>我的会员卡</Trans>} />;
  // the server's refusal of one's own phone, said at the phone before any lookup or upload
  const toSelf = transferRecipientRefusal(c.phone, ownPhone);
  const complete = validRealName(c.name) && validIdNumber(c.idNumber) && Boolean(c.idPhoto) && Boolean(c.photo);
  return (
    <article className="pb-6" data-transfer-apply={card.id}>
      <BlockTitle>
        <Trans>转让会员卡：{card.name}</Trans>
      </BlockTitle>
      <List strong inset className="!my-2">
        <LabelledInput
          label={<Trans>受让人手机号</Trans>}
          type="tel"
          name="phone"
          value={c.phone}
          disabled={busy}
          error={toSelf === null ? undefined : <span data-transfer-phone-wrong>{i18n._(Errors[toSelf].message)}</span>}
          onChange={(e: { target: { value: string } }) => flow.send({ type: 'phone.change', phone: e.target.value.trim() })}
        />
      </List>
      <Block className="!my-2 space-y-2 text-sm">
        {lookup && (
          <Button
            rounded
            disabled={busy || toSelf !== null}
            onClick={() => flow.send({ type: 'phone.lookup' })}
            data-action="transfer-lookup"
          >
            {busy ? <Trans>正在查询…</Trans> : <Trans>查询会员</Trans>}
          </Button>
        )}
        {notFound && (
          <p role="alert" className="text-rose-600" data-transfer-not-found>
            {i18n._(Errors.noSuchMember.message)}
          </p>
        )}
        {unreachable && !shown && (
          <UnreachableRetry
            onRetry={() => flow.send({ type: 'network.retry' })}
            onClose={() => flow.send({ type: 'phone.change', phone: c.phone })}
          />
        )}
        {typeof c.recipient === 'string' && shown && (
          <p data-transfer-recipient>
            <Trans>受让会员：{c.recipient}</Trans>
          </p>
        )}
        {c.recipient === null && shown && (
          <p role="status" className="text-amber-700" data-transfer-recipient-unnamed>
            <Trans>该会员尚未填写姓名，请核对手机号是否为受让人本人</Trans>
          </p>
        )}
      </Block>
      {shown && (
        <div data-transfer-form>
          <List strong inset className="!my-2">
            <LabelledInput
              label={<Trans>受让人姓名</Trans>}
              type="text"
              name="name"
              value={c.name}
              disabled={busy}
              onChange={(e: { target: { value: string } }) => flow.send({ type: 'name.change', name: e.target.value })}
            />
            <LabelledInput
              label={<Trans>受让人身份证号</Trans>}
              type="text"
              name="idNumber"
              value={c.idNumber}
              disabled={busy}
              onChange={(e: { target: { value: string } }) => flow.send({ type: 'idNumber.change', idNumber: e.target.value.trim() })}
            />
          </List>
          <Block className="!my-2 space-y-2 text-sm">
            {c.idNumber !== '' && !validIdNumber(c.idNumber) && (
              <p className="text-rose-600" data-transfer-id-wrong>
                <Trans>请填写正确的身份证号</Trans>
              </p>
            )}
            <div className="grid-12 cols-2 gap-y-3">
              <ImageInput
                name="idPhoto"
                chosen={Boolean(c.idPhoto)}
                disabled={busy}
                label={<Trans>身份证照片</Trans>}
                onReady={(image) => flow.send({ type: 'idPhoto.ready', image })}
                onUnreadable={() => (unreadable.current = 'idPhoto')}
              />
              <ImageInput
                name="photo"
                chosen={Boolean(c.photo)}
                disabled={busy}
                label={<Trans>受让人照片</Trans>}
                onReady={(image) => flow.send({ type: 'photo.ready', image })}
                onUnreadable={() => (unreadable.current = 'photo')}
              />
            </div>
            {unreadable.current && <p className="text-rose-600">{i18n._(unreadableMsg)}</p>}
            {c.errorCode !== undefined && (
              <p role="alert" className="text-rose-600" data-transfer-refused={c.errorCode}>
                {refusalText(i18n, c.errorCode, { serverMessage: c.errorMessage })}
              </p>
            )}
            {unreachable ? (
              <UnreachableRetry onRetry={() => flow.send({ type: 'network.retry' })} onClose={() => flow.send({ type: 'form.edit' })} />
            ) : (
              <Button
                large
                rounded
                disabled={busy || !complete}
                onClick={() => flow.send({ type: 'transfer.submit' })}
                data-action="transfer-submit"
              >
                {busy ? <Trans>正在提交…</Trans> : <Trans>提交转让申请</Trans>}
              </Button>
            )}
          </Block>
        </div>
      )}
    </article>
  );
}
