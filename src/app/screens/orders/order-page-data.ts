import { data, type LoaderFunctionArgs } from 'react-router-dom';
import type { OrderDetail, PayMethodUnavailable } from '../../../api/orders';
import { liveShares } from '../../../../machines/order-split.machine';
import type { PayMethod } from '../../../domain/orders';
import { apiFrom } from '../../api-context';
import { sessionFrom } from '../../session/request-session';
import { dataOr, parseId } from '../../ui/data-or';

/** What the order's pages (/orderdetail, /payt, /payf, /pays) render first: the order, its goods' name, how to pay. */
export interface OrderPageData {
  orderNo: string | null;
  order: OrderDetail | null;
  /** `&partSeq=`: the part of a split order the page pays (its seq) */
  partSeq?: number;
  goodsName: string | null;
  methods: PayMethod[];
  /** offered but not usable by this member now, with the reason (shown disabled) */
  unavailable: PayMethodUnavailable[];
  standIn: boolean;
  signedIn: boolean;
}

const ORDER_NO = /^[A-Za-z0-9-]{1,64}$/;

/** `?orderNo=` (and `&partSeq=`): my order (another member's or an unknown number is not found), its goods' name and the pay methods. */
export async function orderPageLoader({ context, request }: LoaderFunctionArgs) {
  const search = new URL(request.url).searchParams;
  const raw = search.get('orderNo');
  const signedIn = !!sessionFrom(context).token;
  const none: OrderPageData = { orderNo: null, order: null, goodsName: null, methods: [], unavailable: [], standIn: false, signedIn };
  if (!raw || !ORDER_NO.test(raw)) return data(none, { status: 404 });
  const api = apiFrom(context);
  const [r, pay] = await Promise.all([
    api.orders.detail(raw),
    dataOr(api.orders.payMethods(), { methods: ['balance' as const], standIn: false, unavailable: [] }),
  ]);
  if (r.code === 404 || r.code === 400) return data({ ...none, orderNo: raw }, { status: 404 });
  if (r.code !== 200) throw new Response(null, { status: 503 });
  // a part is paid only of a split order (a whole order's one share needs no number)
  const partSeq = liveShares(r.data.parts).length > 1 ? (parseId(search.get('partSeq')) ?? undefined) : undefined;
  return data<OrderPageData>({
    orderNo: raw,
    order: r.data,
    ...(partSeq === undefined ? {} : { partSeq }),
    goodsName: r.data.goodsName || null,
    methods: pay.methods,
    unavailable: pay.unavailable ?? [],
    standIn: pay.standIn,
    signedIn,
  });
}
