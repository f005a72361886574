import { eq } from 'drizzle-orm';
import { accounts, goods, memberCards, openIdBindings, orders, sessions } from '../../../src/server/db/schema/index';
import { creditBalance } from '../../../src/server/services/orders/balance';
import { hashSecret, newSecret } from '../../../src/server/services/auth-tokens';
import { newMember as newMemberWithoutOpenId } from '../booking/support';
import { issueOpenId } from '../payments/support';
import type { TestServer } from '../support/harness';

/** A member with a live session and no messaging-app open id bound (logged in by phone outside the messaging app). */
export { newMember as newMemberWithoutOpenId } from '../booking/support';

/**
 * A member with a live session and a messaging-app open id bound, written straight to the database as
 * a phone login carrying the silent authorization's ticket would (decision 003); the OAuth stand-in
 * issued that open id, so WeChat Pay accepts it as the payer.
 */
export async function newMember(s: TestServer, level = '2'): Promise<{ id: number; token: string; openId: string }> {
  const m = await newMemberWithoutOpenId(s, level);
  const openId = `o_member_${m.id}`;
  await issueOpenId(s, openId);
  await s.deps.db.insert(openIdBindings).values({ openId, accountId: m.id, createdAt: s.clock.now() });
  return { ...m, openId };
}

/** A card product on the shelf: 20 uses, 90 days, list ¥299, member ¥199 unless told. */
export async function newGoods(s: TestServer, over: Partial<typeof goods.$inferInsert> = {}) {
  const [g] = await s.deps.db
    .insert(goods)
    .values({
      kind: 'card',
      cardType: 'count',
      name: '20次卡',
      image: '/img/card.jpg',
      listPriceCents: 29_900,
      memberPriceCents: 19_900,
      uses: 20,
      validityDays: 90,
      createdAt: s.clock.now(),
      ...over,
    })
    .returning();
  return g!;
}

export const credit = (s: TestServer, accountId: number, cents: number) => creditBalance(s.deps.db, s.clock, accountId, cents);

/** A member's order, the purchase agreement accepted (as the checkout sends it) unless the body says otherwise. */
export const create = (s: TestServer, token: string, body: Record<string, unknown>, headers: Record<string, string> = {}) =>
  s.call('POST', '/api/orders/create', { token, body: { agreementAccepted: true, ...body }, headers });
export const pay = (s: TestServer, token: string, orderNo: string, method: string, headers: Record<string, string> = {}) =>
  s.call('POST', '/api/orders/pay', { token, body: { orderNo, method }, headers });

export async function orderRow(s: TestServer, orderNo: string) {
  const [o] = await s.deps.db.select().from(orders).where(eq(orders.orderNo, orderNo));
  return o!;
}
export async function goodsRow(s: TestServer, id: number) {
  const [g] = await s.deps.db.select().from(goods).where(eq(goods.id, id));
  return g!;
}
export const cardsOf = (s: TestServer, accountId: number) =>
  s.deps.db.select().from(memberCards).where(eq(memberCards.accountId, accountId));
export async function balance(s: TestServer, token: string): Promise<number> {
  return (await s.call('GET', '/api/customers/balance', { token })).body.data.balanceCents;
}

let staffPhones = 0;
/** A front-desk staff account with a live session. */
export async function newStaff(s: TestServer): Promise<{ id: number; token: string }> {
  const now = s.clock.now();
  const [a] = await s.deps.db
    .insert(accounts)
    .values({ phone: `1340000${String(++staffPhones).padStart(4, '0')}`, level: '2', role: 'staff', createdAt: now })
    .returning({ id: accounts.id });
  const token = newSecret();
  await s.deps.db
    .insert(sessions)
    .values({ accountId: a!.id, tokenHash: hashSecret(token), createdAt: now, expiresAt: new Date(now.getTime() + 30 * 86_400_000) });
  return { id: a!.id, token };
}
