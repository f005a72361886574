// @vitest-environment jsdom
import { screen, waitFor } from '@testing-library/react';
import { matchRoutes } from 'react-router-dom';
import { describe, expect, it } from 'vitest';
import { setup } from 'xstate';
import { charts } from '../../machines/catalogue';
import { routeObjects } from '../../src/app/routes';
import { endStatesOf } from './support/end-states';
import { withSharedScreenHarnesses } from './support/screen-harness';
import { collectScreenPaths, runPathTo } from './support/screen-paths';

/**
 * No dead ends (decision 103): every end state of every app chart offers the next thing a person
 * would do. The end states are read from the charts (`endStatesOf`: final states, states nothing
 * leaves, states tagged `end`); the table below says, for each, what its screen offers there, by
 * accessible name and where it leads. Each end state is reached on its real screen by the shortest
 * path of that chart's own path test (its steps, answers and per-state checks, one render), and the
 * listed actions must be there and usable. A chart that gains an end state the table does not list
 * fails here, so a dead end cannot be added silently.
 */

/** What an end state's screen offers: a button or a link by its accessible name, where it leads when it leads somewhere, or a labelled input (a file picker). */
type Action = { button: string | RegExp; to?: string | RegExp } | { link: string | RegExp; to: string | RegExp } | { input: string };
type WayOn =
  | { actions: [Action, ...Action[]] }
  /** the chart hands the person to another chart's flow on the same screen, whose end states are listed in turn */
  | { handsOverTo: string }
  /** the page itself leaves for an outside party's page, which brings the person back */
  | { leaves: string };

const order = /^\/orderdetail\?orderNo=\w+(&partSeq=\d+)?$/;
const cardDetail = /^\/mine\/carddetail\?id=\d+$/;
const logIn: WayOn = { actions: [{ button: '登录' }, { link: '先随便看看', to: '/' }] };
const home: WayOn = {
  actions: [
    { link: '全部门店 ›', to: '/club' },
    { link: '约课', to: '/takecourse/takelistm' },
  ],
};
const week: WayOn = {
  actions: [
    { link: '新建课程', to: /^\/staff\/classes\/new\?week=[\d-]+$/ },
    { link: '下一周', to: /^\/staff\/classes\?week=/ },
  ],
};
const waitingForReply: WayOn = { actions: [{ button: '查看是否有回复' }, { link: '我的投诉', to: '/complain' }] };
const toTheClub: WayOn = { actions: [{ button: '去会馆首页看看', to: '/' }] };

