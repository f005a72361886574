import { useLingui } from '@lingui/react';
import { Trans } from '@lingui/react/macro';
import { useActorRef, useSelector } from '@xstate/react';
import { Block, Button } from 'konsta/react';
import { useMemo, type ReactNode } from 'react';
import { Link, useLoaderData } from 'react-router-dom';
import { refusalMessage } from '../../ui/refusal-message';
import { ResultPanel } from '../orders/result-panel';
import { Errors } from '../../../domain/errors';
import { formatYuan } from '../../../domain/money';
import { browserApiOrThrow } from '../../api-context';
import { actorTimers, clockFrom } from '../../app-clock';
import { NotFoundState } from '../../ui/not-found-state';
import { provideFriendPay } from './friend-actors';
import { friendPayLoader, type FriendPayData } from './friend-pay-data';
import { InvitationCard } from './invitation-card';
import { MoneyBreakdown } from '../../ui/money-breakdown';
import type { FriendPayEvent } from '../../../../machines/friend-pay.machine';

export const loader = friendPayLoader;

/**
 * /payfriend?t= — a friend pays a member's order, or a part of it (spec §4, §6): no account, only the
 * link. Through the friend-pay machine: who asks (decision 099), the goods, the amount, until when and the time left; pay (WeChat Pay,
 * after the messaging app's authorization when the server asks for it); the result.
 */
export default function FriendPayScreen() {
  const d = useLoaderData() as FriendPayData;
  if (!d.token) return <NotFound />;
  return <FriendPay key={d.token} d={d} token={d.token} />;
}

function NotFound() {
  return <NotFoundState message={<Trans>这个代付链接无效</Trans>} backTo="/" backLabel={<Trans>去会馆首页看看</Trans>} />;
}

