// @vitest-environment jsdom
import { screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { describe, expect, it } from 'vitest';
import type { Order } from '../../../src/api/orders';
import { OrderDetail } from '../../../src/app/screens/checkout/order-detail-screen';
import type { OrderPageData } from '../../../src/app/screens/checkout/order-page-data';
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
  ...over,
});

function show(o: Order) {
  const d: OrderPageData = { orderNo: o.orderNo, order: o, goodsName: o.goodsName, methods: [], unavailable: [], standIn: true, signedIn: true };
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
  });
});
