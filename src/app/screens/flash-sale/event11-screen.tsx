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
      {sale.mine && (
        <p className="mx-4 text-sm text-black/70" data-mine>
          <Trans>
            您已抢到一张，请在{' '}
            <Link to="/myPurchaseHistory" className="text-primary">
              购买记录
            </Link>{' '}
            中查看并完成支付。
          </Trans>
        </p>
      )}
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