const WAYS_ON: Record<string, Record<string, WayOn>> = {
  authLogin: { loggedIn: { actions: [{ link: '我的', to: '/mine' }] } },
  authPasswordReset: { done: logIn },
  authPasswordChange: {
    done: {
      actions: [
        { link: '我的订单', to: '/mine/orders' },
        { link: '我的会员卡', to: '/vipcard?tab=mine' },
      ],
    },
  },
  couponGift: {
    gifted: {
      actions: [
        { button: '返回我的优惠券', to: '/mine/coupons/all' },
        { link: '查看已转赠的优惠券', to: '/mine/coupons/refunder' },
      ],
    },
  },
  bookingBook: {
    unavailable: {
      actions: [
        { button: '查看课程表', to: '/takecourse/bookcourse' },
        { link: '返回首页', to: '/' },
      ],
    },
    needsCard: { actions: [{ button: '去购买会员卡', to: '/vipcard?tab=shop' }] },
    booked: {
      actions: [
        { button: '查看我的预约', to: '/takecourse/takelistm' },
        { link: '继续约课', to: '/takecourse/bookcourse' },
      ],
    },
    queued: {
      actions: [
        { button: '查看我的预约', to: '/takecourse/takelistm' },
        { link: '继续约课', to: '/takecourse/bookcourse' },
      ],
    },
  },
  // nothing booked ahead any more: the Book tab's page is the schedule, its days to book from
  bookingItem: { changed: { actions: [{ link: /^今天/, to: /^\/takecourse\/bookcourse\?date=[\d-]+$/ }] } },
  bookingCheckIn: {
    refused: { actions: [{ button: '确认签到' }, { link: '查看我的预约', to: '/takecourse/takelistm' }] },
    checkedIn: { actions: [{ link: '查看我的预约', to: '/takecourse/takelistm' }] },
  },
  photoUpload: { uploaded: { actions: [{ link: '课程表', to: '/takecourse/bookcourse' }] } },
  photoAvatar: {
    rejected: { actions: [{ input: '重新上传' }] },
    passed: {
      actions: [
        { button: '联系门店', to: '/club' },
        { button: '返回我的', to: '/mine' },
      ],
    },
  },
  orderCancel: { cancelled: { actions: [{ button: '查看我的订单', to: '/mine/orders' }] } },
  catalogSurveyPrompt: { hidden: home, nothingToAsk: home, thanked: home, closed: home, lost: home },
  cardItem: {
    activated: { actions: [{ button: '冻结会员卡' }, { button: '延期' }, { button: '转让', to: /^\/mine\/transfer\?id=\d+$/ }] },
  },
  cardGift: { given: { actions: [{ button: '返回我的会员卡', to: '/vipcard?tab=mine' }] } },
  cardTransfer: { submitted: { actions: [{ button: '取消申请' }, { link: '查看会员卡详情', to: cardDetail }] } },
  refundRequest: {
    failed: { actions: [{ button: '刷新' }, { link: '查看会员卡详情', to: cardDetail }] },
    done: { actions: [{ link: '查看会员卡详情', to: cardDetail }] },
    rejected: { actions: [{ button: '重新申请退款' }, { link: '查看会员卡详情', to: cardDetail }] },
    unavailable: { actions: [{ link: '查看会员卡详情', to: cardDetail }] },
  },
  orderCheckout: {
    loginRequired: logIn,
    goodsUnavailable: {
      actions: [
        { button: '查看会员卡', to: '/vipcard' },
        { link: '返回首页', to: '/' },
      ],
    },
    paying: { handsOverTo: 'paymentOrder' },
  },
  paymentOrder: {
    loginRequired: logIn,
    orderMissing: { actions: [{ button: /^支付 ¥/ }] },
    orderClosed: { actions: [{ button: '查看我的订单', to: '/mine/orders' }] },
    'paying.leftForAlipay': { actions: [{ button: '查看订单', to: order }] },
    paid: {
      actions: [
        { button: '查看订单', to: order },
        { link: '查看我的会员卡', to: '/vipcard?tab=mine' },
      ],
    },
    failed: { actions: [{ button: '重新支付' }, { button: '查看订单', to: order }] },
  },
  orderSplit: {
    missing: {
      actions: [
        { button: '查看我的订单', to: '/mine/orders' },
        { link: '返回首页', to: '/' },
      ],
    },
    notSplittable: { actions: [{ link: '返回订单', to: order }] },
  },
  friendPayInvite: {
    refused: { actions: [{ button: '查看订单', to: order }] },
    withdrawn: { actions: [{ button: '重新邀请好友' }, { button: '查看订单', to: order }] },
    expired: { actions: [{ button: '重新邀请好友' }, { button: '查看订单', to: order }] },
    ended: { actions: [{ button: '查看订单', to: order }] },
    paid: { actions: [{ button: '查看订单', to: order }] },
  },
  friendPay: {
    notFound: {
      actions: [
        { button: '去会馆首页看看', to: '/' },
        { link: '返回首页', to: '/' },
      ],
    },
    authorizing: { leaves: "the messaging app's authorization, which brings the friend back to pay" },
    paid: toTheClub,
    endedUnpaid: toTheClub,
    over: toTheClub,
  },
  friendPayResult: { settled: toTheClub },
  bindingTeacher: {
    done: {
      actions: [
        { link: '出示签到二维码', to: '/bindPage/teacherImg' },
        { link: '我的课表', to: '/bindPage/teacherConfirm' },
      ],
    },
  },
  staffBind: {
    done: {
      actions: [
        { link: /^老师绑定码/, to: '/staff/bindCodes' },
        { link: /^照片审核/, to: '/staff/photos' },
      ],
    },
  },
  bindingNewTeacher: { sent: { actions: [{ link: '返回首页', to: '/' }] } },
  catalogClubDistances: {
    located: { actions: [{ link: '地图', to: '/map' }] },
    denied: { actions: [{ button: '重新定位' }, { link: '地图', to: '/map' }] },
    unavailable: { actions: [{ button: '重新定位' }, { link: '地图', to: '/map' }] },
  },
  pager: { exhausted: { actions: [{ link: /工作坊/, to: /^\/greatworkshop\/greatWorkShopDetails\?id=\d+$/ }] } },
  scheduleConfirm: {
    refused: { actions: [{ link: '返回本周课表', to: /^\/bindPage\/teacherConfirm\?week=[\d-]+$/ }] },
    confirmed: { actions: [{ link: '返回本周课表', to: /^\/bindPage\/teacherConfirm\?week=[\d-]+$/ }] },
    declined: { actions: [{ link: '返回本周课表', to: /^\/bindPage\/teacherConfirm\?week=[\d-]+$/ }] },
  },
  scheduleTeacherAssign: { assigned: week },
  scheduleClassForm: { saved: week, cancelled: week },
  complaintFlow: {
    'awaitingReply.idle': waitingForReply,
    'awaitingReply.stillWaiting': waitingForReply,
    'awaitingReply.unreachable': waitingForReply,
    rated: { actions: [{ link: '我的投诉', to: '/complain' }] },
  },
  invoiceRequest: { 'editing.sent': { actions: [{ button: '提交申请' }, { button: '返回我的', to: '/mine' }] } },
  accountClosingRequest: { refusedByStaff: { actions: [{ button: '申请注销账号' }] } },
};

