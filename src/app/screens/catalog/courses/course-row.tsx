import { Trans } from '@lingui/react/macro';
import { Link } from 'react-router-dom';
import type { GoodsItem } from '../../../../api/catalog-goods';
import { shanghaiDateSpan } from '../../../../domain/time';
import { GoodsPrice } from '../../../ui/goods-price';

/** Places left of goods with a limited stock, or null. */
export function placesLeft(g: Pick<GoodsItem, 'stock'>): number | null {
  return g.stock === null ? null : Math.max(0, g.stock);
}

/** One course of a class-type catalogue: picture, name, dates, places left, price; opens the detail. */
export function CourseRow(props: { g: GoodsItem; to: string }) {
  const g = props.g;
  const left = placesLeft(g);
  return (
    <Link to={props.to} className="block overflow-hidden rounded-xl bg-white active:opacity-80" data-goods={g.id}>
      <img
        src={g.image}
        alt=""
        width={690}
        height={360}
        loading="lazy"
        decoding="async"
        className="block aspect-[690/360] h-auto w-full bg-black/5 object-cover"
      />
      <span className="block p-3">
        <span className="block truncate font-semibold">{g.name}</span>
        <span className="mt-1 flex items-end justify-between gap-2">
          <span className="min-w-0 truncate text-xs text-black/60 tabular-nums">
            {g.startsAt && g.endsAt ? shanghaiDateSpan(g.startsAt, g.endsAt) : null}
            {g.startsAt && g.endsAt && left !== null ? ' · ' : null}
            {!g.isUable ? <span className="text-rose-600">{g.message}</span> : left !== null ? <Trans>剩余{left}个名额</Trans> : null}
          </span>
          <span className="shrink-0">
            <GoodsPrice listPriceCents={g.listPriceCents} memberPriceCents={g.memberPriceCents} />
          </span>
        </span>
      </span>
    </Link>
  );
}
