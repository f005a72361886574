import { eq } from 'drizzle-orm';
import { expect } from 'vitest';
import { cardRefunds, memberCards, orders } from '../../../src/server/db/schema/index';
import type { TestServer } from '../support/harness';
import { create, credit, newGoods, newMember, pay } from '../orders/support';

/**
 * Card refunds in tests (decision 030): a card bought by a real order (balance, WeChat Pay or Alipay
 * through the stand-ins), the member's request and the staff decisions.
 */

/** A member who bought a card (20 uses, 90 days, ¥199) paying with `method`; the card starts inactive. */
export async function boughtCard(
  s: TestServer,
  method: 'balance' | 'wechat' | 'alipay' = 'balance',
  over: Parameters<typeof newGoods>[1] = {},
) {
  const m = await newMember(s);
  const g = await newGoods(s, over);
  if (method === 'balance') await credit(s, m.id, g.memberPriceCents);
  const no = (await create(s, m.token, { goodsId: g.id })).body.data.orderNo as string;
  const started = await pay(s, m.token, no, method);
  expect(started.status).toBe(200);
  if (method === 'wechat')
    await s.call('POST', '/api/dev/pay/wechat/simulate', { body: { prepayId: started.body.data.payment.prepayId, outcome: 'pay' } });
  if (method === 'alipay') {
    expect((await s.app.request(started.body.data.payment.url)).status).toBe(200);
    await s.call('POST', '/api/dev/pay/alipay/simulate', { body: { outTradeNo: `${no}-1`, outcome: 'pay' } });
  }
  const [o] = await s.deps.db.select().from(orders).where(eq(orders.orderNo, no));
  expect(o!.state).toBe('paid');
  const [card] = await s.deps.db.select().from(memberCards).where(eq(memberCards.id, o!.issuedCardId!));
  return { m, g, order: o!, card: card!, orderNo: no, outTradeNo: `${no}-1` };
}

export const quote = (s: TestServer, token: string, cardId: number) =>
  s.call('GET', `/api/customers/cards/refund/quote?cardId=${cardId}`, { token });
export const askRefund = (s: TestServer, token: string, cardId: number, body: Record<string, unknown> = { agreed: true }) =>
  s.call('POST', '/api/customers/cards/refund', { token, body: { cardId, ...body } });
export const cancelRefund = (s: TestServer, token: string, id: number) =>
  s.call('POST', '/api/customers/cards/refund/cancel', { token, body: { id } });
export const myRefund = (s: TestServer, token: string, cardId: number) =>
  s.call('GET', `/api/customers/cards/refund/mine?cardId=${cardId}`, { token });
export const staffRefund = (s: TestServer, token: string, action: 'approve' | 'reject', id: number, reason?: string) =>
  s.call('POST', `/api/staff/card-refunds/${action}`, { token, body: reason === undefined ? { id } : { id, reason } });

export async function cardRefundRow(s: TestServer, id: number) {
  const [row] = await s.deps.db.select().from(cardRefunds).where(eq(cardRefunds.id, id));
  return row!;
}
export async function orderState(s: TestServer, orderId: number) {
  const [o] = await s.deps.db.select({ state: orders.state }).from(orders).where(eq(orders.id, orderId));
  return o!.state;
}
