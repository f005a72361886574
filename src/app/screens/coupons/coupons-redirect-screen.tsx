import { redirectToCoupons } from './coupon-data';

/** /mine/coupons (spec §2): redirects to /mine/coupons/all. */
export function loader() {
  return redirectToCoupons();
}

export default function CouponsRedirectScreen() {
  return null;
}
