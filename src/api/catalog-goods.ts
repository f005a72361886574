import type { Goods, GoodsDetail, GoodsPhase, GoodsTeacher } from '../contracts/catalog';
import type { GoodsListQuery } from '../contracts/catalog-queries';
import type { Paged } from '../domain/envelope';
import type { ApiClient } from './client';

// The answers are the server's own schemas, inferred (src/contracts/catalog.ts): they cannot drift.
export type { GoodsDetail, GoodsListQuery, GoodsPhase, GoodsTeacher };
/** One goods item as GET /product/goods/goodList answers it; `memberPriceCents` only with a valid token (spec §1). */
export type GoodsItem = Goods;

/** The goods catalogue (spec §7 goodList and detail). */
export function goodsCalls(http: ApiClient) {
  return {
    list: (q: GoodsListQuery) => http.get<Paged<GoodsItem>>('/product/goods/goodList', { query: { ...q } }),
    detail: (id: number) => http.get<GoodsDetail>('/product/goods/detail', { query: { id } }),
  };
}
