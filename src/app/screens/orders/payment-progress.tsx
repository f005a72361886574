import { useLingui } from '@lingui/react';
import { Trans } from '@lingui/react/macro';
import { useSelector } from '@xstate/react';
import { Block, Button } from 'konsta/react';
import type { ReactNode } from 'react';
import { Errors } from '../../../domain/errors';
import type { PayOrderActor } from './checkout-store';

/** What data-payment-progress says is shown, by the payment's state (or the checkout making its order). */
type Progress =
  | 'creatingOrder'
  | 'requestingPayment'
  | 'inWechat'
  | 'wechatCancelled'
  | 'bridgeUnavailable'
  | 'paymentUnreachable'
  | 'handingToAlipay'
  | 'paymentRefused'
  | 'orderMissing'
  | 'orderLoadUnreachable';

/**
 * What a payment in progress shows: where it stands, and a retry where the member can act; read from
 * the payment's state (pay-order chart) by matches, or `creatingOrder` while the checkout makes the
 * order (no payment yet).
 */
export function PaymentProgress(props: { actor: PayOrderActor | undefined; creatingOrder?: boolean }) {
  const { i18n } = useLingui();
  const shown = useSelector(props.actor, (s): Progress | undefined => {
    if (!s) return undefined;
    if (s.matches({ paying: 'requestingPayment' })) return 'requestingPayment';
    if (s.matches({ paying: 'inWechat' })) return 'inWechat';
    if (s.matches({ paying: 'wechatCancelled' })) return 'wechatCancelled';
    if (s.matches({ paying: 'bridgeUnavailable' })) return 'bridgeUnavailable';
    if (s.matches({ paying: 'paymentUnreachable' })) return 'paymentUnreachable';
    if (s.matches({ paying: 'handingToAlipay' })) return 'handingToAlipay';
    if (s.matches('paymentRefused')) return 'paymentRefused';
    if (s.matches('orderMissing')) return 'orderMissing';
    if (s.matches('orderLoadUnreachable')) return 'orderLoadUnreachable';
    return undefined;
  });
  const progress = props.creatingOrder ? 'creatingOrder' : shown;
  const retry = (label: ReactNode) => (
    <Button
      large
      rounded
      outline
      type="button"
      className="mt-3"
      data-action="payment-retry"
      onClick={() => props.actor?.send({ type: 'payment.retry' })}
    >
      {label}
    </Button>
  );
  const line = (text: ReactNode, action?: ReactNode) => (
    <Block className="!my-4 text-center" data-payment-progress={progress}>
      <p role="status">{text}</p>
      {action}
    </Block>
  );
  switch (progress) {
    case 'creatingOrder':
      return line(<Trans>正在创建订单…</Trans>);
    case 'requestingPayment':
      return line(<Trans>正在发起支付…</Trans>);
    case 'inWechat':
      return line(<Trans>正在打开微信支付…</Trans>);
    case 'wechatCancelled':
      return line(<Trans>您已取消支付，订单已保留</Trans>, retry(<Trans>继续支付</Trans>));
    case 'bridgeUnavailable':
      return line(<Trans>无法打开微信支付，请在微信中打开本页面</Trans>, retry(<Trans>重试</Trans>));
    case 'paymentUnreachable':
      return line(i18n._(Errors.network.message), retry(<Trans>重试</Trans>));
    case 'handingToAlipay':
      return line(<Trans>正在前往支付宝…</Trans>);
    case 'paymentRefused':
      // the refusal itself is said beside the form; from here the member reads the order again and chooses anew
      return line(null, retry(<Trans>重新选择支付方式</Trans>));
    case 'orderMissing':
      return line(<Trans>没有找到这个订单</Trans>);
    case 'orderLoadUnreachable':
      return line(
        i18n._(Errors.network.message),
        <Button
          large
          rounded
          outline
          type="button"
          className="mt-3"
          data-action="retry"
          onClick={() => props.actor?.send({ type: 'order.retry' })}
        >
          <Trans>重试</Trans>
        </Button>,
      );
    default:
      return null;
  }
}
