import { msg } from '@lingui/core/macro';
import { useLingui } from '@lingui/react';
import { Trans } from '@lingui/react/macro';
import { useSelector } from '@xstate/react';
import { Block, Button } from 'konsta/react';
import { useEffect, useState } from 'react';
import { Link } from 'react-router-dom';
import { bookClassPath, classToBook, forgetClassToBook, type ClassToBook } from '../booking/class-to-book';
import { myCardPath } from '../cards/my-card-row';
import { usePageTitle } from '../../layout/page-title';
import { splitPath } from './checkout-paths';
import { MoneyBreakdown } from '../../ui/money-breakdown';
import { BackToOrder, OrderPage, useOrderPayment } from './order-checkout';
import { orderPageLoader, type OrderPageData } from './order-page-data';
import { ResultPanel } from './result-panel';

export const loader = orderPageLoader;

/** The page's title by what is true now (the heading says the same). */
const TITLES = {
  paid: msg`支付成功`,
  checking: msg`支付尚未确认`,
  confirming: msg`正在确认支付结果`,
};

/**
 * /payf?orderNo= — payment success (spec naming: payf is success). It is also where the providers'
 * pages come back to, so its heading says what is true now: until the order is settled, that the result
 * is being confirmed; past the time-out, that the payment is not confirmed yet (it keeps checking, never
 * calls it failed, and offers continue paying and the order); a failure moves on to /pays, a
 * cancelled order to its page. Its page title follows the same (the route's own, before the screen
 * runs, is the neutral "payment result": decision 092).
 */

export default function PaySuccessScreen() {
  return <OrderPage>{(d) => <Success d={d} />}</OrderPage>;
}

/**
 * A card bought from a class's booking page leads back to that class (remembered in this tab only,
 * read after hydration: the server's page cannot know it).
 */
function BackToClass() {
  const [c, setC] = useState<ClassToBook | null>(null);
  useEffect(() => setC(classToBook()), []);
  if (!c) return null;
  return (
    <Button large rounded component={Link} {...{ to: bookClassPath(c.id), onClick: forgetClassToBook }} data-action="back-to-class">
      <Trans>继续预约：{c.title}</Trans>
    </Button>
  );
}

function Success(props: { d: OrderPageData }) {
  const { d } = props;
  const { actor, order } = useOrderPayment(d, 'result');
  const paid = useSelector(actor, (s) => s.matches('paid'));
  const checking = useSelector(actor, (s) => s.matches('checking'));
  const rechecking = useSelector(actor, (s) => s.matches({ checking: 'rechecking' }));
  const unreachable = useSelector(actor, (s) => s.matches('orderLoadUnreachable'));
  const { i18n } = useLingui();
  usePageTitle(i18n._(TITLES[paid ? 'paid' : checking ? 'checking' : 'confirming']));
  const orderNo = d.orderNo!;
  if (paid) {
    return (
      <div className="pb-8">
        <ResultPanel tone="success" result="paid" title={<Trans>支付成功</Trans>}>
          <p className="text-sm text-black/60">
            <Trans>订单号 {orderNo}</Trans>
          </p>
        </ResultPanel>
        <Block strong inset className="!my-4 space-y-2">
          <p className="font-semibold" data-goods-name>
            {d.goodsName ?? orderNo}
          </p>
          <MoneyBreakdown money={order.breakdown} />
        </Block>
        <div className="mx-4 space-y-3 text-center">
          {d.partSeq !== undefined && (
            <Button large rounded component={Link} {...{ to: splitPath(orderNo) }} data-action="view-split">
              <Trans>查看各份</Trans>
            </Button>
          )}
          {order.issuedCardId !== null && <BackToClass />}
          <BackToOrder orderNo={orderNo} />
          {order.issuedCardId !== null ? (
            <Button large rounded outline component={Link} {...{ to: myCardPath(order.issuedCardId) }} data-action="view-issued-card">
              <Trans>查看这张会员卡</Trans>
            </Button>
          ) : (
            <Button large rounded component={Link} {...{ to: '/mycourse' }}>
              <Trans>查看我的课程</Trans>
            </Button>
          )}
          <Link to="/vipcard?tab=mine" className="inline-block text-primary">
            <Trans>查看我的会员卡</Trans>
          </Link>
        </div>
      </div>
    );
  }
  if (checking) {
    return (
      <ResultPanel tone="waiting" result="checking" title={<Trans>支付尚未确认</Trans>}>
        <p className="text-sm text-black/60">
          <Trans>
            支付服务还没有确认这笔付款。如果您已经付款，结果可能稍有延迟，我们会继续查询，不会重复扣款；如果没有付款，可以继续支付或在订单中取消。
          </Trans>
        </p>
        <Button large rounded type="button" onClick={() => actor.send({ type: 'payment.retry' })} data-action="continue-paying">
          <Trans>继续支付</Trans>
        </Button>
        <Button
          large
          rounded
          outline
          type="button"
          disabled={rechecking}
          onClick={() => actor.send({ type: 'payment.check' })}
          data-action="check"
        >
          <Trans>刷新支付结果</Trans>
        </Button>
        <BackToOrder orderNo={orderNo} />
      </ResultPanel>
    );
  }
  if (unreachable) {
    return (
      <ResultPanel tone="waiting" result="unreachable" title={<Trans>网络无法连接</Trans>}>
        <Button large rounded type="button" onClick={() => actor.send({ type: 'order.retry' })}>
          <Trans>重试</Trans>
        </Button>
        <BackToOrder orderNo={orderNo} />
      </ResultPanel>
    );
  }
  return (
    <ResultPanel tone="waiting" result="confirming" title={<Trans>正在确认支付结果…</Trans>}>
      <BackToOrder orderNo={orderNo} />
    </ResultPanel>
  );
}
