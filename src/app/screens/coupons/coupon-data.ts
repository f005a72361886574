import { data, redirect, type LoaderFunctionArgs } from 'react-router-dom';
import type { CouponDetail, MemberCoupon } from '../../../api/coupons';
import type { Paged } from '../../../domain/envelope';
import { Errors } from '../../../domain/errors';
import type { COUPON_STATES } from '../../../domain/pricing';
import { apiFrom } from '../../api-context';
import { parseId } from '../../ui/data-or';

export type CouponState = (typeof COUPON_STATES)[number];

/**
 * The tabs of /mine/coupons (spec §2, §4; decision 032): `all` the unused coupons (the landing tab,
 * where gifting starts), `waitPay` used, `waitComment` expired, `refunder` transferred to a friend.
 */
export const COUPON_TABS = [
  { tab: 'all', state: 'unused' },
  { tab: 'waitPay', state: 'used' },
  { tab: 'waitComment', state: 'expired' },
  { tab: 'refunder', state: 'transferred' },
] as const satisfies readonly { tab: string; state: CouponState }[];
export type CouponTab = (typeof COUPON_TABS)[number]['tab'];

/** Coupons per page. */
export const COUPONS_PAGE_SIZE = 20;

export const couponsPath = (tab: CouponTab = 'all') => `/mine/coupons/${tab}`;
export const couponGiftPath = (couponId: number) => `/mine/coupons/all/Donation?id=${couponId}`;

/** /mine/coupons: to the unused tab. */
export function redirectToCoupons() {
  throw redirect(couponsPath('all'));
}

export interface CouponsPageData {
  tab: CouponTab | null;
  page: Paged<MemberCoupon> | null;
}

/** /mine/coupons/:tab: page 0 of the tab's coupons; a tab the spec does not have is not found (404). */
export async function couponsLoader({ context, params }: LoaderFunctionArgs) {
  const t = COUPON_TABS.find((x) => x.tab === params.tab);
  if (!t) return data<CouponsPageData>({ tab: null, page: null }, { status: 404 });
  const r = await apiFrom(context).coupons.list({ state: t.state, pagenum: 0, pagesize: COUPONS_PAGE_SIZE });
  if (r.code !== 200) throw new Response(null, { status: r.code === 401 ? 401 : 503 });
  return data<CouponsPageData>({ tab: t.tab, page: r.data });
}

/** /mine/coupons/all/Donation?id=: my coupon and the gifts I may still make; a missing, unknown or another member's id is not found (404). */
export async function couponGiftLoader({ context, request }: LoaderFunctionArgs) {
  const id = parseId(new URL(request.url).searchParams.get('id'));
  if (id === null) return data<CouponDetail | null>(null, { status: 404 });
  const r = await apiFrom(context).coupons.detail(id);
  if (r.code === Errors.notFound.code || r.code === 404 || r.code === 400) return data<CouponDetail | null>(null, { status: 404 });
  if (r.code !== 200) throw new Response(null, { status: r.code === 401 ? 401 : 503 });
  return data<CouponDetail | null>(r.data);
}
