import { Trans } from '@lingui/react/macro';
import { Button } from 'konsta/react';
import { Link, useLoaderData, type LoaderFunctionArgs } from 'react-router-dom';
import { cardEnded, type CardStatus } from '../../../../machines/domain/card-transitions';
import type { MemberCard } from '../../../api/booking';
import type { DictItem } from '../../../api/catalog';
import type { GoodsItem } from '../../../api/catalog-goods';
import type { CardType } from '../../../domain/catalog';
import type { Paged } from '../../../domain/envelope';
import { apiFrom, browserApiOrThrow } from '../../api-context';
import { loginPath, sessionFrom } from '../../session/request-session';
import { dataOr } from '../../ui/data-or';
import { EmptyList, PagedList } from '../../ui/paged-list';
import { CardProductRow } from './card-product-row';
import { MyCardRow } from './my-card-row';
import { cardTypeParam, vipcardPath, vipcardTab, type VipcardTab } from './vipcard-rules';

/** Card products per page. */
export const CARD_PAGE_SIZE = 10;

interface VipcardData {
  member: boolean;
  tab: VipcardTab;
  type?: CardType;
  /** my cards with the status they show (members only) */
  cards: { card: MemberCard; status: CardStatus }[];
  /** page 0 of the card products (shop tab) */
  page: Paged<GoodsItem> | null;
  /** the card-type dictionary (GET /index/home/dict/select?type=cardType) */
  types: DictItem[];
}

/** /vipcard: my cards (members) and the card products, page 0, filtered by `?type=`. */
export async function loader({ context, request }: LoaderFunctionArgs): Promise<VipcardData> {
  const q = new URL(request.url).searchParams;
  const member = Boolean(sessionFrom(context).token);
  const api = apiFrom(context);
  const mine = member ? await api.booking.cards() : null;
  if (mine && mine.code !== 200) throw new Response(null, { status: mine.code === 401 ? 401 : 503 });
  const cards = (mine?.data ?? []).map((card) => ({ card, status: card.status }));
  const tab = vipcardTab(
    q.get('tab'),
    member,
    cards.map((c) => c.status),
  );
  const type = cardTypeParam(q.get('type'));
  if (tab === 'mine') return { member, tab, type, cards, page: null, types: [] };
  const [r, types] = await Promise.all([
    api.goods.list({ kind: 'card', type, pagenum: 0, pagesize: CARD_PAGE_SIZE }),
    dataOr(api.catalog.dict('cardType'), []),
  ]);
  if (r.code !== 200) throw new Response(null, { status: 503 });
  return { member, tab, type, cards, page: r.data, types };
}

const segment = (on: boolean) => `flex-1 rounded-md py-1.5 text-center ${on ? 'bg-white font-semibold shadow-sm' : 'text-black/60'}`;
const chip = (on: boolean) => `shrink-0 rounded-full px-3 py-1 text-sm ${on ? 'bg-primary text-white' : 'bg-white text-black/70'}`;

/** The card products, filtered by type, paged as the member scrolls. */
function Shop(props: { page: Paged<GoodsItem>; type?: CardType; types: DictItem[] }) {
  const { page, type, types } = props;
  const typeLabel = (g: GoodsItem) => types.find((t) => t.value === g.cardType)?.label ?? null;
  return (
    <>
      {types.length > 0 && (
        <nav className="flex gap-2 overflow-x-auto px-4 pb-3" aria-label="card types" data-card-types>
          <Link to={vipcardPath('shop')} replace className={chip(!type)} aria-current={!type ? 'true' : undefined}>
            <Trans>全部</Trans>
          </Link>
          {types.map((t) => (
            <Link
              key={t.value}
              to={vipcardPath('shop', t.value as CardType)}
              replace
              className={chip(type === t.value)}
              aria-current={type === t.value ? 'true' : undefined}
              data-card-type={t.value}
            >
              {t.label}
            </Link>
          ))}
        </nav>
      )}
      <PagedList
        name="card-products"
        first={page}
        fetchPage={(pagenum, pagesize) => browserApiOrThrow().goods.list({ kind: 'card', type, pagenum, pagesize })}
        itemKey={(g) => g.id}
        row={(g, firstScreen) => <CardProductRow g={g} typeLabel={typeLabel(g)} firstScreen={firstScreen} />}
        empty={
          <EmptyList name="card-products" message={type ? <Trans>暂无这一类会员卡</Trans> : <Trans>暂无可购买的会员卡，敬请期待</Trans>} />
        }
      />
    </>
  );
}

