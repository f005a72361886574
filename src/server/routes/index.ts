import { transferRoutes } from './transfers';
import { cardFamilyRoutes } from './card-family';
import { cardRefundRoutes } from './card-refunds';
import { complaintRoutes } from './complaints';
import { invoiceRoutes } from './invoices';
import type { OpenAPIHono } from '@hono/zod-openapi';
import { PHOTO_BODY_MAX_BYTES } from '../../domain/photo-review';
import type { AppEnv, Deps } from '../env';
import { account } from './account';
import { accountClosingRoutes } from './account-closing';
import { auditRoutes } from './audit';
import { auth } from './auth';
import { bindingRoutes } from './binding';
import { bookings } from './bookings';
import { checkinRoutes } from './checkin';
import { couponRoutes } from './coupons';
import { buyingRoutes } from './buying';
import { devAuth } from './dev-auth';
import { devPayRoutes } from './dev-pay';
import { docsApp } from './docs';
import { flashSaleRoutes } from './flash-sale';
import { goodsRoutes } from './goods';
import { health } from './health';
import { home } from './home';
import { media } from './media';
import { orderRoutes } from './orders';
import { password } from './password';
import { personRoutes } from './person';
import { photoRoutes } from './photos';
import { scheduleRoutes } from './schedule';
import { school } from './school';
import { staffMemberRoutes } from './staff-members';
import { staffRefundRoutes } from './staff-refunds';
import { stats } from './stats';
import { survey } from './survey';
import { wechatOAuthRoutes } from './wechat-oauth';
import { wechatStandIn } from '../gateways/oauth/wechat-oauth-standin';

/**
 * The one list of API areas: each is a sub-app in its own file, mounted under /api.
 * The OpenAPI document is generated from the same route schemas that parse requests.
 */
export function mountApi(app: OpenAPIHono<AppEnv>, deps: Deps) {
  app.route('/api', health);
  app.route('/api', school);
  app.route('/api', home);
  app.route('/api', goodsRoutes);
  app.route('/api', flashSaleRoutes);
  app.route('/api', survey);
  app.route('/api', stats);
  app.route('/api', media);
  app.route('/api', auth);
  app.route('/api', password);
  app.route('/api', wechatOAuthRoutes);
  app.route('/api', account);
  app.route('/api', accountClosingRoutes);
  app.route('/api', bookings);
  app.route('/api', checkinRoutes);
  app.route('/api', photoRoutes);
  app.route('/api', orderRoutes);
  app.route('/api', staffRefundRoutes);
  app.route('/api', staffMemberRoutes);
  app.route('/api', auditRoutes);
  app.route('/api', buyingRoutes);
  app.route('/api', transferRoutes);
  app.route('/api', bindingRoutes);
  app.route('/api', scheduleRoutes);
  app.route('/api', cardRefundRoutes);
  app.route('/api', cardFamilyRoutes);
  app.route('/api', complaintRoutes);
  app.route('/api', invoiceRoutes);
  app.route('/api', personRoutes);
  app.route('/api', couponRoutes);
  if (deps.config.apiDocs) app.route('/api', docsApp(deps.config.apiBase));
  // demo mode only: the last SMS code per phone, and the messaging-app OAuth stand-in
  if (deps.config.demo) {
    app.route('/api', devAuth);
    app.route('/api/dev/wechat', wechatStandIn);
    app.route(
      '/api/dev/pay',
      devPayRoutes(deps, async (url, init) => app.request(url, init)),
    );
  }

  app.doc31('/api/openapi.json', {
    openapi: '3.1.0',
    info: {
      title: 'Yoga club member API',
      version: '1.0.0',
      description: `A request body is at most ${deps.config.bodyLimitBytes} bytes (413, 70005 beyond); a photo upload's at most ${PHOTO_BODY_MAX_BYTES} (413, 70009 beyond, the limit named).`,
    },
    servers: [{ url: '/' }],
  });
}
