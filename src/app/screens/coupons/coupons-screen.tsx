import { Trans } from '@lingui/react/macro';
import type { ReactNode } from 'react';
import { Link, useLoaderData } from 'react-router-dom';
import { browserApiOrThrow } from '../../api-context';
import { EmptyList, PagedList } from '../../ui/paged-list';
import { NotFoundState } from '../../ui/not-found-state';
import { COUPON_TABS, couponsLoader, couponsPath, type CouponsPageData, type CouponTab } from './coupon-data';
import { CouponRow } from './coupon-row';

export const loader = couponsLoader;

const segment = (on: boolean) => `flex-1 rounded-md py-1.5 text-center ${on ? 'bg-white font-semibold shadow-sm' : 'text-black/60'}`;

const LABELS: Record<CouponTab, ReactNode> = {
  all: <Trans>未使用</Trans>,
  waitPay: <Trans>已使用</Trans>,
  waitComment: <Trans>已过期</Trans>,
  refunder: <Trans>已转赠</Trans>,
};

const EMPTY: Record<CouponTab, ReactNode> = {
  all: <Trans>没有可以使用的优惠券</Trans>,
  waitPay: <Trans>还没有使用过优惠券</Trans>,
  waitComment: <Trans>没有过期的优惠券</Trans>,
  refunder: <Trans>还没有转赠过优惠券</Trans>,
};

/**
 * /mine/coupons/:tab (spec §2 coupons, §3 coupon, §4 coupon tabs; decision 032): my coupons by tab,
 * unused (`all`), used (`waitPay`), expired (`waitComment`), transferred (`refunder`), each with its
 * discount, validity and where it applies; an unused one can be gifted to a friend.
 */
export default function CouponsScreen() {
  const d = useLoaderData() as CouponsPageData;
  if (!d.tab || !d.page)
    return <NotFoundState message={<Trans>没有这个页面</Trans>} backTo={couponsPath('all')} backLabel={<Trans>我的优惠券</Trans>} />;
  const tab = d.tab;
  const state = COUPON_TABS.find((t) => t.tab === tab)!.state;
  return (
    <div className="pb-6" data-coupons={tab}>
      <nav className="mx-4 my-3 flex rounded-lg bg-black/5 p-0.5 text-sm" aria-label="coupons">
        {COUPON_TABS.map((t) => (
          <Link
            key={t.tab}
            to={couponsPath(t.tab)}
            replace
            aria-current={t.tab === tab ? 'page' : undefined}
            className={segment(t.tab === tab)}
            data-tab={t.tab}
          >
            {LABELS[t.tab]}
          </Link>
        ))}
      </nav>
      <PagedList
        name={`coupons-${tab}`}
        first={d.page}
        fetchPage={(pagenum, pagesize) => browserApiOrThrow().coupons.list({ state, pagenum, pagesize })}
        itemKey={(c) => c.id}
        row={(c) => <CouponRow coupon={c} />}
        empty={<EmptyList name={`coupons-${tab}`} message={EMPTY[tab]} />}
      />
    </div>
  );
}
