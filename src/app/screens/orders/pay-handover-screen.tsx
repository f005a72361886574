import { Trans } from '@lingui/react/macro';
import { useSelector } from '@xstate/react';
import { BackToOrder, OrderPage, useOrderPayment } from './order-checkout';
import { orderPageLoader, type OrderPageData } from './order-page-data';
import { ResultPanel } from './result-panel';

export const loader = orderPageLoader;

/**
 * /payt?orderNo= — the mobile payment service: hands the member to Alipay's page (the stand-in's in
 * demo mode), which comes back to /payf?orderNo=. Opened again later, it follows the order's state.
 */
export default function PayHandoverScreen() {
  return <OrderPage>{(d) => <Handover d={d} />}</OrderPage>;
}

function Handover(props: { d: OrderPageData }) {
  const { actor } = useOrderPayment(props.d, 'result');
  const handingOver = useSelector(actor, (s) => s.hasTag('handoverPage'));
  const url = useSelector(actor, (s) => (s.context.payment?.method === 'alipay' ? s.context.payment.url : undefined));
  return (
    <ResultPanel tone="waiting" result={handingOver ? 'handover' : 'confirming'} title={<Trans>正在前往支付宝…</Trans>}>
      {url && (
        <a href={url} className="inline-block text-primary" data-alipay-link>
          <Trans>没有自动跳转？点此前往支付宝</Trans>
        </a>
      )}
      <BackToOrder orderNo={props.d.orderNo!} />
    </ResultPanel>
  );
}
