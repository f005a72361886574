// @vitest-environment jsdom
import { cleanup, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { describe, expect, it } from 'vitest';
import type { OrderDetail as Order } from '../../../src/api/orders';
import { OrderDetail } from '../../../src/app/screens/orders/order-detail-screen';
import type { OrderPageData } from '../../../src/app/screens/orders/order-page-data';
import { ConfirmProvider } from '../../../src/app/ui/confirm';
import { ToastProvider } from '../../../src/app/ui/toast';
import { renderWithI18n } from './render-with-i18n';

const order = (over: Partial<Order>): Order => ({
  orderNo: 'O1',
  goodsId: 1,
  goodsName: '10次卡',
  goodsKind: 'card',
  goodsImage: '',
  quantity: 1,
  state: 'unpaid',
  payMethod: null,
  issuedCardId: null,
  issuedCourseId: null,
  issuedCouponId: null,
  phaseId: null,
  teacherId: null,
  couponId: null,
  expiresAt: '2026-11-22T08:15:00Z',
  actions: ['pay', 'cancel'],
  createdAt: '2026-11-22T08:00:00Z',
  paidAt: null,
  cancelledAt: null,
  listPriceCents: 29_900,
  memberPriceCents: 19_900,
  priceCents: 19_900,
  couponDeductionCents: 0,
  balanceUsedCents: 0,
  amountToPayCents: 19_900,
  breakdown: {
    scope: 'order',
    goodsTotalCents: 19_900,
    couponCents: 0,
    paidCents: 0,
    refundedCents: 0,
    refundingCents: 0,
    toPayCents: 19_900,
    payers: [],
  },
  parts: [
    {
      seq: 1,
      kind: 'share',
      amountCents: 19_900,
      state: 'unpaid',
      paidBy: null,
      friendName: null,
      withFriend: false,
      holder: null,
      actions: ['pay', 'invite'],
      payFailed: false,
    },
  ],
  money: { appliedCents: 0, takenCents: 0, refundedCents: 0, refundingCents: 0, outstandingCents: 19_900, liveCents: 19_900 },
  refunds: [],
  ...over,
});
/** split in two (the whole share dropped), the first part paid by balance */
const splitParts: Order['parts'] = [
  {
    seq: 1,
    kind: 'share',
    amountCents: 19_900,
    state: 'dropped',
    paidBy: null,
    friendName: null,
    withFriend: false,
    holder: null,
    actions: [],
    payFailed: false,
  },
  {
    seq: 2,
    kind: 'share',
    amountCents: 9_950,
    state: 'paid',
    paidBy: 'balance',
    friendName: null,
    withFriend: false,
    holder: null,
    actions: [],
    payFailed: false,
  },
  {
    seq: 3,
    kind: 'share',
    amountCents: 9_950,
    state: 'unpaid',
    paidBy: null,
    friendName: null,
    withFriend: false,
    holder: null,
    actions: ['pay', 'invite'],
    payFailed: false,
  },
];

function show(o: Order, partSeq?: number) {
  const d: OrderPageData = {
    orderNo: o.orderNo,
    order: o,
    partSeq,
    goodsName: o.goodsName,
    methods: [],
    unavailable: [],
    standIn: true,
    signedIn: true,
  };
  const router = createMemoryRouter([{ path: '/', element: <OrderDetail d={d} /> }]);
  return renderWithI18n(
    <ToastProvider>
      <ConfirmProvider>
        <RouterProvider router={router} />
      </ConfirmProvider>
    </ToastProvider>,
  );
}

describe('/orderdetail offers what the server says the order allows', () => {
  it('an unpaid order past its payment time (server: cancel only) shows no pay button', () => {
    show(order({ actions: ['cancel'] }));
    expect(document.querySelector('[data-action="pay-order"]')).toBeNull();
    expect(screen.getByRole('button', { name: '取消订单' })).toBeTruthy();
    expect(document.querySelector('[data-action="ask-friend"]')).toBeNull();
  });

  it("asking a friend is offered only when the server says so ('invite'), also while a friend holds the order", () => {
    show(order({ state: 'friend_paying', actions: ['cancel', 'invite'] }));
    expect(document.querySelector('[data-action="ask-friend"]')?.getAttribute('href')).toBe('/friendsplit?orderNo=O1');
  });

  it('a split order without a part leads to its parts and pays nothing whole', () => {
    show(order({ actions: ['pay', 'cancel', 'unsplit'], parts: splitParts }));
    expect(document.querySelector('[data-action="pay-order"]')).toBeNull();
    expect(document.querySelector('[data-action="split-order"]')).toBeNull();
    expect(document.querySelector('[data-action="view-split"]')?.getAttribute('href')).toBe('/orderdetail/splittopay?orderNo=O1');
  });

  it("a cancelled order says where each payer's money went back, and how far it is", () => {
    const refund = { cause: 'order_cancelled' as const, failureMessage: null, createdAt: '2026-11-20T01:00:00.000Z', settledAt: null };
    show(
      order({
        state: 'cancelled',
        actions: [],
        refunds: [
          { ...refund, amountCents: 9_950, state: 'succeeded', to: 'balance' },
          { ...refund, amountCents: 9_950, state: 'pending', to: 'wechat' },
        ],
      }),
    );
    expect([...document.querySelectorAll('[data-order-refunds] p')].map((p) => p.textContent)).toEqual([
      '¥99.50 已退回余额',
      '¥99.50 正在退回微信',
    ]);
  });

  it('a paid order leads to what it issued: the card, or my courses; an unpaid one to neither', () => {
    show(order({ state: 'paid', actions: [], issuedCardId: 7 }));
    expect(document.querySelector('[data-action="view-issued-card"]')?.getAttribute('href')).toBe('/mine/carddetail?id=7');
    cleanup();
    show(order({ state: 'paid', actions: [], issuedCourseId: 3 }));
    expect(document.querySelector('[data-action="view-issued-course"]')?.getAttribute('href')).toBe('/mycourse');
    cleanup();
    show(order({ actions: ['cancel'] }));
    expect(screen.getByRole('button', { name: '取消订单' })).toBeTruthy();
    expect(document.querySelector('[data-action^="view-issued"]')).toBeNull();
  });

  // paying a part (the pay panel needs the whole app): test/screens/split-pay-part.screen.test.tsx
  it('a part already paid is said so, with nothing to pay', () => {
    show(order({ actions: ['pay', 'cancel', 'unsplit'], parts: splitParts }), 2);
    expect(document.querySelector('[data-split-summary]')?.textContent).toContain('第 1 份 ¥99.50 已支付');
    expect(document.querySelector('[data-action="pay-order"]')).toBeNull();
  });
});
