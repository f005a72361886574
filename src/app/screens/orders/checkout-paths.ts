import { loginPath } from '../../session/request-session';
import { parseId } from '../../ui/data-or';

/** What /agreement/payagreement was opened for: `?id=` (required), `phaseId=`, `teacherId=` (when the goods need one). */
export interface PayAgreementQuery {
  goodsId: number;
  phaseId?: number;
  teacherId?: number;
}

/** Reads the entry point's query; null when `id` is missing or not an id (the page shows not found). */
export function payAgreementQuery(search: URLSearchParams): PayAgreementQuery | null {
  const goodsId = parseId(search.get('id'));
  if (goodsId === null) return null;
  const phaseId = parseId(search.get('phaseId')) ?? undefined;
  const teacherId = parseId(search.get('teacherId')) ?? undefined;
  return { goodsId, ...(phaseId !== undefined ? { phaseId } : {}), ...(teacherId !== undefined ? { teacherId } : {}) };
}

/** An order's page and the payment pages, by order number (and the part of a split order being paid). */
const withPart = (page: string, orderNo: string, partSeq?: number) =>
  `${page}?orderNo=${encodeURIComponent(orderNo)}${partSeq === undefined ? '' : `&partSeq=${partSeq}`}`;
export const orderPath = (orderNo: string, partSeq?: number) => withPart('/orderdetail', orderNo, partSeq);
export const handoverPath = (orderNo: string, partSeq?: number) => withPart('/payt', orderNo, partSeq);
export const successPath = (orderNo: string, partSeq?: number) => withPart('/payf', orderNo, partSeq);
export const failurePath = (orderNo: string, partSeq?: number) => withPart('/pays', orderNo, partSeq);
/** A split order's page: its parts, or the form that divides it. */
export const splitPath = (orderNo: string) => `/orderdetail/splittopay?orderNo=${encodeURIComponent(orderNo)}`;
/** Asking a friend to pay one part (friend pay). */
export const friendPartPath = (orderNo: string, partSeq: number) =>
  `/friendsplit?orderNo=${encodeURIComponent(orderNo)}&partSeq=${partSeq}`;

/** Where the checkout's page is (null: here): a visitor (a state tagged `loginPage`) logs in and comes back to `here`. */
export function checkoutPath(loginPage: boolean, here: string): string | null {
  return loginPage ? loginPath(here) : null;
}

/** The page a payment's state belongs on: the pay-order chart tags its states with it. */
export type PayPage = 'loginPage' | 'handoverPage' | 'resultPage' | 'failurePage' | 'orderPage';
const PAY_PAGES: readonly PayPage[] = ['loginPage', 'handoverPage', 'resultPage', 'failurePage', 'orderPage'];
/** The page tag of a payment's state (undefined: it stays where it is). */
export const payPageOf = (s: { hasTag(tag: PayPage): boolean }): PayPage | undefined => PAY_PAGES.find((p) => s.hasTag(p));

/**
 * Where a payment's page is (null: wherever it is), by its state's page tag: a visitor logs in and
 * comes back to `here`; the member goes to Alipay through /payt; waiting for the provider and success
 * are /payf, failure /pays (spec naming); choosing how to pay, or a closed order, is its /orderdetail.
 */
export function payOrderPath(page: PayPage | undefined, orderNo: string | undefined, here: string, partSeq?: number): string | null {
  if (page === 'loginPage') return loginPath(here);
  if (!orderNo) return null;
  if (page === 'handoverPage') return handoverPath(orderNo, partSeq);
  if (page === 'resultPage') return successPath(orderNo, partSeq);
  if (page === 'failurePage') return failurePath(orderNo, partSeq);
  if (page === 'orderPage') return orderPath(orderNo, partSeq);
  return null;
}
