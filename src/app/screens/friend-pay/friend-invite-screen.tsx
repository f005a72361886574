import { msg } from '@lingui/core/macro';
import { useLingui } from '@lingui/react';
import { Trans } from '@lingui/react/macro';
import { useActorRef, useSelector } from '@xstate/react';
import { Block, Button } from 'konsta/react';
import { Fragment, useMemo, useRef, useState, type ReactNode } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { Errors } from '../../../domain/errors';
import { formatYuan } from '../../../domain/money';
import { browserApiOrThrow } from '../../api-context';
import { actorTimers, clockFrom } from '../../app-clock';
import { useConfirmWhile } from '../../ui/confirm';
import { parseId } from '../../ui/data-or';
import { NotFoundState } from '../../ui/not-found-state';
import { useToast } from '../../ui/toast';
import { UnreachableRetry } from '../../ui/unreachable-retry';
import { PAY_METHOD_LABELS } from '../orders/checkout-labels';
import { orderPath } from '../orders/checkout-paths';
import { copyLink } from './copy-link';
import { provideFriendInvite } from './friend-actors';
import { refusalMessage } from '../../ui/refusal-message';
import { INVITE_REFUSALS } from './friend-labels';
import { InvitationCard } from './invitation-card';

const copiedMsg = msg`链接已复制，发给好友吧`;
const selectedMsg = msg`请长按链接复制`;
const ORDER_NO = /^[A-Za-z0-9-]{1,64}$/;

/**
 * /friendsplit?orderNo=&partSeq= — asking a friend to pay my order, or a part of a split order (spec
 * §4, §6): through the friend-invite machine. Opening the page first says what happened to the latest
 * invitation for it (paid by whom and how, expired after the hour, withdrawn; decision 099) and leads
 * on; with none, it makes one: the amount, the hour counting down, the link to share or copy,
 * withdraw; then what the friend did.
 */
export default function FriendInviteScreen() {
  const [search] = useSearchParams();
  const orderNo = search.get('orderNo');
  const partSeq = parseId(search.get('partSeq')) ?? undefined;
  if (!orderNo || !ORDER_NO.test(orderNo))
    return <NotFoundState message={<Trans>没有找到这个订单</Trans>} backTo="/myPurchaseHistory" backLabel={<Trans>查看购买记录</Trans>} />;
  return <FriendInvite key={`${orderNo}:${partSeq ?? ''}`} orderNo={orderNo} partSeq={partSeq} />;
}

