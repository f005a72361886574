import { z } from '@hono/zod-openapi';
import { CARD_TYPE_VALUES, DICT_TYPES, GOODS_KIND_VALUES } from '../domain/catalog';
import { IdParam, pagingQuery } from './common';

/** What the public catalogue's lists and lookups take (their answers are in ./catalog). */

/** GET /index/home/search: one to fifty characters, Chinese or English. */
export const SearchQuery = z.object({
  keywords: z
    .string()
    .trim()
    .min(1)
    .max(50)
    .openapi({ param: { name: 'keywords', in: 'query' }, example: '瑜伽' }),
});
export type SearchQuery = z.infer<typeof SearchQuery>;

/** GET /index/home/dict/select: which dictionary. */
export const DictQuery = z.object({ type: z.enum(DICT_TYPES).openapi({ param: { name: 'type', in: 'query' }, example: 'cardType' }) });
export type DictQuery = z.infer<typeof DictQuery>;

/** GET /school/clubs/distance: the member's position. */
export const DistanceQuery = z.object({
  lat: z.coerce
    .number()
    .min(-90)
    .max(90)
    .openapi({ param: { name: 'lat', in: 'query' }, example: 31.2304 }),
  lng: z.coerce
    .number()
    .min(-180)
    .max(180)
    .openapi({ param: { name: 'lng', in: 'query' }, example: 121.4737 }),
});
export type DistanceQuery = z.infer<typeof DistanceQuery>;

/** GET /school/teachers: optionally one club's, or one style's. */
export const TeachersQuery = z.object({
  clubId: IdParam.optional().openapi({ param: { name: 'clubId', in: 'query' } }),
  style: z
    .string()
    .regex(/^[a-z0-9-]{1,40}$/)
    .optional()
    .openapi({ param: { name: 'style', in: 'query' }, example: 'hatha' }),
});
export type TeachersQuery = z.infer<typeof TeachersQuery>;

const GOODS_PAGE_SIZE = 10;

/** GET /product/goods/goodList: a page of goods on shelf, by kind, card type and club. */
export const GoodsListQuery = z.object({
  ...pagingQuery(GOODS_PAGE_SIZE),
  kind: z
    .enum(GOODS_KIND_VALUES)
    .optional()
    .openapi({ param: { name: 'kind', in: 'query' }, example: 'card' }),
  type: z
    .enum(CARD_TYPE_VALUES)
    .optional()
    .openapi({ param: { name: 'type', in: 'query', description: 'card type' }, example: 'count' }),
  clubId: IdParam.optional().openapi({ param: { name: 'clubId', in: 'query' } }),
});
export type GoodsListQuery = z.infer<typeof GoodsListQuery>;
