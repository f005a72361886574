import { eq } from 'drizzle-orm';
import { accountClosings, accounts } from '../../../src/server/db/schema/index';
import type { TestServer } from '../support/harness';

/** Closing an account in tests (decision 057): the member's and staff's calls, and the rows. */
export const askClosing = (s: TestServer, token: string, body: Record<string, unknown> = {}) =>
  s.call('POST', '/api/customers/me/closing', { token, body });
export const myClosing = (s: TestServer, token: string) => s.call('GET', '/api/customers/me/closing', { token });
export const withdrawClosing = (s: TestServer, token: string) => s.call('POST', '/api/customers/me/closing/withdraw', { token });
export const staffClosings = (s: TestServer, token: string) => s.call('GET', '/api/staff/account-closings', { token });
export const confirmClosing = (s: TestServer, token: string, id: number) =>
  s.call('POST', '/api/staff/account-closings/confirm', { token, body: { id } });
export const refuseClosing = (s: TestServer, token: string, id: number, reason: string) =>
  s.call('POST', '/api/staff/account-closings/refuse', { token, body: { id, reason } });

export async function closingRow(s: TestServer, id: number) {
  const [row] = await s.deps.db.select().from(accountClosings).where(eq(accountClosings.id, id));
  return row!;
}
export async function accountRow(s: TestServer, id: number) {
  const [row] = await s.deps.db.select().from(accounts).where(eq(accounts.id, id));
  return row!;
}
