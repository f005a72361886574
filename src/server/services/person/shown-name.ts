import { inArray } from 'drizzle-orm';
import { maskName } from '../../../domain/card-transfer';
import type { Db, Tx } from '../../db/client';
import { accounts, personInfo } from '../../db/schema/index';

/**
 * The name another member is shown for these accounts (a recipient looked up by phone, a sub-card
 * holder, a gift's recipient): the real name from their personal information when stored (a member
 * who signed up in the app has no account name), else the account name, masked all but its last
 * character; null when there is neither, so a screen says the phone alone rather than a lone "*".
 */
export async function shownNames(db: Db | Tx, accountIds: readonly number[]): Promise<Map<number, string | null>> {
  const ids = [...new Set(accountIds)];
  if (ids.length === 0) return new Map();
  const names = await db.select({ id: accounts.id, name: accounts.name }).from(accounts).where(inArray(accounts.id, ids));
  const real = await db
    .select({ id: personInfo.accountId, realName: personInfo.realName })
    .from(personInfo)
    .where(inArray(personInfo.accountId, ids));
  const realOf = new Map(real.map((r) => [r.id, r.realName.trim()]));
  return new Map(
    names.map((a) => {
      const name = realOf.get(a.id) || a.name?.trim();
      return [a.id, name ? maskName(name) : null];
    }),
  );
}

/** One account's shown name (see shownNames). */
export async function shownName(db: Db | Tx, accountId: number): Promise<string | null> {
  return (await shownNames(db, [accountId])).get(accountId) ?? null;
}
