import { sessions } from '../../../src/server/db/schema/index';
import { demoAccounts } from '../../../src/server/db/seed/index';
import { hashSecret, newSecret } from '../../../src/server/services/auth-tokens';
import type { TestServer } from '../support/harness';

/** The demo accounts by what the tests call them (ids follow demoAccounts order: 1..5). */
export const level1 = demoAccounts[0]!;
export const level2 = demoAccounts[1]!;
export const bannedMember = demoAccounts[2]!;

/**
 * A member's token: by POST /api/oauth/login with the seeded password when the auth routes are
 * mounted, else a session row inserted directly (the same stored form: the token's SHA-256).
 */
export async function tokenFor(s: TestServer, phone: string): Promise<string> {
  const account = demoAccounts.find((a) => a.phone === phone)!;
  const r = await s.call('POST', '/api/oauth/login', { body: { username: phone, password: account.password, loginType: 'password' } });
  if (r.status === 200 && typeof r.body?.token === 'string') return r.body.token;
  const accountId = demoAccounts.indexOf(account) + 1;
  const token = newSecret();
  const now = s.clock.now();
  await s.deps.db.insert(sessions).values({
    accountId,
    tokenHash: hashSecret(token),
    createdAt: now,
    expiresAt: new Date(now.getTime() + 30 * 86_400_000),
  });
  return token;
}

/** The request language by cookie (DESIGN.md §4: lang cookie first). */
export const EN = { cookie: 'lang=en' };
