import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import type { ComponentType } from 'react';
import type { LoaderFunction, RouteObject } from 'react-router-dom';
import { RootLayout } from './layout/root-layout';
import { RouteErrorBoundary } from './layout/route-error';
import { requireMember } from './session/request-session';

/** What a lazily loaded screen module exports. */
export interface ScreenModule {
  default: ComponentType;
  loader?: LoaderFunction;
}

/** One built route (DESIGN.md §5). Unbuilt routes are absent: the not-found page answers them. */
export interface ScreenRoute {
  /** path under the root layout, without the leading slash; '' is Homepage */
  path: string;
  /** translated page title; falls back to the product title */
  title?: MessageDescriptor;
  /** the footer bar shows unless false (spec §2) */
  showFooter?: boolean;
  /** visitors are sent to /login/:from */
  requiresLogin?: boolean;
  screen: () => Promise<ScreenModule>;
}

/** The product title, the fallback page title (spec §2). */
export { PRODUCT_TITLE } from './layout/product-title';

/** The one route table. Order matters only where paths overlap (/login/forgetpassword before /login/:from). */
export const screens: ScreenRoute[] = [
  { path: '', title: msg`会馆首页`, screen: () => import('./screens/catalog/home/home-screen') },
  { path: 'club', title: msg`门店列表`, screen: () => import('./screens/catalog/club/club-list-screen') },
  { path: 'map', title: msg`门店地图`, screen: () => import('./screens/catalog/club/club-map-screen') },
  { path: 'club/detail', title: msg`门店详情`, screen: () => import('./screens/catalog/club/club-detail-screen') },
  { path: 'tutor', title: msg`导师团队`, screen: () => import('./screens/catalog/tutor/tutor-list-screen') },
  { path: 'tutor/tutorDetail/:id', title: msg`导师详情`, screen: () => import('./screens/catalog/tutor/tutor-detail-screen') },
  { path: 'qa', title: msg`常见问题`, screen: () => import('./screens/catalog/info/qa-screen') },
  { path: 'about', title: msg`关于我们`, screen: () => import('./screens/catalog/info/about-screen') },
  { path: 'login/forgetpassword', title: msg`找回密码`, showFooter: false, screen: () => import('./screens/auth/forget-password-screen') },
  { path: 'login/newpass', title: msg`设置新密码`, showFooter: false, screen: () => import('./screens/auth/new-password-screen') },
  { path: 'login/:from?', title: msg`登录`, showFooter: false, screen: () => import('./screens/auth/login-screen') },
  { path: 'takecourse', title: msg`我的预约`, requiresLogin: true, screen: () => import('./screens/booking/my-calendar-screen') },
  { path: 'takecourse/takelistm', title: msg`我的预约`, requiresLogin: true, screen: () => import('./screens/booking/my-bookings-screen') },
  {
    path: 'takecourse/takelistm_yoga',
    title: msg`我的预约`,
    requiresLogin: true,
    screen: () => import('./screens/booking/my-bookings-yoga-screen'),
  },
  { path: 'takecourse/bookcourse', title: msg`课程预约`, screen: () => import('./screens/booking/schedule-screen') },
  { path: 'takecourse/bookcourse_yoga', title: msg`课程预约`, screen: () => import('./screens/booking/schedule-yoga-screen') },
  {
    path: 'takecourse/bookcourse/bookcoursefilter',
    title: msg`课程筛选条件`,
    showFooter: false,
    screen: () => import('./screens/booking/filter-screen'),
  },
  { path: 'takecourse/bookcourse/bookcoursedetail', title: msg`预约详情`, screen: () => import('./screens/booking/class-detail-screen') },
  {
    path: 'takecourse/bookcourse/bookcoursedetail_yoga',
    title: msg`预约详情`,
    screen: () => import('./screens/booking/class-detail-yoga-screen'),
  },
  {
    path: 'takecourse/bookcourse/bookcourseconfirm',
    title: msg`课程预约`,
    showFooter: false,
    requiresLogin: true,
    screen: () => import('./screens/booking/book-confirm-screen'),
  },
  {
    path: 'takecourse/bookcourse/membersNotice',
    title: msg`会员须知`,
    showFooter: false,
    screen: () => import('./screens/booking/members-notice-screen'),
  },
  { path: 'regularClass', title: msg`常规课`, screen: () => import('./screens/booking/regular-class-screen') },
  {
    path: 'regularClass/sizer',
    title: msg`课程筛选条件`,
    showFooter: false,
    screen: () => import('./screens/booking/regular-filter-screen'),
  },
  { path: 'regularClass/noAppointment/:id', title: msg`预约详情`, screen: () => import('./screens/booking/regular-detail-screen') },
  // teacher schedule (decision 029): only a teacher's token reads it; anyone else sees who it is for
  // the teacher's home (decision 097): the bind result, Mine and the teacher pages lead here
  {
    path: 'bindPage/teacherHome',
    title: msg`老师主页`,
    showFooter: false,
    requiresLogin: true,
    screen: () => import('./screens/binding/teacher-home-screen'),
  },
  {
    path: 'bindPage/teacherConfirm',
    title: msg`导师日程确认`,
    showFooter: false,
    requiresLogin: true,
    screen: () => import('./screens/schedule/teacher-confirm-screen'),
  },
  {
    path: 'bindPage/teacherConfirmForm',
    title: msg`导师日程确认`,
    showFooter: false,
    requiresLogin: true,
    screen: () => import('./screens/schedule/teacher-confirm-form-screen'),
  },
  {
    path: 'bindPage/teacherImg',
    title: msg`导师二维码`,
    showFooter: false,
    requiresLogin: true,
    screen: () => import('./screens/schedule/teacher-img-screen'),
  },
  // staff: the week's classes, their teachers and confirmations; the staff console links here
  {
    path: 'staff/classes',
    title: msg`本周课程与老师确认`,
    showFooter: false,
    requiresLogin: true,
    screen: () => import('./screens/staff/staff-classes-screen'),
  },
  // decision 041: staff create, edit and cancel classes
  {
    path: 'staff/classes/new',
    title: msg`新建课程`,
    showFooter: false,
    requiresLogin: true,
    screen: () => import('./screens/staff/class-form-screen'),
  },
  {
    path: 'staff/classes/:id/edit',
    title: msg`修改课程`,
    showFooter: false,
    requiresLogin: true,
    screen: () => import('./screens/staff/class-form-screen'),
  },
  { path: 'signed', title: msg`签到`, showFooter: false, requiresLogin: true, screen: () => import('./screens/booking/check-in-screen') },
  { path: 'sys/notification', title: msg`消息通知`, requiresLogin: true, screen: () => import('./screens/system/notifications-screen') },
  { path: 'greatworkshop', title: msg`大师工作坊`, screen: () => import('./screens/catalog/courses/workshop-list-screen') },
  {
    path: 'greatworkshop/greatWorkShopDetails',
    title: msg`工作坊详情`,
    showFooter: false,
    screen: () => import('./screens/catalog/courses/workshop-detail-screen'),
  },
  { path: 'commonClass', title: msg`公开课`, screen: () => import('./screens/catalog/courses/open-class-list-screen') },
  {
    path: 'commonClass/commonClassDetails',
    title: msg`公开课详情`,
    showFooter: false,
    screen: () => import('./screens/catalog/courses/open-class-detail-screen'),
  },
  { path: 'personalClass', title: msg`私教课`, screen: () => import('./screens/catalog/courses/private-class-list-screen') },
  {
    path: 'personalClass/personalClassDetails',
    title: msg`私教课详情`,
    showFooter: false,
    screen: () => import('./screens/catalog/courses/private-class-detail-screen'),
  },
  { path: 'primaryClass', title: msg`小班课`, screen: () => import('./screens/catalog/courses/small-group-list-screen') },
  {
    path: 'primaryClass/primaryClassDetails',
    title: msg`小班课详情`,
    showFooter: false,
    screen: () => import('./screens/catalog/courses/small-group-detail-screen'),
  },
  { path: 'tt', title: msg`培训课程`, screen: () => import('./screens/catalog/courses/training-list-screen') },
  {
    path: 'tt/ttDetails',
    title: msg`培训课程详情`,
    showFooter: false,
    screen: () => import('./screens/catalog/courses/training-detail-screen'),
  },
  { path: 'vipcard', title: msg`会员卡`, screen: () => import('./screens/cards/vipcard-screen') },
  {
    path: 'vipcard/vipcarddetail',
    title: msg`会员卡详情`,
    showFooter: false,
    screen: () => import('./screens/cards/vipcard-detail-screen'),
  },
  { path: 'event11', title: msg`双十一限量抢购`, showFooter: false, screen: () => import('./screens/flash-sale/event11-screen') },
  { path: 'eventactivi', title: msg`抢购活动规则`, showFooter: false, screen: () => import('./screens/flash-sale/eventactivi-screen') },
  { path: 'mine', title: msg`我的`, screen: () => import('./screens/mine/mine-screen') },
  { path: 'mycourse', title: msg`我的课程`, requiresLogin: true, screen: () => import('./screens/order-purchases/my-course-screen') },
  // every order of mine in any state, in tabs (decision 096); the tab is ?status=, none is all
  { path: 'mine/orders', title: msg`我的订单`, requiresLogin: true, screen: () => import('./screens/orders/my-orders-screen') },
  {
    path: 'myPurchaseHistory',
    title: msg`购买记录`,
    requiresLogin: true,
    screen: () => import('./screens/order-purchases/purchase-history-screen'),
  },
  {
    path: 'agreement/payagreement',
    title: msg`支付`,
    showFooter: false,
    requiresLogin: true,
    screen: () => import('./screens/orders/pay-agreement-screen'),
  },
  {
    path: 'agreement/CommonAgreement',
    title: msg`购买协议`,
    showFooter: false,
    screen: () => import('./screens/orders/common-agreement-screen'),
  },
  {
    path: 'agreement/CommonAgreement_11',
    title: msg`双十一抢购协议`,
    showFooter: false,
    screen: () => import('./screens/orders/singles-day-agreement-screen'),
  },
  {
    path: 'orderdetail',
    title: msg`订单详情`,
    showFooter: false,
    requiresLogin: true,
    screen: () => import('./screens/orders/order-detail-screen'),
  },
  {
    path: 'orderdetail/splittopay',
    title: msg`分开支付`,
    showFooter: false,
    requiresLogin: true,
    screen: () => import('./screens/orders/split-order-screen'),
  },
  {
    path: 'payt',
    title: msg`支付宝支付`,
    showFooter: false,
    requiresLogin: true,
    screen: () => import('./screens/orders/pay-handover-screen'),
  },
  {
    path: 'payf',
    title: msg`支付结果`,
    showFooter: false,
    requiresLogin: true,
    screen: () => import('./screens/orders/pay-success-screen'),
  },
  {
    path: 'pays',
    title: msg`支付失败`,
    showFooter: false,
    requiresLogin: true,
    screen: () => import('./screens/orders/pay-failure-screen'),
  },
  {
    path: 'friendsplit',
    title: msg`找好友代付`,
    showFooter: false,
    requiresLogin: true,
    screen: () => import('./screens/friend-pay/friend-invite-screen'),
  },
  // the friend who pays has no account: no login
  { path: 'payfriend', title: msg`好友代付`, showFooter: false, screen: () => import('./screens/friend-pay/friend-pay-screen') },
  {
    path: 'mine/balanceHistory',
    title: msg`余额变动记录`,
    requiresLogin: true,
    screen: () => import('./screens/mine/balance-history-screen'),
  },
  { path: 'bindPage', title: msg`业务系统绑定`, showFooter: false, screen: () => import('./screens/binding/bind-home-screen') },
  { path: 'bindPage/teacherBind', title: msg`老师绑定`, showFooter: false, screen: () => import('./screens/binding/teacher-bind-screen') },
  {
    path: 'bindPage/newteacherBind',
    title: msg`新老师申请`,
    showFooter: false,
    screen: () => import('./screens/binding/new-teacher-bind-screen'),
  },
  {
    path: 'bindPage/newteacherConfirm',
    title: msg`新老师申请`,
    showFooter: false,
    screen: () => import('./screens/binding/new-teacher-confirm-screen'),
  },
  { path: 'bindPage/userBind', title: msg`员工绑定`, showFooter: false, screen: () => import('./screens/binding/staff-bind-screen') },
  {
    path: 'staff',
    title: msg`员工工作台`,
    showFooter: false,
    requiresLogin: true,
    screen: () => import('./screens/staff/staff-home-screen'),
  },
  {
    path: 'staff/bindCodes',
    title: msg`老师绑定码`,
    showFooter: false,
    requiresLogin: true,
    screen: () => import('./screens/staff/bind-codes-screen'),
  },
  {
    path: 'staff/teacherRequests',
    title: msg`新老师申请`,
    showFooter: false,
    requiresLogin: true,
    screen: () => import('./screens/staff/teacher-requests-screen'),
  },
  {
    path: 'staff/bindings',
    title: msg`已绑定账号`,
    showFooter: false,
    requiresLogin: true,
    screen: () => import('./screens/staff/bindings-screen'),
  },
  {
    path: 'staff/checkin',
    title: msg`前台签到`,
    showFooter: false,
    requiresLogin: true,
    screen: () => import('./screens/staff/checkin-screen'),
  },
  // decision 045: the front desk registers a walk-in member with a default password
  {
    path: 'staff/members/new',
    title: msg`登记新会员`,
    showFooter: false,
    requiresLogin: true,
    screen: () => import('./screens/staff/register-member-screen'),
  },
  {
    path: 'staff/transfers',
    title: msg`转让审核`,
    showFooter: false,
    requiresLogin: true,
    screen: () => import('./screens/staff/transfers-screen'),
  },
  {
    path: 'staff/cardRefunds',
    title: msg`退款申请`,
    showFooter: false,
    requiresLogin: true,
    screen: () => import('./screens/staff/card-refunds-screen'),
  },
  {
    path: 'staff/refunds',
    title: msg`退款处理`,
    showFooter: false,
    requiresLogin: true,
    screen: () => import('./screens/staff/refunds-screen'),
  },
  {
    path: 'staff/photos',
    title: msg`照片审核`,
    showFooter: false,
    requiresLogin: true,
    screen: () => import('./screens/staff/photo-review-screen'),
  },
  // activities (decision 033): /activeList is the same list as /activity
  { path: 'activity', title: msg`活动`, screen: () => import('./screens/activities/activity-list-screen') },
  { path: 'activeList', title: msg`活动`, screen: () => import('./screens/activities/activity-list-screen') },
  { path: 'activity/activityDdetail', title: msg`活动详情`, screen: () => import('./screens/activities/activity-detail-screen') },
  // complaints (decision 033)
  { path: 'complain', title: msg`我的投诉`, requiresLogin: true, screen: () => import('./screens/complaints/complain-screen') },
  {
    path: 'complain/createcomplain',
    title: msg`我要投诉`,
    showFooter: false,
    requiresLogin: true,
    screen: () => import('./screens/complaints/create-complain-screen'),
  },
  {
    path: 'staff/complaints',
    title: msg`投诉处理`,
    showFooter: false,
    requiresLogin: true,
    screen: () => import('./screens/staff/complaints-screen'),
  },
  // invoices (decision 044)
  { path: 'invoice', title: msg`发票`, requiresLogin: true, screen: () => import('./screens/invoice/invoice-screen') },
  // decision 055: the staff audit log
  {
    path: 'staff/audit',
    title: msg`操作记录`,
    showFooter: false,
    requiresLogin: true,
    screen: () => import('./screens/staff/audit-screen'),
  },
  {
    path: 'staff/invoices',
    title: msg`开具发票`,
    showFooter: false,
    requiresLogin: true,
    screen: () => import('./screens/staff/invoices-screen'),
  },
  // the avatar is the check-in photo: one photo, one review (decision 042)
  {
    path: 'mine/setavatar',
    title: msg`设置头像`,
    showFooter: false,
    requiresLogin: true,
    screen: () => import('./screens/mine/avatar-screen'),
  },
  { path: 'uploadTop', title: msg`上传头像`, showFooter: false, requiresLogin: true, screen: () => import('./screens/mine/avatar-screen') },
  {
    path: 'uploadTop_yoga',
    title: msg`上传头像`,
    showFooter: false,
    requiresLogin: true,
    screen: () => import('./screens/mine/avatar-screen'),
  },
  {
    path: 'mine/improvePersonInfo',
    title: msg`个人信息完善`,
    showFooter: false,
    requiresLogin: true,
    screen: () => import('./screens/person/person-info-screen'),
  },
  // coupons (decisions 032 and 035): /mine/coupons lands on the unused tab; tabs waitPay used, waitComment expired, refunder transferred
  { path: 'mine/coupons', title: msg`优惠券`, requiresLogin: true, screen: () => import('./screens/coupons/coupons-redirect-screen') },
  { path: 'mine/coupons/:tab', title: msg`优惠券`, requiresLogin: true, screen: () => import('./screens/coupons/coupons-screen') },
  {
    path: 'mine/coupons/all/Donation',
    title: msg`转赠优惠券`,
    showFooter: false,
    requiresLogin: true,
    screen: () => import('./screens/coupons/coupon-gift-screen'),
  },
  // closing the account (PIPL; decision 057)
  {
    path: 'mine/closeAccount',
    title: msg`注销账号`,
    showFooter: false,
    requiresLogin: true,
    screen: () => import('./screens/mine/close-account-screen'),
  },
  {
    path: 'staff/accountClosings',
    title: msg`注销申请`,
    showFooter: false,
    requiresLogin: true,
    screen: () => import('./screens/staff/account-closings-screen'),
  },
  {
    path: 'mine/changepassword',
    title: msg`修改密码`,
    showFooter: false,
    requiresLogin: true,
    screen: () => import('./screens/mine/change-password-screen'),
  },
  { path: 'mine/carddetail', title: msg`会员卡详情`, requiresLogin: true, screen: () => import('./screens/cards/card-detail-screen') },
  {
    path: 'mine/transfer',
    title: msg`会员卡转让`,
    showFooter: false,
    requiresLogin: true,
    screen: () => import('./screens/card-transfer/transfer-policy-screen'),
  },
  {
    path: 'mine/transferapply',
    title: msg`申请转让`,
    showFooter: false,
    requiresLogin: true,
    screen: () => import('./screens/card-transfer/transfer-apply-screen'),
  },
  {
    path: 'mine/transferstate',
    title: msg`转让申请`,
    showFooter: false,
    requiresLogin: true,
    screen: () => import('./screens/card-transfer/transfer-state-screen'),
  },
  {
    path: 'mine/refund',
    title: msg`会员卡退款`,
    showFooter: false,
    requiresLogin: true,
    screen: () => import('./screens/refund/refund-screen'),
  },
  {
    path: 'mine/CardDetailPage',
    title: msg`会员卡使用记录`,
    requiresLogin: true,
    screen: () => import('./screens/cards/card-history-screen'),
  },
  // the product owner's page of every statechart; the server serves it in demo mode only (createApp)
  { path: 'dev/machines', showFooter: false, screen: () => import('./screens/dev/machines-screen') },
];

