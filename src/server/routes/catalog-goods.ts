import { createRoute, type z } from '@hono/zod-openapi';
import { and, asc, count, eq, type SQL } from 'drizzle-orm';
import { Errors } from '../../domain/errors';
import { goods } from '../db/schema/index';
import { ApiError } from '../http/api-error';
import { optionalAuth } from '../http/auth';
import { audienceOf, cachedOk, nextChange } from '../http/catalog-cache';
import { createRouter, envelope, ok, refusals } from '../http/router';
import { salesOfGoods, withFlashSale } from '../services/flash-sale/flash-sale';
import { flashSaleGoods, goodsDetailOut, goodsOut } from '../services/catalog-goods';
import { IdQuery, paged } from '../../contracts/common';
import { Goods, GoodsDetail } from '../../contracts/catalog';
import { GoodsListQuery } from '../../contracts/catalog-queries';

const json = <T extends z.ZodTypeAny>(schema: T, description = 'OK') => ({
  description,
  content: { 'application/json': { schema: envelope(schema) } },
});
const tags = ['goods'];

/**
 * The goods catalogue (spec §7 goodList and detail). Public; with a valid token the member price
 * is added (visitors see the list price only).
 */
export const goodsRoutes = createRouter()
  .openapi(
    createRoute({
      method: 'get',
      path: '/goodList',
      tags,
      summary: 'Goods on shelf, paged; filter by kind and card type',
      middleware: [optionalAuth] as const,
      request: { query: GoodsListQuery },
      responses: { 200: json(paged(Goods)), 400: refusals[400] },
    }),
    // a member's answer (with member prices) is the member's own: never public (decision 043)
    (c) =>
      cachedOk(c, { audience: audienceOf(c), personal: true }, async () => {
        const { pagenum, pagesize, kind, type, clubId } = c.req.valid('query');
        const { db } = c.var.deps;
        const where: SQL[] = [eq(goods.onShelf, true)];
        if (kind) where.push(eq(goods.kind, kind));
        if (type) where.push(eq(goods.cardType, type));
        if (clubId !== undefined) where.push(eq(goods.clubId, clubId));
        const filter = and(...where);
        const [total] = await db.select({ n: count() }).from(goods).where(filter);
        const rows = await db
          .select()
          .from(goods)
          .where(filter)
          .orderBy(asc(goods.sort), asc(goods.id))
          .limit(pagesize)
          .offset(pagenum * pagesize);
        const member = c.var.caller !== undefined;
        const flash = await flashSaleGoods(
          db,
          rows.map((g) => g.id),
        );
        // goods sold through a flash sale show the sale's numbers and state (decision 009)
        const sales = await salesOfGoods(
          db,
          rows.map((g) => g.id),
        );
        const now = c.var.deps.clock.now();
        const list = rows.map((g) => withFlashSale(goodsOut(g, c.var.locale, member, flash.has(g.id)), sales.get(g.id), now, c.var.locale));
        // a sale's state changes by itself when it opens and when it ends
        const until = nextChange(
          now,
          [...sales.values()].flatMap((s) => [s.startsAt, s.endsAt]),
        );
        return { data: { list, total: total?.n ?? 0, pagenum, pagesize }, until };
      }),
  )
  .openapi(
    createRoute({
      method: 'get',
      path: '/detail',
      tags,
      summary: 'One goods item (also off shelf, with isUable false)',
      middleware: [optionalAuth] as const,
      request: { query: IdQuery },
      responses: { 200: json(GoodsDetail), 400: refusals[400], 404: refusals[404] },
    }),
    async (c) => {
      const { id } = c.req.valid('query');
      const [g] = await c.var.deps.db.select().from(goods).where(eq(goods.id, id));
      if (!g) throw new ApiError(Errors.notFound);
      return ok(c, await goodsDetailOut(c.var.deps.db, g, c.var.locale, c.var.caller !== undefined, c.var.deps.clock.now()));
    },
  );
