import { describe, expect, it } from 'vitest';
import { orderMachine } from '../../machines/domain/order.machine';
import { canApplyOrder, nextOrderState, orderActions } from '../../machines/domain/order-transitions';
import { defineModelTest } from './support/define-model-test';

defineModelTest({
  machine: orderMachine,
  inputs: { 'a new order': undefined },
  project: () => null,
});

describe('the server reads the order chart (canApplyOrder)', () => {
  it('pays an unpaid order by balance at once or through a provider', () => {
    expect(nextOrderState('unpaid', 'payment.succeeded')).toBe('paid');
    expect(nextOrderState('unpaid', 'order.pay')).toBe('paying');
    expect(nextOrderState('paying', 'payment.succeeded')).toBe('paid');
    expect(nextOrderState('paying', 'payment.failed')).toBe('payment_failed');
    // no second payment while one is open: another method closes it first (payment.failed), decision 013
    expect(nextOrderState('paying', 'order.pay')).toBeNull();
    expect(nextOrderState('payment_failed', 'order.pay')).toBe('paying');
  });

  it('cancels only an unpaid or failed order', () => {
    expect(nextOrderState('unpaid', 'order.cancel')).toBe('cancelled');
    expect(nextOrderState('payment_failed', 'order.cancel')).toBe('cancelled');
    expect(canApplyOrder('paying', 'order.cancel')).toBe(false);
    expect(canApplyOrder('paid', 'order.cancel')).toBe(false);
  });

  it('never pays twice, never pays a cancelled order', () => {
    for (const s of ['paid', 'fully_paid', 'cancelled', 'refunding', 'refunded', 'refund_failed'] as const) {
      expect(canApplyOrder(s, 'payment.succeeded'), s).toBe(false);
      expect(canApplyOrder(s, 'order.pay'), s).toBe(false);
    }
  });

  it('refunds a paid order', () => {
    expect(nextOrderState('paid', 'refund.request')).toBe('refunding');
    expect(nextOrderState('refunding', 'refund.succeeded')).toBe('refunded');
    expect(nextOrderState('refunding', 'refund.failed')).toBe('refund_failed');
    expect(nextOrderState('refund_failed', 'refund.request')).toBe('refunding');
  });

  it('offers the actions the chart allows', () => {
    expect(orderActions('unpaid')).toEqual(['pay', 'cancel']);
    expect(orderActions('paying')).toEqual([]);
    expect(orderActions('paid')).toEqual([]);
  });
});
