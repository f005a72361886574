import { useLingui } from '@lingui/react';
import { Trans } from '@lingui/react/macro';
import { useSelector } from '@xstate/react';
import { Block, Button, List, ListItem } from 'konsta/react';
import { Link } from 'react-router-dom';
import { shanghaiClock, shanghaiDate } from '../../../domain/time';
import type { OrderPart } from '../../../api/orders';
import { formatYuan } from '../../../domain/money';
import { friendInvitePath } from '../friend-pay/friend-paths';
import { refusalMessage } from '../../ui/refusal-message';
import { MoneyBreakdown } from '../../ui/money-breakdown';
import { ORDER_STATE_LABELS } from './checkout-labels';
import { liveShares } from '../../../../machines/order-split.machine';
import { splitPath, successPath } from './checkout-paths';
import { MethodChoice } from './method-choice';
import { myOrdersPath } from './my-orders-data';
import { OrderCancel } from './order-cancel';
import { IssuedGoods } from './issued-goods';
import { OrderRefunds } from './order-refunds';
import { OrderPage, useOrderPayment } from './order-checkout';
import { orderPageLoader, type OrderPageData } from './order-page-data';
import { PaymentProgress } from './payment-progress';

export const loader = orderPageLoader;

const at = (iso: string) => `${shanghaiDate(new Date(iso))} ${shanghaiClock(new Date(iso))}`;

/**
 * /orderdetail?orderNo= — one of my orders (spec §3): goods, price, amount to pay, coupon deduction,
 * balance use, its state by the order chart, and the actions the server offers (pay, cancel, split).
 * A split order is paid part by part: `&partSeq=` pays that part; without it the page leads to the parts.
 */
export default function OrderDetailScreen() {
  return <OrderPage>{(d) => <OrderDetail d={d} />}</OrderPage>;
}

/** The order's page body; the actions are the server's (the chart's, less pay once the order is overdue). */
export function OrderDetail(props: { d: OrderPageData }) {
  const { d } = props;
  const { i18n } = useLingui();
  const o = d.order!;
  const actions = o.actions;
  const shares = liveShares(o.parts);
  const split = shares.length > 1;
  // a split order pays the part the page was opened for, when it is still to pay
  const part = split ? shares.find((p) => p.seq === d.partSeq) : undefined;
  return (
    <div className="pb-8" data-order={o.orderNo} data-order-state={o.state}>
      <Block strong inset className="!my-4">
        <div className="flex items-center justify-between gap-3">
          <h1 className="min-w-0 truncate text-lg font-semibold">{d.goodsName ?? o.orderNo}</h1>
          <span className="shrink-0 rounded-full bg-black/5 px-2 py-0.5 text-sm" data-order-state-label={o.state}>
            {i18n._(ORDER_STATE_LABELS[o.state])}
          </span>
        </div>
      </Block>
      <Block strong inset className="!my-4">
        <MoneyBreakdown money={o.breakdown} />
      </Block>
      <OrderRefunds order={o} />
      <List strong inset className="!my-4 text-sm tabular-nums">
        <ListItem title={<Trans>订单号</Trans>} after={o.orderNo} />
        <ListItem title={<Trans>下单时间</Trans>} after={at(o.createdAt)} />
        {o.paidAt && <ListItem title={<Trans>支付时间</Trans>} after={at(o.paidAt)} />}
        {o.state === 'unpaid' && o.expiresAt && <ListItem title={<Trans>请在此前支付</Trans>} after={at(o.expiresAt)} />}
      </List>
      {o.state === 'paying' && (
        <Block className="space-y-2 text-center text-sm" data-payment-unfinished>
          <p>
            <Trans>支付尚未完成。如果您已经付款，请查看支付结果；也可以继续支付（可换一种方式）或取消订单。</Trans>
          </p>
          <Link to={successPath(o.orderNo)} className="inline-flex min-h-11 items-center text-primary">
            <Trans>查看支付结果</Trans>
          </Link>
        </Block>
      )}
      {split && (
        <SplitSummary
          orderNo={o.orderNo}
          part={part}
          n={part ? shares.indexOf(part) + 1 : 0}
          count={shares.length}
          payable={actions.includes('pay')}
        />
      )}
      {/* a split order's part pays on its own, whatever its other parts are doing (the server offers it) */}
      {(split ? part?.actions.includes('pay') : actions.includes('pay')) && (
        <PayPanel
          d={d}
          amountCents={part?.amountCents ?? o.amountToPayCents}
          again={split ? part?.holder === 'memberTrade' : o.state === 'paying'}
        />
      )}
      {actions.includes('split') && (
        <Block className="!my-4">
          <Button large rounded outline component={Link} {...{ to: splitPath(o.orderNo) }} data-action="split-order">
            <Trans>分开支付</Trans>
          </Button>
        </Block>
      )}
      {!split && actions.includes('invite') && (
        <Block className="!my-2 text-center">
          <Link to={friendInvitePath(o.orderNo)} className="inline-flex min-h-11 items-center px-4 text-primary" data-action="ask-friend">
            <Trans>找好友代付</Trans>
          </Link>
        </Block>
      )}
      <IssuedGoods order={o} />
      <OrderCancel key={o.orderNo} order={o} />
      {/* nothing is left to do with this order (cancelled, closed, refunded): the way back to the others */}
      {actions.length === 0 && (
        <Block className="!my-4">
          <Button large rounded outline component={Link} {...{ to: myOrdersPath() }} data-action="my-orders">
            <Trans>查看我的订单</Trans>
          </Button>
        </Block>
      )}
    </div>
  );
}

