import { useLingui } from '@lingui/react';
import { Trans } from '@lingui/react/macro';
import { Block } from 'konsta/react';
import { useRef } from 'react';
import { data, Link, useLoaderData, type LoaderFunctionArgs } from 'react-router-dom';
import type { FlashSaleActivity } from '../../../api/flash-sale';
import type { GoodsDetail } from '../../../api/catalog-goods';
import { Errors } from '../../../domain/errors';
import { apiFrom } from '../../api-context';
import { useIsMember } from '../../session/session-provider';
import { parseId } from '../../ui/data-or';
import { NotFoundState } from '../../ui/not-found-state';
import { BuyBar } from '../catalog/courses/buy-bar';
import { CardProductTerms } from '../cards/card-product-row';
import { ORDER_LIST_STATES } from '../../../../machines/domain/order-transitions';
import { ORDER_STATE_LABELS } from '../orders/checkout-labels';
import { orderPath } from '../orders/checkout-paths';
import { FlashSaleCard } from './flash-sale-card';
import { useSaleClock } from './use-sale-clock';

interface Event11Data {
  sale: FlashSaleActivity | null;
  goods: GoodsDetail | null;
}

/** The sale of `?id=`, or without one the live or next sale (decision 009), and the card it sells. */
export async function loader({ context, request }: LoaderFunctionArgs) {
  const raw = new URL(request.url).searchParams.get('id');
  const id = raw === null ? undefined : parseId(raw);
  if (id === null) return data<Event11Data>({ sale: null, goods: null }, { status: 404 });
  const api = apiFrom(context);
  const r = await api.flashSale.activity(id);
  if (r.code === 404 || r.code === 400 || r.code === 70004) return data<Event11Data>({ sale: null, goods: null }, { status: 404 });
  if (r.code !== 200) throw new Response(null, { status: 503 });
  const g = await api.goods.detail(r.data.goodsId);
  if (g.code !== 200) throw new Response(null, { status: 503 });
  return data<Event11Data>({ sale: r.data, goods: g.data });
}

/**
 * /event11 (spec §2 Singles Day flash sale): the card on sale, places taken of places on sale, the
 * countdown, why it cannot be bought now, and the buy bar; Buy goes to the agreement (the checkout),
 * a visitor logs in first. The numbers refresh while the sale is on.
 */
/**
 * The member's place in the sale, by what its order says now: waiting to be paid (the way to pay it),
 * paid (the way to see it), or ended otherwise (refunded: shown as its state).
 */
function MyPlace(props: { order: FlashSaleActivity['myOrder'] }) {
  const { i18n } = useLingui();
  const o = props.order;
  if (!o)
    return (
      <p className="mx-4 text-sm text-black/70" data-mine>
        <Trans>您已抢到一张</Trans>
      </p>
    );
  const toPay = ORDER_LIST_STATES.to_pay.includes(o.state);
  return (
    <p className="mx-4 text-sm text-black/70" data-mine={o.state}>
      {toPay ? (
        <Trans>您已抢到一张，请尽快完成支付，超时未支付将释放名额。</Trans>
      ) : o.state === 'paid' || o.state === 'fully_paid' ? (
        <Trans>您已抢到一张，并已支付成功。</Trans>
      ) : (
        <Trans>您已抢到一张（订单{i18n._(ORDER_STATE_LABELS[o.state])}）。</Trans>
      )}{' '}
      <Link to={orderPath(o.orderNo)} className="inline-flex min-h-11 items-center text-primary" data-my-order>
        {toPay ? <Trans>去支付</Trans> : <Trans>查看订单</Trans>}
      </Link>
    </p>
  );
}

export default function Event11Screen() {
  const { sale, goods } = useLoaderData() as Event11Data;
  const member = useIsMember();
  const now = useSaleClock(sale);
  const { i18n } = useLingui();
  // a member who watched places left and saw them go is told the flash sale's too-slow message
  const sawLive = useRef(false);
  if (sale?.phase === 'live') sawLive.current = true;
  if (!sale || !goods) return <NotFoundState message={<Trans>没有找到这场抢购</Trans>} backTo="/" backLabel={<Trans>返回首页</Trans>} />;
  // the sale decides whether Buy is open: its phase, and a place already held
  const message = sale.phase === 'sold_out' && sawLive.current ? i18n._(Errors.flashSaleTooSlow.message) : sale.message;
  const buyable: GoodsDetail = { ...goods, isUable: sale.isUable, message };
  return (
    <article className="pb-[calc(96px+env(safe-area-inset-bottom))]" data-event11>
      <img
        src={goods.image}
        alt=""
        width={750}
        height={390}
        decoding="async"
        className="block aspect-[690/360] h-auto w-full bg-black/5 object-cover"
      />
      <Block className="!my-4">
        <h1 className="text-xl font-semibold">{sale.title}</h1>
        <p className="mt-1 text-base">{goods.name}</p>
        <p className="mt-1 text-sm text-black/60 tabular-nums">
          <CardProductTerms g={goods} />
        </p>
      </Block>
      <FlashSaleCard sale={{ ...sale, message }} now={now} />
      {sale.mine && <MyPlace order={sale.myOrder} />}
      {goods.description && (
        <Block strong inset className="!my-4 text-sm leading-relaxed whitespace-pre-line">
          {goods.description}
        </Block>
      )}
      <p className="mx-4 text-center text-sm">
        <Link to={`/eventactivi?id=${sale.id}`} className="inline-block text-primary" data-rules-link>
          <Trans>查看活动规则</Trans>
        </Link>
      </p>
      <BuyBar goods={buyable} choice={{}} member={member} />
    </article>
  );
}
