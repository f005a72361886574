import { createRoute, z } from '@hono/zod-openapi';
import { createRouter, refusals } from '../http/router';
import { setFriendTicketCookie, setOpenIdCookie, setSessionCookies } from '../http/session-cookies';
import { finishWechatLogin, startWechatLogin } from '../services/auth/wechat-flow';

/** Messaging-app web authorization (silent scope; user-info scope for a friend who pays): docs/decisions/003. */
export const wechatOAuthRoutes = createRouter()
  .openapi(
    createRoute({
      method: 'get',
      path: '/authorize',
      tags: ['auth'],
      summary:
        'Start the messaging-app authorization (silent; `scope=userinfo`: the friend who pays, asked for their profile); comes back to `from` (same-origin path only)',
      request: {
        query: z.object({
          from: z.string().max(2000).optional(),
          scope: z
            .enum(['base', 'userinfo'])
            .optional()
            .openapi({ description: 'absent or base: the silent login; userinfo: a friend payer, whose WeChat name the member is shown' }),
        }),
      },
      responses: { 302: { description: "To the provider's authorize page" }, 400: refusals[400] },
    }),
    async (c) => {
      const { db, clock, config, log, gateways } = c.var.deps;
      const q = c.req.valid('query');
      const url = await startWechatLogin({ db, clock, config, log, oauth: gateways.oauth }, q.from, q.scope);
      return c.redirect(url, 302);
    },
  )
  .openapi(
    createRoute({
      method: 'get',
      path: '/callback',
      tags: ['auth'],
      summary:
        "The provider's redirect back: user-info scope -> the friend payer's ticket cookie (wxFriend), no login; bound open id -> session cookies; unbound -> open-id ticket cookie; then 302 to `from`",
      request: { query: z.object({ code: z.string().max(512).optional(), state: z.string().max(256).optional() }) },
      responses: { 302: { description: 'Back to the path the flow started from' }, 400: refusals[400] },
    }),
    async (c) => {
      const { db, clock, config, log, gateways } = c.var.deps;
      const q = c.req.valid('query');
      const r = await finishWechatLogin({ db, clock, config, log, oauth: gateways.oauth }, q.code, q.state);
      if (r.kind === 'session') {
        setSessionCookies(c, {
          token: r.token,
          openId: '',
          username: r.account.phone,
          userLevel: r.account.level,
          wxAvatar: r.account.wxAvatar ?? '',
          wxNicName: r.account.wxNickname ?? '',
          customerId: String(r.account.id),
        });
      } else if (r.kind === 'ticket') {
        setOpenIdCookie(c, r.ticket);
      } else if (r.kind === 'friend') {
        setFriendTicketCookie(c, r.ticket);
      }
      return c.redirect(r.returnTo, 302);
    },
  );
