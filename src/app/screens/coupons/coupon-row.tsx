import { useLingui } from '@lingui/react';
import { Trans } from '@lingui/react/macro';
import { Link } from 'react-router-dom';
import type { MemberCoupon } from '../../../api/coupons';
import { dictLabel, GOODS_KINDS } from '../../../domain/catalog';
import { formatYuan } from '../../../domain/money';
import { lastValidDay, shanghaiDate } from '../../../domain/time';
import { couponGiftPath } from './coupon-data';

/** The coupon's discount: an amount or a percent off. */
export function CouponDiscount(props: { coupon: MemberCoupon }) {
  const c = props.coupon;
  if (c.percentOff !== null) {
    const percent = c.percentOff;
    return <Trans>优惠{percent}%</Trans>;
  }
  const amount = formatYuan(c.offCents);
  return <Trans>减{amount}</Trans>;
}

/** Its minimum spend, or none. */
export function CouponMinSpend(props: { coupon: MemberCoupon }) {
  if (props.coupon.minSpendCents <= 0) return <Trans>无门槛</Trans>;
  const min = formatYuan(props.coupon.minSpendCents);
  return <Trans>满{min}可用</Trans>;
}

/** Its validity: the first and the last day it can be used (its end is the instant it stops). */
export function CouponValidity(props: { coupon: MemberCoupon }) {
  const from = shanghaiDate(props.coupon.validFrom);
  const until = lastValidDay(props.coupon.validUntil);
  return (
    <Trans>
      有效期 {from} 至 {until}
    </Trans>
  );
}

/** Where it applies: the goods kinds, or every kind. */
export function CouponAppliesTo(props: { coupon: MemberCoupon }) {
  const { i18n } = useLingui();
  const locale = i18n.locale === 'en' ? 'en' : 'zh';
  if (props.coupon.appliesTo.length === 0) return <Trans>适用于全部商品（优惠券除外）</Trans>;
  const kinds = props.coupon.appliesTo
    .map((k) => dictLabel(GOODS_KINDS.find((g) => g.value === k) ?? { zh: k, en: k }, locale))
    .join(locale === 'en' ? ', ' : '、');
  return <Trans>适用于：{kinds}</Trans>;
}

/** The coupon's face: name, discount, minimum spend, validity and where it applies. */
export function CouponFace(props: { coupon: MemberCoupon }) {
  const c = props.coupon;
  return (
    <div className="flex gap-3">
      <p className="w-24 shrink-0 text-center font-semibold text-red-600" data-coupon-discount>
        <span className="block text-lg leading-tight">
          <CouponDiscount coupon={c} />
        </span>
        <span className="block text-xs font-normal text-black/60" data-coupon-min>
          <CouponMinSpend coupon={c} />
        </span>
      </p>
      <div className="min-w-0 flex-1 text-sm">
        <p className="truncate font-medium text-base" data-coupon-name>
          {c.name}
        </p>
        <p className="text-black/60 tabular-nums" data-coupon-validity>
          <CouponValidity coupon={c} />
        </p>
        <p className="text-black/60" data-coupon-applies>
          <CouponAppliesTo coupon={c} />
        </p>
      </div>
    </div>
  );
}

/** One coupon of a tab: its face, then what happened to it (used, gifted, received) or "gift" for an unused one. */
export function CouponRow(props: { coupon: MemberCoupon }) {
  const c = props.coupon;
  const usedAt = c.usedAt ? shanghaiDate(c.usedAt) : '';
  const giftedAt = c.giftedAt ? shanghaiDate(c.giftedAt) : '';
  const to = c.giftedTo ?? '';
  const from = c.giftedFrom ?? '';
  return (
    <article
      className={`rounded-xl bg-white p-3 ${c.state === 'unused' ? '' : 'opacity-70'}`}
      data-coupon={c.id}
      data-coupon-state={c.state}
    >
      <CouponFace coupon={c} />
      <div className="mt-2 flex items-center justify-between gap-2 border-t border-black/5 pt-2 text-xs text-black/60">
        <span data-coupon-note>
          {c.state === 'used' && usedAt && <Trans>{usedAt} 已使用</Trans>}
          {c.state === 'transferred' && (
            <Trans>
              {giftedAt} 已赠送给 {to}
            </Trans>
          )}
          {c.state !== 'transferred' && c.giftedFrom && <Trans>来自 {from} 的赠送</Trans>}
        </span>
        {c.state === 'unused' && (
          <Link
            to={couponGiftPath(c.id)}
            className="shrink-0 rounded-full border border-primary px-3 py-1 text-sm text-primary"
            data-action="coupon-gift"
          >
            <Trans>赠送好友</Trans>
          </Link>
        )}
      </div>
    </article>
  );
}
