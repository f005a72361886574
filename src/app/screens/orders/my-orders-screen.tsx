import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { useLingui } from '@lingui/react';
import { Trans } from '@lingui/react/macro';
import { Button } from 'konsta/react';
import { Link, useLoaderData } from 'react-router-dom';
import type { Order } from '../../../api/orders';
import { formatYuan } from '../../../domain/money';
import { ORDER_LIST_FILTERS, type OrderListFilter } from '../../../domain/orders';
import { shanghaiMinute } from '../../../domain/time';
import { browserApiOrThrow } from '../../api-context';
import { NotFoundState } from '../../ui/not-found-state';
import { EmptyList, PagedList } from '../../ui/paged-list';
import { ORDER_STATE_LABELS } from './checkout-labels';
import { orderPath } from './checkout-paths';
import { myOrdersLoader, myOrdersPath, type MyOrdersPageData } from './my-orders-data';

export const loader = myOrdersLoader;

// a tab names a group of states, not one state as the row's label does ("to pay" holds paying ones too)
const TAB_LABELS: Record<OrderListFilter, MessageDescriptor> = {
  all: msg({ message: '全部', context: 'order list tab' }),
  to_pay: msg({ message: '待支付', context: 'order list tab' }),
  paid: msg({ message: '已支付', context: 'order list tab' }),
  refunds: msg({ message: '退款', context: 'order list tab' }),
  cancelled: msg({ message: '已取消', context: 'order list tab' }),
};

const EMPTY: Record<OrderListFilter, MessageDescriptor> = {
  all: msg`还没有订单`,
  to_pay: msg`没有待支付的订单`,
  paid: msg`没有已支付的订单`,
  refunds: msg`没有退款中或已退款的订单`,
  cancelled: msg`没有已取消的订单`,
};

const segment = (on: boolean) => `flex-1 rounded-md py-1.5 text-center ${on ? 'bg-white font-semibold shadow-sm' : 'text-black/60'}`;

/** One order: what was bought, what it costs, its state in words and when it was placed; it opens the order's page. */
function OrderRow(props: { o: Order; firstScreen: boolean }) {
  const { i18n } = useLingui();
  const o = props.o;
  const placed = shanghaiMinute(o.createdAt);
  return (
    <Link to={orderPath(o.orderNo)} className="block rounded-xl bg-white p-3 active:opacity-80" data-my-order={o.orderNo}>
      <div className="flex gap-3">
        <img
          src={o.goodsImage}
          alt=""
          width={56}
          height={56}
          loading={props.firstScreen ? 'eager' : 'lazy'}
          decoding="async"
          className="h-14 w-14 shrink-0 rounded-lg bg-black/5 object-cover"
        />
        <div className="min-w-0 flex-1">
          <p className="flex items-center justify-between gap-2">
            <span className="truncate font-semibold">{o.goodsName}</span>
            <span className="shrink-0 rounded-full bg-black/5 px-2 py-0.5 text-xs" data-my-order-state={o.state}>
              {i18n._(ORDER_STATE_LABELS[o.state])}
            </span>
          </p>
          <p className="mt-1 flex items-center justify-between gap-2 text-sm tabular-nums">
            <span className="text-xs text-black/60">
              <Trans>下单时间 {placed}</Trans>
            </span>
            <span className="font-semibold" data-my-order-amount>
              {formatYuan(o.amountToPayCents)}
            </span>
          </p>
        </div>
      </div>
    </Link>
  );
}

/**
 * /mine/orders (decision 096): every order of mine, newest first, whatever its state (to pay, paying,
 * paid, refunding, cancelled, ...), in tabs: all, to pay, paid, refunds, cancelled. Each row opens the
 * order's page, where its actions are (continue paying, cancel, refund).
 */
export default function MyOrdersScreen() {
  const { i18n } = useLingui();
  const d = useLoaderData() as MyOrdersPageData;
  if (!d.status || !d.page)
    return <NotFoundState message={<Trans>没有这个页面</Trans>} backTo={myOrdersPath()} backLabel={<Trans>我的订单</Trans>} />;
  const status = d.status;
  return (
    <div className="pb-6" data-my-orders={status}>
      <nav className="mx-4 my-3 flex rounded-lg bg-black/5 p-0.5 text-sm" aria-label={i18n._(msg`订单分类`)}>
        {ORDER_LIST_FILTERS.map((t) => (
          <Link
            key={t}
            to={myOrdersPath(t)}
            replace
            aria-current={t === status ? 'page' : undefined}
            className={segment(t === status)}
            data-tab={t}
          >
            {i18n._(TAB_LABELS[t])}
          </Link>
        ))}
      </nav>
      <PagedList
        name={`orders-${status}`}
        first={d.page}
        fetchPage={(pagenum, pagesize) => browserApiOrThrow().orders.mine({ status, pagenum, pagesize })}
        itemKey={(o) => o.orderNo}
        row={(o, firstScreen) => <OrderRow o={o} firstScreen={firstScreen} />}
        empty={
          <EmptyList
            name={`orders-${status}`}
            message={i18n._(EMPTY[status])}
            action={
              status === 'all' ? (
                <Button large rounded component={Link} {...{ to: '/vipcard?tab=shop' }}>
                  <Trans>去购买会员卡</Trans>
                </Button>
              ) : (
                <Button large rounded outline component={Link} {...{ to: myOrdersPath() }}>
                  <Trans>查看全部订单</Trans>
                </Button>
              )
            }
          />
        }
      />
    </div>
  );
}
