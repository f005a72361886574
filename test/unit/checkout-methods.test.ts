import { describe, expect, it } from 'vitest';
import { checkoutMethods, defaultPayMethod } from '../../src/domain/orders';

describe('the ways offered on the checkout (decision 038)', () => {
  it("are the providers in the server's order, the balance being its own switch; the first is preselected", () => {
    expect(checkoutMethods(['balance', 'alipay', 'wechat'])).toEqual(['alipay', 'wechat']);
    expect(defaultPayMethod(checkoutMethods(['balance', 'alipay', 'wechat']))).toBe('alipay');
    expect(checkoutMethods(['balance', 'wechat'])).toEqual(['wechat']);
  });
  it('are the balance alone when the server offers nothing else', () => {
    expect(checkoutMethods(['balance'])).toEqual(['balance']);
    expect(defaultPayMethod(checkoutMethods(['balance']))).toBe('balance');
    expect(checkoutMethods([])).toEqual([]);
  });
});
