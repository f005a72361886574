import { Trans } from '@lingui/react/macro';
import type { GoodsItem } from '../../../api/catalog-goods';
import { GoodsPrice } from '../../ui/goods-price';
import { PaintFirstLink } from '../../ui/paint-first-link';

/** The /vipcard/vipcarddetail page of one card product. */
export function cardProductPath(id: number): string {
  return `/vipcard/vipcarddetail?id=${id}`;
}

/** What a card product gives: its uses (or unlimited) and how long it runs. */
export function CardProductTerms(props: { g: Pick<GoodsItem, 'uses' | 'validityDays'> }) {
  const { uses, validityDays } = props.g;
  return (
    <>
      {uses !== null ? <Trans>{uses}次</Trans> : <Trans>不限次数</Trans>}
      {validityDays !== null && (
        <>
          {' · '}
          <Trans>有效期{validityDays}天</Trans>
        </>
      )}
    </>
  );
}

/** One card product on /vipcard: picture, name, type, terms, price (member price only after login). */
export function CardProductRow(props: { g: GoodsItem; typeLabel: string | null; firstScreen?: boolean }) {
  const g = props.g;
  return (
    <PaintFirstLink
      showOpening
      to={cardProductPath(g.id)}
      className="flex gap-3 rounded-xl bg-white p-3 active:opacity-80 aria-busy:opacity-60"
      data-card-product={g.id}
    >
      <img
        src={g.image}
        alt=""
        width={96}
        height={64}
        loading={props.firstScreen ? 'eager' : 'lazy'}
        decoding="async"
        className="h-16 w-24 shrink-0 rounded-lg bg-black/5 object-cover"
      />
      <span className="min-w-0 flex-1">
        <span className="flex items-center gap-2">
          <span className="truncate font-semibold">{g.name}</span>
          {props.typeLabel && <span className="shrink-0 rounded bg-primary/10 px-1.5 py-0.5 text-xs text-primary">{props.typeLabel}</span>}
        </span>
        <span className="mt-0.5 block truncate text-xs text-black/60 tabular-nums">
          <CardProductTerms g={g} />
        </span>
        <span className="mt-1 flex items-end justify-between gap-2">
          <GoodsPrice listPriceCents={g.listPriceCents} memberPriceCents={g.memberPriceCents} />
          {!g.isUable && g.message && <span className="truncate text-xs text-rose-600">{g.message}</span>}
        </span>
      </span>
    </PaintFirstLink>
  );
}
