import { z } from '@hono/zod-openapi';
import { CARD_TYPE_VALUES, GOODS_KIND_VALUES } from '../../domain/catalog';

/**
 * Query and answer schemas of the public catalogue. Queries arrive as strings: numbers are coerced
 * and bounded (ids fit PostgreSQL's integer), so bad input is a 400 naming the field, never a 500.
 */
export const PAGE_SIZE_MAX = 50;
export const PAGE_NUM_MAX = 10_000;
const INT_MAX = 2_147_483_647;

export const IdParam = z.coerce.number().int().min(1).max(INT_MAX);

export const IdQuery = z.object({
  id: IdParam.openapi({ param: { name: 'id', in: 'query' }, example: 1 }),
});

/** pagenum counts from 0 (DESIGN.md §4). */
export function pagingQuery(defaultSize: number) {
  return {
    pagenum: z.coerce.number().int().min(0).max(PAGE_NUM_MAX).default(0).openapi({ param: { name: 'pagenum', in: 'query' }, example: 0 }),
    pagesize: z.coerce
      .number()
      .int()
      .min(1)
      .max(PAGE_SIZE_MAX)
      .default(defaultSize)
      .openapi({ param: { name: 'pagesize', in: 'query' }, example: defaultSize }),
  };
}

export function paged<T extends z.ZodTypeAny>(item: T) {
  return z.object({ list: z.array(item), total: z.number().int(), pagenum: z.number().int(), pagesize: z.number().int() });
}

const IsoTime = z.string().openapi({ example: '2026-11-20T02:00:00.000Z' });

export const Club = z
  .object({
    id: z.number().int(),
    name: z.string(),
    city: z.string(),
    address: z.string(),
    phone: z.string(),
    lat: z.number(),
    lng: z.number(),
    coverImage: z.string(),
    openingHours: z.string().openapi({ example: '07:00-22:00' }),
  })
  .openapi('Club');

export const Teacher = z
  .object({
    id: z.number().int(),
    name: z.string(),
    photo: z.string(),
    styles: z.array(z.string()),
    years: z.number().int(),
    clubId: z.number().int().nullable(),
    clubName: z.string().nullable(),
  })
  .openapi('Teacher');

export const ClubDetail = Club.extend({
  intro: z.string(),
  teachers: z.array(Teacher),
}).openapi('ClubDetail');

export const TeacherDetail = Teacher.extend({
  bio: z.string(),
  club: Club.nullable(),
}).openapi('TeacherDetail');

export const ClubDistance = z
  .object({ id: z.number().int(), name: z.string(), distance: z.number().int().openapi({ description: 'metres' }) })
  .openapi('ClubDistance');

export const Banner = z
  .object({ id: z.number().int(), title: z.string(), image: z.string(), link: z.string().nullable() })
  .openapi('Banner');

export const Activity = z
  .object({
    id: z.number().int(),
    title: z.string(),
    image: z.string(),
    summary: z.string(),
    startsAt: IsoTime,
    endsAt: IsoTime,
    clubId: z.number().int().nullable(),
    goodsId: z.number().int().nullable(),
  })
  .openapi('Activity');

export const ActivityDetail = Activity.extend({ body: z.string() }).openapi('ActivityDetail');

export const Goods = z
  .object({
    id: z.number().int(),
    kind: z.enum(GOODS_KIND_VALUES),
    cardType: z.enum(CARD_TYPE_VALUES).nullable(),
    name: z.string(),
    image: z.string(),
    listPriceCents: z.number().int(),
    memberPriceCents: z.number().int().optional().openapi({ description: 'only with a valid token' }),
    stock: z.number().int().nullable().openapi({ description: 'units left; null = unlimited' }),
    sellNumber: z.number().int(),
    maxNumber: z.number().int().nullable(),
    onShelf: z.boolean(),
    uses: z.number().int().nullable(),
    validityDays: z.number().int().nullable(),
    clubId: z.number().int().nullable(),
    teacherId: z.number().int().nullable(),
    startsAt: IsoTime.nullable(),
    endsAt: IsoTime.nullable(),
    newCustomersOnly: z.boolean(),
    perPersonLimit: z.number().int().nullable(),
    isUable: z.boolean().openapi({ description: 'can be bought now (spec spelling)' }),
    message: z.string().nullable().openapi({ description: 'why not, when isUable is false' }),
  })
  .openapi('Goods');

export const GoodsPhase = z
  .object({
    id: z.number().int(),
    name: z.string(),
    startsAt: IsoTime.nullable(),
    endsAt: IsoTime.nullable(),
    listPriceCents: z.number().int().optional().openapi({ description: 'present when the phase has its own price' }),
    memberPriceCents: z.number().int().optional().openapi({ description: 'logged-in callers only' }),
    isUable: z.boolean().openapi({ description: 'false once the phase has started' }),
    message: z.string().nullable(),
  })
  .openapi('GoodsPhase');

export const GoodsTeacher = z
  .object({ id: z.number().int(), name: z.string(), photo: z.string(), clubName: z.string().nullable() })
  .openapi('GoodsTeacher');

export const GoodsDetail = Goods.extend({
  description: z.string(),
  phases: z.array(GoodsPhase).openapi({ description: 'a training course with phases: one must be chosen (phaseId), else 50007' }),
  teachers: z.array(GoodsTeacher).openapi({ description: 'a private class with teachers: one must be chosen (teacherId), else 50008' }),
}).openapi('GoodsDetail');

export const Notice = z
  .object({
    id: z.number().int(),
    title: z.string(),
    body: z.string(),
    createdAt: IsoTime,
    personal: z.boolean().openapi({ description: 'addressed to the caller (else a system notice)' }),
    read: z.boolean(),
  })
  .openapi('Notice');

export const DictItem = z.object({ value: z.string(), label: z.string() }).openapi('DictItem');

export const SearchResult = z
  .object({ clubs: z.array(Club), teachers: z.array(Teacher), goods: z.array(Goods), activities: z.array(Activity) })
  .openapi('SearchResult');
