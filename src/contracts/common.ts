import { z } from '@hono/zod-openapi';

/**
 * What every area's contract shares: ids and paging. Paths and queries arrive as strings: their numbers
 * are coerced and bounded (ids fit PostgreSQL's integer). A JSON body carries real numbers, so its
 * integers are never coerced: `true`, `[5]` and `"0x1f"` are refused, not read as 1, 5 and 31
 * (decision 053). Bad input is a 400 naming the field, never a 500.
 */
export const PAGE_SIZE_MAX = 50;
export const PAGE_NUM_MAX = 10_000;
const INT_MAX = 2_147_483_647;

/** An id in a path or a query string: text, parsed to an integer. Never in a JSON body (IdField). */
export const IdParam = z.coerce.number().int().min(1).max(INT_MAX);

/** An id in a JSON body: a JSON integer and nothing else (no string, boolean or array is read as one). */
export const IdField = z.number().int().min(1).max(INT_MAX);

export const IdQuery = z.object({
  id: IdParam.openapi({ param: { name: 'id', in: 'query' }, example: 1 }),
});

/**
 * A real Shanghai calendar day "YYYY-MM-DD": 2026-02-30 is refused, and so is a day outside 2000-2099
 * (9999-12-31's week ends in year 10000, which no date column takes, so it was a 500).
 */
export const CalendarDay = z
  .string()
  .regex(/^(20\d\d)-\d{2}-\d{2}$/, 'YYYY-MM-DD')
  .refine((d) => {
    const t = Date.parse(`${d}T00:00:00Z`);
    return Number.isFinite(t) && new Date(t).toISOString().slice(0, 10) === d;
  }, 'not a calendar day')
  .openapi({ example: '2026-12-01' });

/** pagenum counts from 0 (DESIGN.md §4). */
export function pagingQuery(defaultSize: number) {
  return {
    pagenum: z.coerce
      .number()
      .int()
      .min(0)
      .max(PAGE_NUM_MAX)
      .default(0)
      .openapi({ param: { name: 'pagenum', in: 'query' }, example: 0 }),
    pagesize: z.coerce
      .number()
      .int()
      .min(1)
      .max(PAGE_SIZE_MAX)
      .default(defaultSize)
      .openapi({ param: { name: 'pagesize', in: 'query' }, example: defaultSize }),
  };
}

/** Which page of a paged list (the same for every list; only the default size differs). */
export type PageQuery = z.infer<z.ZodObject<ReturnType<typeof pagingQuery>>>;

/** A page of items (src/domain/envelope.ts's Paged). */
export function paged<T extends z.ZodTypeAny>(item: T) {
  return z.object({ list: z.array(item), total: z.number().int(), pagenum: z.number().int(), pagesize: z.number().int() });
}
