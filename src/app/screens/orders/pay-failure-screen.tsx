import { msg } from '@lingui/core/macro';
import { useLingui } from '@lingui/react';
import { Trans } from '@lingui/react/macro';
import { useSelector } from '@xstate/react';
import { Button } from 'konsta/react';
import { usePageTitle } from '../../layout/page-title';
import { BackToOrder, OrderPage, useOrderPayment } from './order-checkout';
import { orderPageLoader, type OrderPageData } from './order-page-data';
import { ResultPanel } from './result-panel';

export const loader = orderPageLoader;

/** /pays?orderNo= — payment failure (spec naming: pays is failure): pay again, or back to the order. */
export default function PayFailureScreen() {
  return <OrderPage>{(d) => <Failure d={d} />}</OrderPage>;
}

function Failure(props: { d: OrderPageData }) {
  const { actor } = useOrderPayment(props.d, 'result');
  const orderNo = props.d.orderNo!;
  const failed = useSelector(actor, (s) => s.matches('failed'));
  const { i18n } = useLingui();
  // the title says what the heading says: failed only once the order reads so
  usePageTitle(i18n._(failed ? msg`支付失败` : msg`正在确认支付结果`));
  return (
    <ResultPanel
      tone={failed ? 'failure' : 'waiting'}
      result={failed ? 'failed' : 'confirming'}
      title={failed ? <Trans>支付失败</Trans> : <Trans>正在确认支付结果…</Trans>}
    >
      {failed && (
        <>
          <p className="text-sm text-black/60">
            <Trans>本次支付没有成功，款项未被扣除。订单已保留，可以重新支付。</Trans>
          </p>
          <Button large rounded type="button" onClick={() => actor.send({ type: 'payment.retry' })} data-action="pay-again">
            <Trans>重新支付</Trans>
          </Button>
        </>
      )}
      <BackToOrder orderNo={orderNo} />
    </ResultPanel>
  );
}
