import { useLingui } from '@lingui/react';
import { Trans } from '@lingui/react/macro';
import { Block, List, ListItem } from 'konsta/react';
import { data, Link, useLoaderData, type LoaderFunctionArgs } from 'react-router-dom';
import type { Club } from '../../../api/catalog';
import type { GoodsDetail } from '../../../api/catalog-goods';
import { CARD_TYPES, dictLabel } from '../../../domain/catalog';
import { apiFrom } from '../../api-context';
import { useIsMember } from '../../session/session-provider';
import { dataOr, parseId } from '../../ui/data-or';
import { NotFoundState } from '../../ui/not-found-state';
import { BuyBar } from '../catalog/courses/buy-bar';
import { CardProductTerms } from './card-product-row';

interface CardProductData {
  goods: GoodsDetail | null;
  club: Club | null;
}

/** The card product of `?id=` (a card, else the not-found state) and the studio it is sold for. */
export async function loader({ context, request }: LoaderFunctionArgs) {
  const id = parseId(new URL(request.url).searchParams.get('id'));
  if (id === null) return data<CardProductData>({ goods: null, club: null }, { status: 404 });
  const api = apiFrom(context);
  const r = await api.goods.detail(id);
  if (r.code === 404 || r.code === 400 || r.code === 70004 || (r.code === 200 && r.data.kind !== 'card')) {
    return data<CardProductData>({ goods: null, club: null }, { status: 404 });
  }
  if (r.code !== 200) throw new Response(null, { status: 503 });
  const club = r.data.clubId !== null ? await dataOr(api.catalog.club(r.data.clubId), null) : null;
  return data<CardProductData>({ goods: r.data, club });
}

/**
 * /vipcard/vipcarddetail?id= (spec §7 goods detail): a card product's type, uses, validity, studio,
 * limits and description, with the buy bar (visitors log in first; Buy opens the agreement).
 */
export default function VipcardDetailScreen() {
  const { goods: g, club } = useLoaderData() as CardProductData;
  const { i18n } = useLingui();
  const member = useIsMember();
  if (!g)
    return <NotFoundState message={<Trans>没有找到这张会员卡</Trans>} backTo="/vipcard?tab=shop" backLabel={<Trans>查看会员卡</Trans>} />;
  const type = CARD_TYPES.find((t) => t.value === g.cardType);
  return (
    <article className="pb-[calc(96px+env(safe-area-inset-bottom))]" data-card-product-detail={g.id}>
      <img
        src={g.image}
        alt=""
        width={750}
        height={390}
        decoding="async"
        className="block aspect-[690/360] h-auto w-full bg-black/5 object-cover"
      />
      <Block className="!my-4">
        <h1 className="text-xl font-semibold">{g.name}</h1>
        <p className="mt-1 text-sm text-black/60 tabular-nums">
          <CardProductTerms g={g} />
        </p>
        {!member && (
          <p className="mt-2 text-xs text-black/60">
            <Trans>会员价登录后可见</Trans>
          </p>
        )}
      </Block>
      <List strong inset className="!my-4">
        {type && <ListItem title={<Trans>卡种</Trans>} after={dictLabel(type, i18n.locale === 'en' ? 'en' : 'zh')} />}
        <ListItem title={<Trans>次数</Trans>} after={g.uses !== null ? <Trans>{g.uses}次</Trans> : <Trans>不限次数</Trans>} />
        {g.validityDays !== null && <ListItem title={<Trans>有效期</Trans>} after={<Trans>激活后{g.validityDays}天</Trans>} />}
        <ListItem
          title={<Trans>适用门店</Trans>}
          after={
            club ? (
              <Link to={`/club/detail?id=${club.id}`} className="max-w-[60vw] truncate text-primary">
                {club.name}
              </Link>
            ) : (
              <Trans>全部门店</Trans>
            )
          }
        />
        {g.newCustomersOnly && <ListItem title={<Trans>购买限制</Trans>} after={<Trans>新会员专享</Trans>} />}
        {g.perPersonLimit !== null && <ListItem title={<Trans>限购</Trans>} after={<Trans>每人限购{g.perPersonLimit}份</Trans>} />}
      </List>
      <p className="mx-4 text-xs text-black/60">
        <Trans>购买后为未激活状态，首次预约成功后自动激活并开始计算有效期。</Trans>
      </p>
      {g.description && (
        <Block strong inset className="!my-4 text-sm leading-relaxed whitespace-pre-line" data-description>
          {g.description}
        </Block>
      )}
      <BuyBar goods={g} choice={{}} member={member} />
    </article>
  );
}
