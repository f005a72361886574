import { createRoute, type z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { IdQuery } from '../../contracts/common';
import { CardFamily, CardFamilyAddBody, CardFamilyRemoveBody, CardGift, CardGiftBody } from '../../contracts/cards';
import type { AppEnv, Caller } from '../env';
import { requireAuth } from '../http/auth';
import { idempotent } from '../http/idempotency';
import { createRouter, envelope, ok, refusals } from '../http/router';
import { addFamilySub, myCardFamily, removeFamilySub } from '../services/cards/family';
import { giftCard } from '../services/cards/gift';

const json = <T extends z.ZodTypeAny>(schema: T, description = 'OK') => ({
  description,
  content: { 'application/json': { schema: envelope(schema) } },
});
const tags = ['card family and gift'];
const me = (c: Context<AppEnv>) => (c.var.caller as Caller).accountId;
const all = { 400: refusals[400], 401: refusals[401], 403: refusals[403], 404: refusals[404], 409: refusals[409] } as const;
const NOT_MINE = "a family sub-card holder or the giver of a gift is 30002 not owner (403); another member's card 404 70004";

/** Family sub cards and gift cards (decision 040). */
export const cardFamilyRoutes = createRouter()
  .openapi(
    createRoute({
      method: 'get',
      path: '/',
      tags,
      summary: `One of my family main cards' sharing: the places its type gives (card_type_rules.family_slots) and its sub-card holders (masked). 30050 not a family main card; ${NOT_MINE}`,
      middleware: [requireAuth] as const,
      request: { query: IdQuery },
      responses: { 200: json(CardFamily), ...all },
    }),
    async (c) => ok(c, await myCardFamily(c.var.deps.db, me(c), c.req.valid('query').id)),
  )
  .openapi(
    createRoute({
      method: 'post',
      path: '/add',
      tags,
      summary: `Add a sub-card holder to one of my family main cards by phone: they book with the card, its uses and validity shared. 30050 not a family main card, 30051 no place left, 30036 no such member, 30052 myself, 30053 already sharing it, the card's status (ended or expired), 30004 an unfinished application; ${NOT_MINE}. Idempotency-Key accepted.`,
      middleware: [requireAuth, idempotent] as const,
      request: { body: { content: { 'application/json': { schema: CardFamilyAddBody } }, required: true } },
      responses: { 200: json(CardFamily), ...all },
    }),
    async (c) => ok(c, await addFamilySub(c.var.deps.db, c.var.deps.clock, me(c), c.req.valid('json'))),
  )
  .openapi(
    createRoute({
      method: 'post',
      path: '/remove',
      tags,
      summary: `Remove a sub-card holder from one of my family main cards. 30055 no such sub card on it (subId), 30054 they have bookings or queue places ahead with it; ${NOT_MINE}. Idempotency-Key accepted.`,
      middleware: [requireAuth, idempotent] as const,
      request: { body: { content: { 'application/json': { schema: CardFamilyRemoveBody } }, required: true } },
      responses: { 200: json(CardFamily), ...all },
    }),
    async (c) => ok(c, await removeFamilySub(c.var.deps.db, c.var.deps.clock, me(c), c.req.valid('json'))),
  );

/** A card given to another member (/api/customers/cards/gift). */
export const cardGiftRoutes = createRouter().openapi(
  createRoute({
    method: 'post',
    path: '/',
    tags,
    summary: `Give one of my unused gift (or for-a-friend trial) cards to another member by phone: in one transaction it leaves me and arrives with them as a gifted card; afterwards I am not its owner (30002). 30056 not giftable (its type, or received as a gift or by transfer), 30058 used, the card's status when ended, 30004 an unfinished application, 30035 a queue place ahead, 30036 no such member, 30057 myself; ${NOT_MINE}. Idempotency-Key accepted.`,
    middleware: [requireAuth, idempotent] as const,
    request: { body: { content: { 'application/json': { schema: CardGiftBody } }, required: true } },
    responses: { 200: json(CardGift), ...all },
  }),
  async (c) => ok(c, await giftCard(c.var.deps.db, c.var.deps.clock, me(c), c.req.valid('json'))),
);
