import { describe, expect, it } from 'vitest';
import { ORDER_LIST_STATES } from '../../machines/domain/order-transitions';
import { ORDER_LIST_FILTERS, ORDER_STATES } from '../../src/domain/orders';

/** The order list's tabs (decision 096) are read from the order chart: each state under one tab, and every state under one. */
describe('the order list tabs', () => {
  it('group the states as a member reads them', () => {
    const sorted = (xs: readonly string[]) => [...xs].sort();
    expect(sorted(ORDER_LIST_STATES.to_pay)).toEqual(['friend_paying', 'paying', 'payment_failed', 'unpaid']);
    expect(sorted(ORDER_LIST_STATES.paid)).toEqual(['fully_paid', 'paid']);
    expect(sorted(ORDER_LIST_STATES.refunds)).toEqual(['refund_failed', 'refunded', 'refunding']);
    expect(sorted(ORDER_LIST_STATES.cancelled)).toEqual(['cancelled']);
    expect(sorted(ORDER_LIST_STATES.all)).toEqual(sorted(ORDER_STATES));
  });

  it('every state is under exactly one tab after all', () => {
    const tabs = ORDER_LIST_FILTERS.filter((f) => f !== 'all');
    for (const state of ORDER_STATES)
      expect(
        tabs.filter((t) => ORDER_LIST_STATES[t].includes(state)),
        state,
      ).toHaveLength(1);
  });
});