/** My cards, or a way to log in or to buy one. */
function Mine(props: { member: boolean; cards: VipcardData['cards'] }) {
  if (!props.member) {
    return (
      <div className="px-8 py-12 text-center text-black/60" data-my-cards-login>
        <p>
          <Trans>登录后查看我的会员卡</Trans>
        </p>
        <Button large rounded component={Link} {...{ to: loginPath(vipcardPath('mine')) }} className="mx-auto mt-4 max-w-60">
          <Trans>登录 / 注册</Trans>
        </Button>
      </div>
    );
  }
  if (props.cards.length === 0) {
    return (
      <EmptyList
        name="my-cards"
        message={<Trans>还没有会员卡</Trans>}
        action={
          <Button large rounded component={Link} {...{ to: vipcardPath('shop') }}>
            <Trans>去购买会员卡</Trans>
          </Button>
        }
      />
    );
  }
  const { current, ended } = groupedCards(props.cards);
  return (
    <>
      <ul className="space-y-3 px-4" data-my-cards>
        {current.map(({ card, status }) => (
          <li key={card.id}>
            <MyCardRow card={card} status={status} />
          </li>
        ))}
      </ul>
      {current.length === 0 && (
        <EmptyList
          name="my-cards"
          message={<Trans>没有可以使用的会员卡</Trans>}
          action={
            <Button large rounded component={Link} {...{ to: vipcardPath('shop') }}>
              <Trans>去购买会员卡</Trans>
            </Button>
          }
        />
      )}
      {ended.length > 0 && (
        <section className="mt-6" data-my-cards-ended>
          <h2 className="mx-4 mb-2 text-sm font-semibold text-black/60">
            <Trans>已停止使用的卡</Trans>
          </h2>
          <ul className="space-y-3 px-4">
            {ended.map(({ card, status }) => (
              <li key={card.id}>
                <MyCardRow card={card} status={status} />
              </li>
            ))}
          </ul>
        </section>
      )}
    </>
  );
}

/** My cards that can still be used (or extended) first; transferred and refunded ones apart, not counted. */
function groupedCards(cards: VipcardData['cards']) {
  return { current: cards.filter((c) => !cardEnded(c.status)), ended: cards.filter((c) => cardEnded(c.status)) };
}

/** /vipcard (spec §2 membership cards): the card products to buy and the member's own cards. */
export default function VipcardScreen() {
  const d = useLoaderData() as VipcardData;
  const usable = groupedCards(d.cards).current.length;
  return (
    <div className="pb-6" data-vipcard={d.tab}>
      <nav className="mx-4 my-3 flex rounded-lg bg-black/5 p-0.5 text-sm" aria-label="membership cards">
        <Link
          to={vipcardPath('shop')}
          replace
          aria-current={d.tab === 'shop' ? 'page' : undefined}
          className={segment(d.tab === 'shop')}
          data-tab="shop"
        >
          <Trans>购买会员卡</Trans>
        </Link>
        <Link
          to={vipcardPath('mine')}
          replace
          aria-current={d.tab === 'mine' ? 'page' : undefined}
          className={segment(d.tab === 'mine')}
          data-tab="mine"
        >
          <Trans>我的会员卡</Trans>
          {usable > 0 && <span className="ml-1 tabular-nums">({usable})</span>}
        </Link>
      </nav>
      {d.tab === 'shop' && d.page ? <Shop page={d.page} type={d.type} types={d.types} /> : <Mine member={d.member} cards={d.cards} />}
    </div>
  );
}