/** A split order on its page: the part it pays (when opened for one), and the way to all its parts; a part to choose only while one can be paid. */
function SplitSummary(props: { orderNo: string; part: OrderPart | undefined; n: number; count: number; payable: boolean }) {
  const { part, n, count } = props;
  return (
    <Block strong inset className="!my-4 space-y-2 text-sm" data-split-summary={part?.seq ?? ''}>
      {part ? (
        <p className="font-semibold">
          {part.state === 'paid' ? (
            <Trans>
              第 {n} 份 {formatYuan(part.amountCents)} 已支付
            </Trans>
          ) : (
            <Trans>
              支付第 {n} 份 {formatYuan(part.amountCents)}
            </Trans>
          )}
        </p>
      ) : props.payable ? (
        <p>
          <Trans>此订单已分开支付，请在各份中选择要支付的一份。</Trans>
        </p>
      ) : (
        <p>
          <Trans>此订单已分开支付，共 {count} 份。</Trans>
        </p>
      )}
      <Link to={splitPath(props.orderNo)} className="inline-flex min-h-11 items-center text-primary" data-action="view-split">
        <Trans>查看各份</Trans>
      </Link>
    </Block>
  );
}

/** Paying this order (or the part the page is for) through the pay-order machine: how to pay, then pay ("continue paying" when a payment was left unfinished). */
function PayPanel(props: { d: OrderPageData; amountCents: number; again: boolean }) {
  const { i18n } = useLingui();
  const { actor } = useOrderPayment(props.d, 'pay');
  const choosing = useSelector(actor, (s) => s.matches('choosingMethod'));
  const refused = useSelector(actor, (s) => s.matches('paymentRefused'));
  const method = useSelector(actor, (s) => s.context.method);
  const errorCode = useSelector(actor, (s) => s.context.errorCode);
  return (
    <div data-pay-panel={choosing ? 'choosingMethod' : 'paying'}>
      {choosing && (
        <MethodChoice
          methods={props.d.methods}
          unavailable={props.d.unavailable}
          chosen={method}
          onChoose={(m) => actor.send({ type: 'method.choose', method: m })}
        />
      )}
      <PaymentProgress actor={actor} />
      {refused && (
        <p role="alert" className="mx-4 text-sm text-rose-600">
          {i18n._(refusalMessage(errorCode))}
        </p>
      )}
      <Block className="!my-4">
        <Button large rounded disabled={!choosing} onClick={() => actor.send({ type: 'payment.start' })} data-action="pay-order">
          {props.again ? <Trans>继续支付 {formatYuan(props.amountCents)}</Trans> : <Trans>去支付 {formatYuan(props.amountCents)}</Trans>}
        </Button>
      </Block>
    </div>
  );
}
