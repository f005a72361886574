import { data, type LoaderFunctionArgs } from 'react-router-dom';
import type { Order } from '../../../api/orders';
import type { Paged } from '../../../domain/envelope';
import { ORDER_LIST_FILTERS, type OrderListFilter } from '../../../domain/orders';
import { apiFrom } from '../../api-context';

/** Orders per page of /mine/orders: a phone's screen and a scroll's worth. */
export const MY_ORDERS_PAGE_SIZE = 10;

/** /mine/orders and its tabs (decision 096): every order lands on `all`, which needs no query. */
export const myOrdersPath = (status: OrderListFilter = 'all') => (status === 'all' ? '/mine/orders' : `/mine/orders?status=${status}`);

/** The tab named by `?status=`; none is `all`, a name the list does not have is null. */
export function myOrdersTab(search: URLSearchParams): OrderListFilter | null {
  const raw = search.get('status');
  if (raw === null || raw === '') return 'all';
  return (ORDER_LIST_FILTERS as readonly string[]).includes(raw) ? (raw as OrderListFilter) : null;
}

export interface MyOrdersPageData {
  status: OrderListFilter | null;
  page: Paged<Order> | null;
}

/** /mine/orders?status=: page 0 of the tab's orders (members only: the route sends visitors to log in); an unknown tab is not found (404). */
export async function myOrdersLoader({ context, request }: LoaderFunctionArgs) {
  const status = myOrdersTab(new URL(request.url).searchParams);
  if (!status) return data<MyOrdersPageData>({ status: null, page: null }, { status: 404 });
  const r = await apiFrom(context).orders.mine({ status, pagenum: 0, pagesize: MY_ORDERS_PAGE_SIZE });
  if (r.code !== 200) throw new Response(null, { status: r.code === 401 ? 401 : 503 });
  return data<MyOrdersPageData>({ status, page: r.data });
}
