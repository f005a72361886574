import { FRIEND_INVITATION_RULE, FRIEND_RULE, rateLimit } from '../http/rate-limit';
import { createRoute, type z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import type { AppEnv, Caller } from '../env';
import { requireAuth } from '../http/auth';
import { idempotent } from '../http/idempotency';
import { createRouter, envelope, ok, refusals } from '../http/router';
import type { OrderRow } from '../services/orders/read';
import { invitationForFriend, inviteFriend, withdrawInvitation } from '../services/orders/invitations';
import { payAsFriend } from '../services/orders/friend-pay';
import { latestInvitation } from '../services/orders/invitation-latest';
import { friendPayer } from '../services/auth/openid-tickets';
import { FRIEND_TICKET_COOKIE } from '../http/session-cookies';
import { ApiError } from '../http/api-error';
import { getCookie } from 'hono/cookie';
import { Errors } from '../../domain/errors';
import {
  FriendInvitationView,
  FriendPayAnswer,
  FriendPayBody,
  InvitationTokenQuery,
  InviteAnswer,
  InviteBody,
  MemberInvitationAnswer,
  MemberInvitationQuery,
  OrderDetail,
  WithdrawBody,
} from '../../contracts/orders';
import { detailOf, goodsOf, invitationView, viewOne } from './orders';

const json = <T extends z.ZodTypeAny>(schema: T, description = 'OK') => ({
  description,
  content: { 'application/json': { schema: envelope(schema) } },
});
const tags = ['orders'];
const orderRefusals = { 400: refusals[400], 401: refusals[401], 404: refusals[404], 409: refusals[409] } as const;

const me = (c: Context<AppEnv>) => (c.var.caller as Caller).accountId;

/** A friend-pay invitation: the member invites, withdraws and re-opens it (under the order, /api/orders/friend). */
export const orderFriendRoutes = createRouter()
  .openapi(
    createRoute({
      method: 'get',
      path: '/invitation',
      tags,
      summary:
        'What happened to my latest invitation for an order (or one part, partSeq): open, paid (by whom, how), expired, withdrawn; with what the share accepts now (invite again, pay another way). null: none made',
      middleware: [requireAuth] as const,
      request: { query: MemberInvitationQuery },
      responses: { 200: json(MemberInvitationAnswer), 400: refusals[400], 401: refusals[401], 404: refusals[404] },
    }),
    async (c) => {
      const q = c.req.valid('query');
      const { order, latest, actions } = await latestInvitation(c.var.deps, me(c), q.orderNo, q.partSeq);
      const goodsName = (await goodsOf(c, [order])).get(order.goodsId)?.name ?? '';
      if (!latest) return ok(c, { goodsName, invitation: null, actions });
      const inv = latest.invitation;
      return ok(c, {
        invitation: {
          ...invitationView(c, latest.order, inv, latest.part),
          friendName: latest.paidBy?.friendName ?? null,
          paidBy: latest.paidBy?.method ?? null,
          endedAt: inv.endedAt?.toISOString() ?? null,
        },
        goodsName,
        actions,
      });
    },
  )
  .openapi(
    createRoute({
      method: 'post',
      path: '/invite',
      tags,
      summary:
        "Invite a friend to pay one unpaid share (a split order's part, or the whole order): a link open for an hour; asked again, the same link. Idempotency-Key accepted.",
      middleware: [requireAuth, idempotent] as const,
      request: { body: { content: { 'application/json': { schema: InviteBody } }, required: true } },
      responses: { 200: json(InviteAnswer), ...orderRefusals },
    }),
    async (c) => {
      const body = c.req.valid('json');
      const { order, invitation, part } = await inviteFriend(c.var.deps, me(c), body.orderNo, body.partSeqs);
      return ok(c, { order: await viewOne(c, order), invitation: invitationView(c, order, invitation, part) });
    },
  )
  .openapi(
    createRoute({
      method: 'post',
      path: '/withdraw',
      tags,
      summary:
        'Withdraw the open friend-pay invitation of a part (partSeq, or the only open one): the friend can no longer pay it. Idempotency-Key accepted.',
      middleware: [requireAuth, idempotent] as const,
      request: { body: { content: { 'application/json': { schema: WithdrawBody } }, required: true } },
      responses: { 200: json(OrderDetail), ...orderRefusals },
    }),
    async (c) => {
      const body = c.req.valid('json');
      const o = await withdrawInvitation(c.var.deps, me(c), body.orderNo, body.partSeq);
      return ok(c, await detailOf(c, o));
    },
  );

/** The friend opens and pays the invitation, without logging in (/api/friend). */
export const friendPayRoutes = createRouter()
  .openapi(
    createRoute({
      method: 'post',
      path: '/pay',
      tags,
      middleware: [rateLimit(FRIEND_RULE)] as const,
      summary:
        "The friend pays an invitation's part by WeChat Pay (JSAPI) with the open id of their user-info authorization (the wxFriend cookie; without it 40019): the same friend again gets the same trade; another friend's trade open or the part paid: 40018; the invitation over: 40022",
      request: { body: { content: { 'application/json': { schema: FriendPayBody } }, required: true } },
      responses: {
        200: json(FriendPayAnswer),
        400: refusals[400],
        403: refusals[403],
        404: refusals[404],
        409: refusals[409],
        429: refusals[429],
        502: refusals[409],
      },
    }),
    async (c) => {
      const payer = await friendPayer(c.var.deps.db, c.var.deps.clock, getCookie(c, FRIEND_TICKET_COOKIE));
      if (!payer) throw new ApiError(Errors.friendPayNeedsAuthorization);
      return ok(c, await payAsFriend(c.var.deps, c.req.valid('json').t, payer));
    },
  )
  .openapi(
    createRoute({
      method: 'get',
      path: '/invitation',
      tags,
      middleware: [rateLimit(FRIEND_RULE, FRIEND_INVITATION_RULE)] as const,
      summary:
        'What a friend-pay invitation asks of the friend (no login): the goods, the amount, until when, and whether it can still be paid',
      request: { query: InvitationTokenQuery },
      responses: { 200: json(FriendInvitationView), 404: refusals[404], 429: refusals[429] },
    }),
    async (c) => {
      const found = await invitationForFriend(c.var.deps, c.req.valid('query').t);
      const g = (await goodsOf(c, [{ goodsId: found.goodsId } as OrderRow])).get(found.goodsId);
      return ok(c, {
        state: found.state,
        goodsName: g?.name ?? '',
        amountCents: found.amountCents,
        expiresAt: found.inv.expiresAt.toISOString(),
        member: found.member,
        money: found.money,
      });
    },
  );