// the path tests' specs, each with the server its file started (one per set of options). Each file is
// loaded under a query of its own: a module of its own, run here whether or not this worker ran the
// path test already, and which leaves the path test's own module for its own run (isolate: false)
const pathFiles = import.meta.glob('./*.paths.test.tsx', { query: '?end-states' });
const collected = await withSharedScreenHarnesses(() =>
  collectScreenPaths(async () => {
    for (const load of Object.values(pathFiles)) await load();
  }),
);
const specs = new Map(collected.map((c) => [c.spec.machine.id, c]));

const appCharts = charts.filter((c) => !c.file.includes('/domain/')).map((c) => c.machine);
const routes = routeObjects();
/** a path the app has a screen for (the catch-all not-found route answers none of them) */
const routed = (to: string) => (matchRoutes(routes, new URL(to, 'http://app.test').pathname) ?? []).every((m) => m.route.path !== '*');
const named = (want: string | RegExp, el: Element) => {
  const text = (el.getAttribute('aria-label') ?? el.textContent ?? '').trim();
  return typeof want === 'string' ? text === want : want.test(text);
};
const leadsTo = (want: string | RegExp, href: string) => (typeof want === 'string' ? href === want : want.test(href));

describe('every end state of every flow has a way on', () => {
  it('reads the end states from a chart: final, nothing leaves, tagged end (itself or a parent), never one that decides or goes on', () => {
    const planted = setup({ types: { tags: {} as 'end' } }).createMachine({
      id: 'planted',
      initial: 'deciding',
      states: {
        deciding: { always: 'editing' },
        editing: { on: { save: 'saving' } },
        saving: { on: { done: 'saved', lost: 'lost', refused: 'refused', sent: 'sent' } },
        lost: { on: { retry: 'saving' } },
        refused: { tags: ['end'], on: { again: 'editing' } },
        sent: { tags: ['end'], initial: 'idle', states: { idle: { on: { check: 'checked' } }, checked: {} } },
        saved: { type: 'final' },
        closed: {},
      },
    });
    expect(endStatesOf(planted)).toEqual(['refused', 'sent.idle', 'sent.checked', 'saved', 'closed']);
  });

  it('the table lists every end state of every app chart, and nothing else', () => {
    const derived = appCharts.flatMap((m) => endStatesOf(m).map((s) => `${m.id} ${s}`)).sort();
    const listed = Object.entries(WAYS_ON)
      .flatMap(([id, ends]) => Object.keys(ends).map((s) => `${id} ${s}`))
      .sort();
    expect(listed, 'end states in the table (add a way on for each new one)').toEqual(derived);
  });

  it('each end state offers at least one way on that leads to a screen of the app, or hands over to another flow', () => {
    const ids = new Set(appCharts.map((m) => m.id));
    for (const [id, ends] of Object.entries(WAYS_ON))
      for (const [state, way] of Object.entries(ends)) {
        const where = `${id} ${state}`;
        if ('handsOverTo' in way) {
          expect(ids.has(way.handsOverTo), `${where} hands over to a chart of the app`).toBe(true);
          expect(WAYS_ON[way.handsOverTo], `${where}: the chart it hands over to has its end states listed`).toBeDefined();
        } else if ('actions' in way) {
          for (const a of way.actions) {
            const to = 'to' in a ? a.to : undefined;
            if (typeof to === 'string') expect(routed(to), `${where}: ${to} is a screen of the app`).toBe(true);
          }
        }
      }
  });

  for (const machine of appCharts)
    for (const state of endStatesOf(machine)) {
      const way = WAYS_ON[machine.id]?.[state];
      const offers = !way
        ? 'not in the table'
        : 'actions' in way
          ? way.actions.map((a) => String('button' in a ? a.button : 'link' in a ? a.link : a.input)).join(', ')
          : 'handsOverTo' in way
            ? `hands over to ${way.handsOverTo}`
            : `leaves for ${way.leaves}`;
      it(`${machine.id} ${state}: ${offers}`, async () => {
        // END_STATES_PRINT=1 walks a state not in the table yet and prints what its screen offers, to write its row from
        if (!process.env.END_STATES_PRINT) expect(way, `${machine.id} ${state} is in the table`).toBeDefined();
        const c = specs.get(machine.id);
        expect(c, `${machine.id} has a path test to reach its states with`).toBeDefined();
        // a hand-over or a page left is checked by the path test's own check of the state on the way
        await runPathTo(c!.h, c!.spec, state, async (w) => {
          if (process.env.END_STATES_PRINT)
            console.log(
              `END ${machine.id} ${state} @ ${w.ui.path()} :: ${[...screen.queryAllByRole('button'), ...screen.queryAllByRole('link')].map((e) => `${e.textContent?.trim().slice(0, 30)}=>${e.getAttribute('href') ?? ''}`).join(' | ')}`,
            );
          if (!way || !('actions' in way)) return;
          // a navigation the end state set off (a reload, a redirect) has landed
          await w.ui.waitForPath(/./);
          const here = w.ui.path();
          for (const a of way.actions) {
            if ('input' in a) {
              const input = screen.getByLabelText(a.input) as HTMLInputElement;
              expect(input.disabled, `${a.input} can be used`).toBe(false);
              continue;
            }
            const role = 'button' in a ? 'button' : 'link';
            const name = 'button' in a ? a.button : a.link;
            // a page the end state sends on to (my bookings with nothing ahead opens the schedule) may still be on its way
            const found = await waitFor(
              () => {
                const now = screen.queryAllByRole(role).filter((el) => named(name, el));
                expect(now.length, `a ${role} ${String(name)} on ${w.ui.path()}`).toBeGreaterThan(0);
                return now;
              },
              { timeout: 5_000 },
            );
            const usable = found.filter((el) => !(el as HTMLButtonElement).disabled && el.getAttribute('aria-disabled') !== 'true');
            expect(usable.length, `the ${role} ${String(name)} can be used`).toBeGreaterThan(0);
            if (a.to !== undefined) {
              const hrefs = usable.map((el) => el.getAttribute('href') ?? '');
              expect(
                hrefs.some((href) => leadsTo(a.to!, href)),
                `${String(name)} leads to ${String(a.to)} (it leads to ${hrefs.join(', ')})`,
              ).toBe(true);
              expect(
                hrefs.some((href) => leadsTo(a.to!, href) && href !== here),
                `${String(name)} leads away from ${here}`,
              ).toBe(true);
            }
          }
        });
      });
    }
});