function FriendInvite(props: { orderNo: string; partSeq?: number }) {
  const { i18n } = useLingui();
  const toast = useToast();
  const field = useRef<HTMLInputElement>(null);
  const say = useRef({ toast, i18n });
  say.current = { toast, i18n };
  const [shareHint, setShareHint] = useState(false);
  const logic = useMemo(
    () =>
      provideFriendInvite({
        api: browserApiOrThrow,
        clock: clockFrom(undefined),
        copyLink: (link) =>
          void copyLink(link, field.current).then((how) =>
            say.current.toast({
              message: say.current.i18n._(how === 'copied' ? copiedMsg : selectedMsg),
              type: how === 'copied' ? 'success' : 'text',
            }),
          ),
      }),
    [],
  );
  const actor = useActorRef(logic, {
    input: { orderNo: props.orderNo, ...(props.partSeq !== undefined ? { partSeq: props.partSeq } : {}) },
    ...actorTimers(),
  });
  const busy = useSelector(actor, (s) => s.hasTag('busy'));
  const unreachable = useSelector(actor, (s) => s.hasTag('unreachable'));
  const confirming = useSelector(actor, (s) => s.matches('confirmingWithdraw'));
  const creating = useSelector(actor, (s) => s.matches('creating'));
  const reading = useSelector(actor, (s) => s.matches('reading'));
  const readUnreachable = useSelector(actor, (s) => s.matches('readUnreachable'));
  const createUnreachable = useSelector(actor, (s) => s.matches('createUnreachable'));
  const refused = useSelector(actor, (s) => s.matches('refused'));
  const paid = useSelector(actor, (s) => s.matches('paid'));
  const withdrawn = useSelector(actor, (s) => s.matches('withdrawn'));
  const expired = useSelector(actor, (s) => s.matches('expired'));
  const ended = useSelector(actor, (s) => s.matches('ended'));
  const c = useSelector(actor, (s) => s.context);
  const inv = c.invitation;
  const friendName = c.friendName;
  const amount = inv ? formatYuan(inv.amountCents) : '';
  useConfirmWhile(
    confirming,
    {
      title: <Trans>撤回代付邀请</Trans>,
      message: <Trans>撤回后好友将无法再通过这个链接支付。确定撤回吗？</Trans>,
      confirmText: <Trans>确定撤回</Trans>,
      cancelText: <Trans>再想想</Trans>,
    },
    (confirmed) => actor.send({ type: confirmed ? 'confirm.accept' : 'confirm.dismiss' }),
  );

  const toOrder = (
    <Button large rounded outline component={Link} {...{ to: orderPath(props.orderNo) }} data-action="view-order">
      <Trans>查看订单</Trans>
    </Button>
  );
  // what the share accepts now, when the page read it (not read: the server decides on the tap)
  const may = (a: 'invite' | 'pay') => c.actions === undefined || c.actions.includes(a);
  const again = may('invite') && (
    <Button large rounded type="button" onClick={() => actor.send({ type: 'invite.again' })} data-action="invite-again">
      <Trans>重新邀请好友</Trans>
    </Button>
  );
  const payOther = c.actions?.includes('pay') && (
    <Button large rounded outline component={Link} {...{ to: orderPath(props.orderNo, props.partSeq) }} data-action="pay-other-way">
      <Trans>换个方式支付</Trans>
    </Button>
  );
  const method = i18n._(PAY_METHOD_LABELS[c.paidBy === 'alipay' ? 'alipay' : 'wechat']);
  const card = inv && <InvitationCard goodsName={c.goodsName ?? ''} amountCents={inv.amountCents} />;
  // data-friend-invite names what the page shows: the invitation ('open'), its end, or why there is none
  const panel = (shown: string, tone: 'ok' | 'off', text: ReactNode, ...actions: ReactNode[]) => (
    <Block className="!my-4 space-y-3 text-center" data-friend-invite={shown}>
      <p role="status" className={tone === 'ok' ? 'text-emerald-700 font-semibold' : 'text-black/70'}>
        {text}
      </p>
      {actions.map((a, i) => (
        <Fragment key={i}>{a}</Fragment>
      ))}
    </Block>
  );

  if (reading) return panel('reading', 'off', <Trans>正在读取代付邀请…</Trans>);
  if (creating) return panel('creating', 'off', <Trans>正在生成代付链接…</Trans>);
  // reading the invitation or making one was lost on the network: the same retry, said the same way
  if (readUnreachable || createUnreachable)
    return (
      <Block className="!my-4 space-y-3 text-center" data-friend-invite={readUnreachable ? 'readUnreachable' : 'createUnreachable'}>
        <p role="alert" className="text-rose-600">
          {i18n._(Errors.network.message)}
        </p>
        <Button large rounded outline type="button" onClick={() => actor.send({ type: 'network.retry' })} data-action="retry">
          <Trans>重试</Trans>
        </Button>
      </Block>
    );
  if (refused)
    return (
      <Block className="!my-4 space-y-3 text-center" data-friend-invite="refused">
        <p role="alert" className="text-rose-600" data-invite-refused={c.errorCode}>
          {i18n._(refusalMessage(c.errorCode, INVITE_REFUSALS))}
        </p>
        {toOrder}
      </Block>
    );
  if (paid)
    return (
      <>
        {card}
        {panel(
          'paid',
          'ok',
          friendName ? (
            <Trans>
              已由好友 {friendName} 代付（{method}）
            </Trans>
          ) : (
            <Trans>已由好友代付（{method}）</Trans>
          ),
          toOrder,
        )}
      </>
    );
  if (withdrawn)
    return (
      <>
        {card}
        {panel('withdrawn', 'off', <Trans>已撤回代付邀请，好友无法再通过这个链接支付</Trans>, again, payOther, toOrder)}
      </>
    );
  if (expired)
    return (
      <>
        {card}
        {panel('expired', 'off', <Trans>代付邀请已过期：好友未在 1 小时内完成支付，邀请已自动取消</Trans>, again, payOther, toOrder)}
      </>
    );
  if (ended)
    return (
      <>
        {card}
        {panel('ended', 'off', <Trans>代付邀请已结束</Trans>, again, payOther, toOrder)}
      </>
    );

  // open, confirming the withdrawal, withdrawing, or the withdrawal unreachable: the invitation as the friend sees it
  const inWechat = typeof navigator !== 'undefined' && /MicroMessenger/i.test(navigator.userAgent);
  return (
    <div className="pb-8" data-friend-invite="open">
      {inv && (
        <InvitationCard goodsName={c.goodsName ?? ''} amountCents={inv.amountCents} expiresAt={inv.expiresAt}>
          <p className="text-sm text-black/60">
            <Trans>好友需支付 {amount}，1 小时内未支付邀请将自动失效</Trans>
          </p>
        </InvitationCard>
      )}
      {inv && (
        <Block className="!my-4 space-y-3">
          <label className="block text-sm text-black/60">
            <Trans>代付链接</Trans>
            <input
              ref={field}
              readOnly
              value={inv.link}
              className="mt-1 block min-h-11 w-full rounded-lg border border-black/15 px-3 text-sm text-black"
              data-invite-link
              onFocus={(e) => e.currentTarget.select()}
            />
          </label>
          <div className="grid-12 cols-2 gap-y-3">
            <Button large rounded type="button" disabled={busy} onClick={() => setShareHint((v) => !v)} data-action="share">
              <Trans>发送给好友</Trans>
            </Button>
            <Button
              large
              rounded
              outline
              type="button"
              disabled={busy}
              onClick={() => actor.send({ type: 'link.copy' })}
              data-action="copy-link"
            >
              <Trans>复制链接</Trans>
            </Button>
          </div>
          {shareHint && (
            <div className="rounded-lg bg-black/5 p-3 text-sm" data-share-hint>
              {inWechat ? (
                <Trans>
                  先点开{' '}
                  <a href={inv.link} className="text-primary underline">
                    代付页面
                  </a>
                  ，再点击右上角「···」，选择「发送给朋友」。
                </Trans>
              ) : (
                <Trans>复制链接，粘贴到微信聊天中发给好友；好友需在微信中打开。</Trans>
              )}
            </div>
          )}
          <p className="text-center text-sm text-black/60" role="status">
            {busy ? null : <Trans>等待好友支付…</Trans>}
          </p>
          {unreachable ? (
            <p className="text-center">
              <UnreachableRetry
                onRetry={() => actor.send({ type: 'network.retry' })}
                onClose={() => actor.send({ type: 'confirm.dismiss' })}
              />
            </p>
          ) : (
            <Button
              large
              rounded
              clear
              type="button"
              disabled={busy}
              onClick={() => actor.send({ type: 'invitation.withdraw' })}
              data-action="withdraw"
            >
              {busy ? <Trans>正在撤回…</Trans> : <Trans>撤回邀请</Trans>}
            </Button>
          )}
        </Block>
      )}
    </div>
  );
}