/** Route metadata a screen or the layout reads through useMatches(). */
export interface RouteHandle {
  title?: MessageDescriptor;
  showFooter: boolean;
  requiresLogin: boolean;
}

/** The route table as React Router route objects: every screen lazy, under the root layout. */
export function routeObjects(): RouteObject[] {
  const children: RouteObject[] = screens.map((s) => {
    const handle: RouteHandle = { title: s.title, showFooter: s.showFooter ?? true, requiresLogin: s.requiresLogin ?? false };
    const lazy = async () => {
      const m = await s.screen();
      // requiresLogin: a visitor goes to /login/<this path> first (requireMember), then the screen's own loader
      const own = m.loader;
      const loader: LoaderFunction | undefined = s.requiresLogin
        ? (args) => {
            requireMember(args.context, args.request);
            return own ? own(args) : null;
          }
        : own;
      return { Component: m.default, ...(loader ? { loader } : {}) };
    };
    return s.path === '' ? { index: true, handle, lazy } : { path: s.path, handle, lazy };
  });
  children.push({
    path: '*',
    handle: { title: msg`页面不存在`, showFooter: false, requiresLogin: false } satisfies RouteHandle,
    lazy: async () => ({ Component: (await import('./screens/system/not-found-screen')).default }),
  });
  return [{ id: 'root', path: '/', Component: RootLayout, ErrorBoundary: RouteErrorBoundary, children }];
}
