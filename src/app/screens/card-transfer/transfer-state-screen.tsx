import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { useLingui } from '@lingui/react';
import { Trans } from '@lingui/react/macro';
import { Block, BlockTitle, Button } from 'konsta/react';
import { useState } from 'react';
import { Link, useLoaderData } from 'react-router-dom';
import type { MyTransfer } from '../../../api/card-transfers';
import { newIntentKey } from '../../../domain/intent-key';
import { browserApiOrThrow } from '../../api-context';
import { NotFoundState } from '../../ui/not-found-state';
import { useStableRevalidate } from '../../ui/use-stable-revalidate';
import { refusalMessage } from '../../ui/refusal-message';
import { myCardPath } from '../cards/my-card-row';
import { transferPolicyPath, transferLoader, type TransferPageData } from './transfer-data';

export const loader = transferLoader;

/** Spec §4 transfer application states, as the member reads them. */
const STATE_LABELS: Record<MyTransfer['state'], MessageDescriptor> = {
  pending: msg`待审核`,
  reviewing: msg`审核中`,
  approved: msg`已通过`,
  rejected: msg`未通过`,
  cancelled: msg`已取消`,
};

/** /mine/transferstate?id=: my latest transfer application on the card and its state; cancel while it waits for review. */
export default function TransferStateScreen() {
  const { card, transfer } = useLoaderData() as TransferPageData;
  const { i18n } = useLingui();
  const revalidate = useStableRevalidate();
  const [cancelling, setCancelling] = useState(false);
  const [error, setError] = useState<number | null>(null);
  if (!card)
    return <NotFoundState message={<Trans>没有找到这张会员卡</Trans>} backTo="/vipcard?tab=mine" backLabel={<Trans>我的会员卡</Trans>} />;
  const cancel = async (t: MyTransfer) => {
    setCancelling(true);
    setError(null);
    try {
      const r = await browserApiOrThrow().cardTransfers.cancel(t.id, newIntentKey());
      if (r.code !== 200) setError(r.code);
      revalidate();
    } catch {
      setError(70002);
    } finally {
      setCancelling(false);
    }
  };
  return (
    <article className="pb-6" data-transfer-state-page={card.id}>
      <BlockTitle>
        <Trans>转让申请：{card.name}</Trans>
      </BlockTitle>
      {transfer ? (
        <Block strong inset className="space-y-2 text-sm" data-transfer={transfer.id}>
          <p>
            <Trans>状态</Trans>：<span data-transfer-state={transfer.state}>{i18n._(STATE_LABELS[transfer.state])}</span>
          </p>
          <p>
            <Trans>受让人</Trans>：{transfer.recipientName}（{transfer.recipientPhone}）
          </p>
          {transfer.reason && (
            <p className="text-rose-600" data-transfer-reason>
              <Trans>未通过原因：{transfer.reason}</Trans>
            </p>
          )}
          {error !== null && (
            <p role="alert" className="text-rose-600">
              {i18n._(refusalMessage(error))}
            </p>
          )}
          {transfer.canCancel && (
            <Button rounded outline disabled={cancelling} onClick={() => void cancel(transfer)} data-action="transfer-cancel">
              {cancelling ? <Trans>正在取消…</Trans> : <Trans>取消申请</Trans>}
            </Button>
          )}
        </Block>
      ) : (
        <Block className="text-center text-sm text-black/60" data-no-transfer>
          <Trans>这张会员卡还没有转让申请</Trans>
        </Block>
      )}
      <p className="mt-4 space-x-4 text-center text-sm">
        {(!transfer || transfer.state === 'rejected' || transfer.state === 'cancelled') && (
          <Link to={transferPolicyPath(card.id)} className="text-primary">
            <Trans>申请转让</Trans>
          </Link>
        )}
        <Link to={myCardPath(card.id)} className="text-primary">
          <Trans>查看会员卡详情</Trans>
        </Link>
      </p>
    </article>
  );
}
