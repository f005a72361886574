import type { CardType, GoodsKind } from '../domain/catalog';
import type { Paged } from '../domain/envelope';
import type { ApiClient } from './client';

/**
 * One goods item as GET /product/goods/goodList answers it (text in the request's language).
 * `memberPriceCents` only comes with a valid token: visitors see the list price (spec §1).
 */
export interface GoodsItem {
  id: number;
  kind: GoodsKind;
  cardType: CardType | null;
  name: string;
  /** an image URL */
  image: string;
  listPriceCents: number;
  memberPriceCents?: number;
  /** units left; null = unlimited */
  stock: number | null;
  sellNumber: number;
  maxNumber: number | null;
  onShelf: boolean;
  uses: number | null;
  validityDays: number | null;
  clubId: number | null;
  teacherId: number | null;
  startsAt: string | null;
  endsAt: string | null;
  newCustomersOnly: boolean;
  perPersonLimit: number | null;
  /** can be bought now (spec spelling); `message` says why not */
  isUable: boolean;
  message: string | null;
}

/** A phase of a training course: the buyer chooses one (spec §5 "phase or teacher chosen"). */
export interface GoodsPhase {
  id: number;
  name: string;
  startsAt: string | null;
  endsAt: string | null;
  /** a phase's own price; absent or null = the goods' price (member price only with a valid token) */
  listPriceCents?: number | null;
  memberPriceCents?: number | null;
  /** places left; null = unlimited */
  stock?: number | null;
  /** false when this phase cannot be chosen (full, closed) */
  isUable?: boolean;
  message?: string | null;
}

/** A teacher a private class can be bought with. */
export interface GoodsTeacher {
  id: number;
  name: string;
  photo?: string;
  clubName?: string | null;
}

/** GET /product/goods/detail: the item, its description, and the choices it needs, if any. */
export interface GoodsDetail extends GoodsItem {
  description: string;
  phases?: GoodsPhase[];
  teachers?: GoodsTeacher[];
}

export interface GoodsListQuery {
  pagenum: number;
  pagesize: number;
  kind?: GoodsKind;
  type?: CardType;
  clubId?: number;
}

/** The goods catalogue (spec §7 goodList and detail). */
export function goodsCalls(http: ApiClient) {
  return {
    list: (q: GoodsListQuery) => http.get<Paged<GoodsItem>>('/product/goods/goodList', { query: { ...q } }),
    detail: (id: number) => http.get<GoodsDetail>('/product/goods/detail', { query: { id } }),
  };
}
