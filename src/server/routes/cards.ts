import { createRoute, z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { Errors } from '../../domain/errors';
import type { AppEnv, Caller } from '../env';
import { ApiError } from '../http/api-error';
import { requireAuth } from '../http/auth';
import { idempotent } from '../http/idempotency';
import { createRouter, envelope, ok, refusals } from '../http/router';
import { activateCard } from '../services/cards/activate';
import { changeCardAdviser, clubAdvisers } from '../services/cards/adviser';
import { cardDetail } from '../services/cards/detail';
import { extendCard } from '../services/cards/extend';
import { freezeCard, unfreezeCard } from '../services/cards/freeze';
import { myCardHistory } from '../services/orders/mine';
import { myCards } from '../services/booking/views';
import { MemberCard } from '../../contracts/booking';
import { IdQuery, paged } from '../../contracts/common';
import {
  AdvisersQuery,
  CardAdviser,
  CardAdviserBody,
  CardDetail,
  CardExtendBody,
  CardFreezeBody,
  CardHistoryItem,
  CardHistoryQuery,
  CardIdBody,
} from '../../contracts/cards';

const json = <T extends z.ZodTypeAny>(schema: T, description = 'OK') => ({
  description,
  content: { 'application/json': { schema: envelope(schema) } },
});
const tags = ['cards'];
const me = (c: Context<AppEnv>) => (c.var.caller as Caller).accountId;
/** My cards: the list, a card, activate, freeze, unfreeze, extend, adviser and timeline (/api/customers/cards). */
export const cardRoutes = createRouter()
  .openapi(
    createRoute({
      method: 'get',
      path: '/',
      tags,
      summary: 'My membership cards',
      middleware: [requireAuth] as const,
      responses: { 200: json(z.array(MemberCard)), 401: refusals[401] },
    }),
    async (c) => ok(c, await myCards(c.var.deps.db, me(c), c.var.locale)),
  )
  .openapi(
    createRoute({
      method: 'get',
      path: '/detail',
      tags,
      summary: "One of my cards with its history (another member's card is 404)",
      middleware: [requireAuth] as const,
      request: { query: IdQuery },
      responses: { 200: json(CardDetail), 400: refusals[400], 401: refusals[401], 404: refusals[404] },
    }),
    async (c) => {
      const detail = await cardDetail(c.var.deps.db, me(c), c.req.valid('query').id, c.var.locale, c.var.deps.clock.now());
      if (!detail) throw new ApiError(Errors.notFound, { field: 'id' });
      return ok(c, detail);
    },
  )
  .openapi(
    createRoute({
      method: 'post',
      path: '/activate',
      tags,
      summary: 'Activate one of my inactive cards (the card chart decides; 30001 otherwise). Idempotency-Key accepted.',
      middleware: [requireAuth, idempotent] as const,
      request: { body: { content: { 'application/json': { schema: CardIdBody } }, required: true } },
      responses: { 200: json(CardDetail), 400: refusals[400], 401: refusals[401], 404: refusals[404], 409: refusals[409] },
    }),
    async (c) => {
      const { deps, locale } = c.var;
      const card = await activateCard(deps.db, deps.clock, me(c), c.req.valid('json').id);
      return ok(c, (await cardDetail(deps.db, me(c), card.id, locale, deps.clock.now()))!);
    },
  )
  .openapi(
    createRoute({
      method: 'post',
      path: '/freeze',
      tags,
      summary:
        'Freeze one of my cards from one Shanghai day to another, both frozen (spec §5; decision 024): from today it is frozen now, from a later day the freeze is planned and starts by the time-passing job; its validity end moves later by those days. Refused with 30xxx (status, a freeze planned, dates, bookings in the period). Idempotency-Key accepted.',
      middleware: [requireAuth, idempotent] as const,
      request: { body: { content: { 'application/json': { schema: CardFreezeBody } }, required: true } },
      responses: { 200: json(CardDetail), 400: refusals[400], 401: refusals[401], 404: refusals[404], 409: refusals[409] },
    }),
    async (c) => {
      const { deps, locale } = c.var;
      const card = await freezeCard(deps.db, deps.clock, me(c), c.req.valid('json'));
      return ok(c, (await cardDetail(deps.db, me(c), card.id, locale, deps.clock.now()))!);
    },
  )
  .openapi(
    createRoute({
      method: 'post',
      path: '/unfreeze',
      tags,
      summary:
        'Unfreeze one of my frozen cards now, or call off its planned freeze (decision 024): the days not frozen are taken back from its validity end. 30017 when not frozen. Idempotency-Key accepted.',
      middleware: [requireAuth, idempotent] as const,
      request: { body: { content: { 'application/json': { schema: CardIdBody } }, required: true } },
      responses: { 200: json(CardDetail), 400: refusals[400], 401: refusals[401], 404: refusals[404], 409: refusals[409] },
    }),
    async (c) => {
      const { deps, locale } = c.var;
      const card = await unfreezeCard(deps.db, deps.clock, me(c), c.req.valid('json').id);
      return ok(c, (await cardDetail(deps.db, me(c), card.id, locale, deps.clock.now()))!);
    },
  )
  .openapi(
    createRoute({
      method: 'post',
      path: '/extend',
      tags,
      summary:
        "Extend one of my cards (in use or expired) to end on a later Shanghai day, free, within its card type's count and days (spec §5; decision 024); an expired card is in use again. Idempotency-Key accepted.",
      middleware: [requireAuth, idempotent] as const,
      request: { body: { content: { 'application/json': { schema: CardExtendBody } }, required: true } },
      responses: { 200: json(CardDetail), 400: refusals[400], 401: refusals[401], 404: refusals[404], 409: refusals[409] },
    }),
    async (c) => {
      const { deps, locale } = c.var;
      const card = await extendCard(deps.db, deps.clock, me(c), c.req.valid('json'));
      return ok(c, (await cardDetail(deps.db, me(c), card.id, locale, deps.clock.now()))!);
    },
  )
  .openapi(
    createRoute({
      method: 'get',
      path: '/advisers',
      tags,
      summary:
        'The advisers a member may choose in one club (spec §5: a club first, then its adviser; decision 034). 30047 for a club that does not exist.',
      middleware: [requireAuth] as const,
      request: { query: AdvisersQuery },
      responses: { 200: json(z.array(CardAdviser)), 400: refusals[400], 401: refusals[401], 404: refusals[404] },
    }),
    async (c) => ok(c, await clubAdvisers(c.var.deps.db, c.req.valid('query').clubId, c.var.locale)),
  )
  .openapi(
    createRoute({
      method: 'post',
      path: '/adviser',
      tags,
      summary:
        "Change one of my cards' adviser (spec §4, §5; decision 034): a club, then one of its advisers, both required (30045 clubId, 30046 adviserId); 30047 no such club, 30048 not that club's adviser, 30049 already the card's adviser; a transferred or invalid card, or one with an unfinished transfer application, refuses. The change is kept (who, from, to, when) and shows on the card's timeline. Idempotency-Key accepted.",
      middleware: [requireAuth, idempotent] as const,
      request: { body: { content: { 'application/json': { schema: CardAdviserBody } }, required: true } },
      responses: { 200: json(CardDetail), 400: refusals[400], 401: refusals[401], 404: refusals[404], 409: refusals[409] },
    }),
    async (c) => {
      const { deps, locale } = c.var;
      const card = await changeCardAdviser(deps.db, deps.clock, me(c), c.req.valid('json'));
      return ok(c, (await cardDetail(deps.db, me(c), card.id, locale, deps.clock.now()))!);
    },
  )
  .openapi(
    createRoute({
      method: 'get',
      path: '/history',
      tags,
      summary:
        "One of my cards' timeline, newest first, read from the stored records: bought, activated (by which class), classes booked with it and uses given back, freezes and early unfreezes, extensions, transfer out (applied, outcome) or in, refund (asked, outcome), changes of adviser (paged). Another member's card is 404 70004.",
      middleware: [requireAuth] as const,
      request: { query: CardHistoryQuery },
      responses: { 200: json(paged(CardHistoryItem)), 400: refusals[400], 401: refusals[401], 404: refusals[404] },
    }),
    async (c) => {
      const { id, pagenum, pagesize } = c.req.valid('query');
      const page = await myCardHistory(c.var.deps.db, me(c), id, c.var.locale, pagenum, pagesize);
      if (!page) throw new ApiError(Errors.notFound, { field: 'id' });
      return ok(c, page);
    },
  );
