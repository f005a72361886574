import { eq } from 'drizzle-orm';
import { expect } from 'vitest';
import { invoices, orders } from '../../../src/server/db/schema/index';
import { create, credit, newGoods, pay } from '../orders/support';
import type { TestServer } from '../support/harness';

/** Invoices in tests (decision 044): paid orders, the member's and staff's calls, a valid company's fields. */

/** A well-formed unified social credit code with the right check character (GB 32100-2015). */
export const TAX_NO = '91350100M000100Y43';
/** The same code with a wrong check character. */
export const TAX_NO_WRONG_CHECK = '91350100M000100Y44';

export const FIELDS = { title: '上海静心瑜伽文化有限公司', taxNumber: TAX_NO, address: '上海市静安区南京西路1266号' };

/** A paid order of `accountId` (balance), for goods costing `cents` (of `clubId`, when given). */
export async function paidOrder(s: TestServer, m: { id: number; token: string }, cents = 19_900, clubId: number | null = null) {
  const g = await newGoods(s, { memberPriceCents: cents, clubId });
  await credit(s, m.id, cents);
  const no = (await create(s, m.token, { goodsId: g.id })).body.data.orderNo as string;
  expect((await pay(s, m.token, no, 'balance')).status).toBe(200);
  const [o] = await s.deps.db.select().from(orders).where(eq(orders.orderNo, no));
  expect(o!.state).toBe('paid');
  return o!;
}

export const invoiceable = (s: TestServer, token: string) => s.call('GET', '/api/customers/invoices/orders', { token });
export const requestInvoice = (s: TestServer, token: string, body: Record<string, unknown>, headers: Record<string, string> = {}) =>
  s.call('POST', '/api/customers/invoices', { token, body: { ...FIELDS, ...body }, headers });
export const myInvoices = (s: TestServer, token: string) => s.call('GET', '/api/customers/invoices', { token });
export const invoicePdf = (s: TestServer, token: string, id: number) =>
  s.app.request(`/api/customers/invoices/${id}/pdf`, { headers: { 'authorization-token': token } });
export const staffInvoices = (s: TestServer, token: string) => s.call('GET', '/api/staff/invoices', { token });
export const issue = (s: TestServer, token: string, id: number) => s.call('POST', '/api/staff/invoices/issue', { token, body: { id } });
export const refuse = (s: TestServer, token: string, id: number, reason: string) =>
  s.call('POST', '/api/staff/invoices/refuse', { token, body: { id, reason } });

export async function invoiceRow(s: TestServer, id: number) {
  const [row] = await s.deps.db.select().from(invoices).where(eq(invoices.id, id));
  return row!;
}
