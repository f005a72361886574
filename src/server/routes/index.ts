import { memberLookupRoutes, staffTransferRoutes, transferRoutes } from './card-transfers';
import { cardFamilyRoutes, cardGiftRoutes } from './card-family';
import { cardRefundRoutes, staffCardRefundRoutes } from './card-refunds';
import { complaintRoutes, staffComplaintRoutes } from './complaints';
import { invoiceRoutes, staffInvoiceRoutes } from './invoices';
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { Hono, Schema } from 'hono';
import { PHOTO_BODY_MAX_BYTES } from '../../domain/photo-review';
import type { AppEnv, Deps } from '../env';
import { account } from './person-account';
import { accountClosingRoutes, staffAccountClosingRoutes } from './account-closing';
import { auditRoutes } from './staff-audit';
import { auth } from './auth';
import { bindingRoutes, staffBindCodeRoutes, staffBindingRoutes, staffTeacherRequestRoutes, staffTeacherRoutes } from './binding';
import { bookings } from './bookings';
import { checkinRoutes, staffCheckinCodeRoutes, staffCheckinRoutes } from './booking-checkin';
import { couponRoutes } from './coupons';
import { cardRoutes } from './cards';
import { buyingRoutes, courseRoutes, purchaseRoutes } from './order-purchases';
import { devAuth } from './dev-auth';
import { devPayRoutes } from './dev-pay';
import { docsApp } from './docs';
import { flashSaleRoutes } from './flash-sale';
import { goodsRoutes } from './catalog-goods';
import { health } from './health';
import { activityRoutes, activitySignupRoutes, home, noticeRoutes } from './catalog-home';
import { media } from './catalog-media';
import { orderRoutes } from './orders';
import { balanceRoutes } from './payments-balance';
import { friendPayRoutes, orderFriendRoutes } from './friend-pay';
import { payRoutes } from './payments';
import { password, resetPasswordRoutes, resetPasswordVerifyRoutes } from './auth-password';
import { personRoutes } from './person';
import { photoRoutes, staffPhotoRoutes } from './photos';
import { scheduleRoutes, staffClassRoutes, staffScheduleRoutes, teacherCheckinLinkRoutes } from './schedule';
import { school } from './catalog';
import { staffMemberRoutes } from './staff-members';
import { staffCountRoutes } from './staff-counts';
import { staffPaymentRoutes, staffRefundRoutes } from './staff-refunds';
import { stats } from './platform-stats';
import { survey } from './catalog-survey';
import { wechatOAuthRoutes } from './auth-wechat';
import { wechatStandIn } from '../gateways/oauth/wechat-oauth-standin';

/** A router of one resource and the prefix under /api it is mounted at; its paths are relative to the prefix. */
export type Mount = readonly [prefix: string, router: Hono<AppEnv, Schema, string>];

/**
 * Every API router and where it is mounted: one router per resource, at its own prefix under /api, its
 * paths relative to it (Hono's app.route grouping; OpenAPIHono joins the prefix into the OpenAPI
 * document's paths too). A route belongs in the router with the longest prefix of its path, which
 * test/server/routes-mounted.test.ts checks. Order matters where two routes can match one request:
 * the staff check-in (/staff/classes/checkin) is mounted before the staff classes' /staff/classes/:id.
 */
export function apiMounts(deps: Deps, app: OpenAPIHono<AppEnv>): Mount[] {
  const mounts: Mount[] = [
    ['/health', health],
    ['/school', school],
    ['/index/home', home],
    ['/sys/notification', noticeRoutes],
    ['/activity', activityRoutes],
    ['/customers/activities', activitySignupRoutes],
    ['/product/goods', goodsRoutes],
    ['/product/goods/activity', flashSaleRoutes],
    ['/survey', survey],
    ['/stats', stats],
    ['/media', media],
    ['/oauth', auth],
    ['/oauth/resetPasswordVerify', resetPasswordVerifyRoutes],
    ['/oauth/resetPassword', resetPasswordRoutes],
    ['/customers/password', password],
    ['/oauth/wechat', wechatOAuthRoutes],
    ['/customers/me', account],
    ['/customers/me/closing', accountClosingRoutes],
    ['/staff/account-closings', staffAccountClosingRoutes],
    ['/customers/classes', bookings],
    ['/customers/cards', cardRoutes],
    ['/customers/classes/checkin', checkinRoutes],
    ['/staff/classes/checkin', staffCheckinRoutes],
    ['/staff/classes/checkin-code', staffCheckinCodeRoutes],
    ['/customers/photo', photoRoutes],
    ['/staff/photos', staffPhotoRoutes],
    ['/orders', orderRoutes],
    ['/orders/friend', orderFriendRoutes],
    ['/friend', friendPayRoutes],
    ['/pay', payRoutes],
    ['/customers/balance', balanceRoutes],
    ['/staff/payments', staffPaymentRoutes],
    ['/staff/refunds', staffRefundRoutes],
    ['/staff/members', staffMemberRoutes],
    ['/staff/counts', staffCountRoutes],
    ['/staff/audit', auditRoutes],
    ['/orders/quote', buyingRoutes],
    ['/customers/coupons', couponRoutes],
    ['/customers/courses', courseRoutes],
    ['/customers/purchases', purchaseRoutes],
    ['/customers/members', memberLookupRoutes],
    ['/customers/transfers', transferRoutes],
    ['/staff/transfers', staffTransferRoutes],
    ['/bind', bindingRoutes],
    ['/staff/teachers', staffTeacherRoutes],
    ['/staff/bind-codes', staffBindCodeRoutes],
    ['/staff/teacher-requests', staffTeacherRequestRoutes],
    ['/staff/bindings', staffBindingRoutes],
    ['/teacher/schedule', scheduleRoutes],
    ['/teacher/checkin-link', teacherCheckinLinkRoutes],
    ['/staff/schedule', staffScheduleRoutes],
    ['/staff/classes', staffClassRoutes],
    ['/customers/cards/refund', cardRefundRoutes],
    ['/staff/card-refunds', staffCardRefundRoutes],
    ['/customers/cards/family', cardFamilyRoutes],
    ['/customers/cards/gift', cardGiftRoutes],
    ['/customers/complaints', complaintRoutes],
    ['/staff/complaints', staffComplaintRoutes],
    ['/customers/invoices', invoiceRoutes],
    ['/staff/invoices', staffInvoiceRoutes],
    ['/customers/person-info', personRoutes],
  ];
  // the docs page answers at /api/docs and /api/docs/: a router's '/' joins its prefix without the slash, so
  // this one router keeps its paths ('/docs', '/docs/', '/docs/:file') and is mounted at /api itself
  if (deps.config.apiDocs) mounts.push(['', docsApp(deps.config.apiBase)]);
  // demo mode only: the last SMS code per phone, and the messaging-app OAuth and payment stand-ins
  if (deps.config.demo)
    mounts.push(
      ['/dev', devAuth],
      ['/dev/wechat', wechatStandIn],
      ['/dev/pay', devPayRoutes(deps, async (url, init) => app.request(url, init))],
    );
  return mounts;
}

/** Mounts every API router under /api; the OpenAPI document is generated from the same route schemas that parse requests. */
export function mountApi(app: OpenAPIHono<AppEnv>, deps: Deps) {
  for (const [prefix, router] of apiMounts(deps, app)) app.route(`/api${prefix}`, router);

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
