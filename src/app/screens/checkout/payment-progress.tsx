import { useLingui } from '@lingui/react';
import { Trans } from '@lingui/react/macro';
import { Block, Button } from 'konsta/react';
import type { ReactNode } from 'react';
import { Errors } from '../../../domain/errors';
import type { PayOrderActor } from './checkout-store';

/**
 * What a payment in progress shows: where it stands, and a retry where the member can act. `state` is
 * the payment's (pay-order chart), or the checkout's while it makes the order (no payment yet).
 */
export function PaymentProgress(props: { actor: PayOrderActor | undefined; state: string }) {
  const { i18n } = useLingui();
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
    <Block className="!my-4 text-center" data-payment-progress={props.state}>
      <p role="status">{text}</p>
      {action}
    </Block>
  );
  switch (props.state) {
    case 'creatingOrder':
      return line(<Trans>正在创建订单…</Trans>);
    case 'paying.requestingPayment':
      return line(<Trans>正在发起支付…</Trans>);
    case 'paying.inWechat':
      return line(<Trans>正在打开微信支付…</Trans>);
    case 'paying.wechatCancelled':
      return line(<Trans>您已取消支付，订单已保留</Trans>, retry(<Trans>继续支付</Trans>));
    case 'paying.bridgeUnavailable':
      return line(<Trans>无法打开微信支付，请在微信中打开本页面</Trans>, retry(<Trans>重试</Trans>));
    case 'paying.paymentUnreachable':
      return line(i18n._(Errors.network.message), retry(<Trans>重试</Trans>));
    case 'paying.handingToAlipay':
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