function FriendPay(props: { d: FriendPayData; token: string }) {
  const { d } = props;
  const { i18n } = useLingui();
  const logic = useMemo(() => provideFriendPay({ api: browserApiOrThrow, clock: clockFrom(undefined), standIn: d.standIn }), [d.standIn]);
  const actor = useActorRef(logic, { input: { token: props.token, invitation: d.invitation, resume: d.resume }, ...actorTimers() });
  // the whole snapshot: the page branches on most of the chart's states, each by matches
  const snap = useSelector(actor, (s) => s);
  const { invitation, errorCode } = snap.context;

  if (snap.matches('notFound')) return <NotFound />;
  const send = (type: FriendPayEvent['type']) => actor.send({ type });
  const button = (label: ReactNode, type: FriendPayEvent['type'], action: string, outline = false) => (
    <Button large rounded outline={outline} type="button" onClick={() => send(type)} data-action={action}>
      {label}
    </Button>
  );
  // data-friend-pay and data-friend-pay-screen name what the page shows
  const line = (shown: string, text: ReactNode, action?: ReactNode, alert = false): [string, ReactNode] => [
    shown,
    <Block className="!my-4 space-y-3 text-center" data-friend-pay={shown}>
      <p role={alert ? 'alert' : 'status'} className={alert ? 'text-rose-600' : undefined}>
        {text}
      </p>
      {action}
    </Block>,
  ];
  const amount = invitation ? formatYuan(invitation.amountCents) : '';

  const [shown, body] = ((): [string, ReactNode] => {
    if (snap.matches('ready'))
      return [
        'ready',
        <Block className="!my-4" data-friend-pay="ready">
          {button(<Trans>立即代付 {amount}</Trans>, 'invitation.pay', 'pay')}
        </Block>,
      ];
    if (snap.matches({ paying: 'requesting' }))
      return [
        'paying',
        <Block className="!my-4" data-friend-pay="paying">
          <Button large rounded disabled data-action="pay">
            <Trans>正在发起支付…</Trans>
          </Button>
        </Block>,
      ];
    if (snap.matches({ paying: 'unreachable' }))
      return line('payUnreachable', i18n._(Errors.network.message), button(<Trans>重试</Trans>, 'network.retry', 'retry', true), true);
    if (snap.matches({ paying: 'inWechat' })) return line('inWechat', <Trans>正在打开微信支付…</Trans>);
    if (snap.matches({ paying: 'sheetCancelled' }))
      return line('sheetCancelled', <Trans>您已取消支付</Trans>, button(<Trans>继续支付</Trans>, 'payment.retry', 'retry'));
    if (snap.matches({ paying: 'bridgeUnavailable' }))
      return line(
        'bridgeUnavailable',
        <Trans>无法打开微信支付：请在微信中打开这个链接完成代付</Trans>,
        button(<Trans>重试</Trans>, 'payment.retry', 'retry', true),
        true,
      );
    if (snap.matches('authorizing')) return line('authorizing', <Trans>正在前往微信授权…</Trans>);
    if (snap.matches('authorizationFailed'))
      return line(
        'authorizationFailed',
        <Trans>微信授权未成功，暂时无法代付</Trans>,
        button(<Trans>重新授权</Trans>, 'payment.retry', 'retry'),
        true,
      );
    if (snap.matches('takenByOther'))
      return line(
        'takenByOther',
        i18n._(Errors.friendAlreadyActed.message),
        button(<Trans>刷新</Trans>, 'invitation.refresh', 'refresh', true),
        true,
      );
    if (snap.matches('refused'))
      return line('refused', i18n._(refusalMessage(errorCode)), button(<Trans>重试</Trans>, 'invitation.pay', 'pay'), true);
    if (snap.matches('loading')) return line('loading', <Trans>正在读取代付邀请…</Trans>);
    if (snap.matches('loadUnreachable'))
      return line(
        'loadUnreachable',
        i18n._(errorCode === undefined ? Errors.network.message : refusalMessage(errorCode)),
        button(<Trans>重试</Trans>, 'network.retry', 'retry', true),
        true,
      );
    if (snap.matches('awaitingResult'))
      return ['awaitingResult', <ResultPanel tone="waiting" result="confirming" title={<Trans>正在确认支付结果…</Trans>} />];
    if (snap.matches('checking'))
      return [
        'checking',
        <ResultPanel tone="waiting" result="checking" title={<Trans>支付结果确认中</Trans>}>
          <p className="text-sm text-black/60">
            <Trans>如已付款，请勿重复支付；结果确认后本页会自动更新。</Trans>
          </p>
        </ResultPanel>,
      ];
    if (snap.matches('paid')) return ['paid', <ResultPanel tone="success" result="paid" title={<Trans>代付已完成，感谢你！</Trans>} />];
    if (snap.matches('endedUnpaid'))
      return [
        'endedUnpaid',
        <ResultPanel tone="failure" result="ended" title={<Trans>代付邀请已结束</Trans>}>
          <p className="text-sm text-black/60">
            <Trans>本次支付未完成，没有扣款；如已扣款，款项将原路退回。</Trans>
          </p>
        </ResultPanel>,
      ];
    if (snap.matches('over'))
      return [
        'over',
        <ResultPanel tone="failure" result={invitation?.state ?? 'over'} title={overTitle(invitation?.state)}>
          <p className="text-sm text-black/60">
            {invitation?.state === 'refunded' ? (
              <Trans>对方取消了这笔订单的分开支付或订单，你付的款项正在原路退回。</Trans>
            ) : (
              <Trans>无需支付。</Trans>
            )}
          </p>
        </ResultPanel>,
      ];
    return ['routing', null];
  })();

  const open = invitation?.state === 'open' && !snap.hasTag('ended');
  return (
    <div className="pb-8" data-friend-pay-screen={shown}>
      {invitation && (
        <InvitationCard
          goodsName={invitation.goodsName}
          amountCents={invitation.amountCents}
          expiresAt={open ? invitation.expiresAt : undefined}
          asker={invitation.member}
        >
          {/* before any payment the card's amount is the whole story; once paid, what was paid and went back */}
          {invitation.money.payers.length > 0 && <MoneyBreakdown money={invitation.money} className="text-left" />}
        </InvitationCard>
      )}
      {body}
      {/* paid, or nothing left to pay: the friend may not know the club yet, so the way to it */}
      {snap.hasTag('ended') && (
        <Block className="!my-4">
          <Button large rounded outline component={Link} {...{ to: '/' }} data-action="club-home">
            <Trans>去会馆首页看看</Trans>
          </Button>
        </Block>
      )}
    </div>
  );
}

/** Why an invitation is over, as its friend reads it: withdrawn, the money they paid given back, or the hour passed. */
function overTitle(state: string | undefined) {
  if (state === 'withdrawn') return <Trans>对方已撤回代付邀请</Trans>;
  if (state === 'refunded') return <Trans>你代付的款项已退回</Trans>;
  return <Trans>代付邀请已过期</Trans>;
}
