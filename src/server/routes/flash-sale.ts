import { createRoute } from '@hono/zod-openapi';
import { Errors } from '../../domain/errors';
import { flashSalePhase, flashSaleRefusal } from '../../domain/flash-sale';
import { ApiError } from '../http/api-error';
import { optionalAuth } from '../http/auth';
import { createRouter, envelope, ok, refusals } from '../http/router';
import { translate } from '../i18n';
import { loc } from '../services/catalog';
import { findFlashSale, holdsPlace, placeOrder } from '../services/flash-sale/flash-sale';
import { FlashSaleActivity, FlashSaleQuery } from '../../contracts/flash-sale';

/** The flash-sale card (spec §7 GET /product/goods/activity; decision 009). */
export const flashSaleRoutes = createRouter().openapi(
  createRoute({
    method: 'get',
    path: '/',
    tags: ['goods'],
    summary: 'A flash sale: sellNumber, maxNumber, whether it can be bought now and why not (without id: the live or next sale)',
    middleware: [optionalAuth] as const,
    request: { query: FlashSaleQuery },
    responses: {
      200: { description: 'OK', content: { 'application/json': { schema: envelope(FlashSaleActivity) } } },
      400: refusals[400],
      404: refusals[404],
    },
  }),
  async (c) => {
    const { db, clock } = c.var.deps;
    const now = clock.now();
    const sale = await findFlashSale(db, c.req.valid('query').id, now);
    if (!sale) throw new ApiError(Errors.notFound);
    const phase = flashSalePhase(sale, now);
    const mine = c.var.caller ? await holdsPlace(db, sale.id, c.var.caller.accountId) : false;
    const why = flashSaleRefusal(phase) ?? (mine ? Errors.goodsLimitPerPerson : null);
    return ok(c, {
      id: sale.id,
      sellNumber: sale.sellNumber,
      maxNumber: sale.maxNumber,
      isUable: why === null,
      message: why ? translate(c.var.locale, why.message) : null,
      phase,
      goodsId: sale.goodsId,
      activityId: sale.activityId,
      title: loc(c.var.locale, sale.title, sale.titleEn),
      startsAt: sale.startsAt.toISOString(),
      endsAt: sale.endsAt.toISOString(),
      serverNow: now.toISOString(),
      mine,
      myOrder: mine && c.var.caller ? await placeOrder(db, sale, c.var.caller.accountId) : null,
    });
  },
);
