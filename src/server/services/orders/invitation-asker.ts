import { eq } from 'drizzle-orm';
import { accounts } from '../../db/schema/index';
import type { Deps } from '../../env';
import { maskPhone } from '../cards/transfer';
import { shownName } from '../person/shown-name';

/**
 * Who asks the friend to pay (decision 099): the nickname the member shows in the messaging app, the
 * name the friend knows them by in the chat the link came through; without one, the name other members
 * are shown (masked, shown-name.ts), else the masked phone. The avatar is the messaging app's, else the
 * account's; never the check-in photo, which only the member and staff see.
 */
export async function askerOf(deps: Deps, accountId: number): Promise<{ name: string; avatar: string | null }> {
  const [a] = await deps.db
    .select({ phone: accounts.phone, wxNickname: accounts.wxNickname, wxAvatar: accounts.wxAvatar, avatarUrl: accounts.avatarUrl })
    .from(accounts)
    .where(eq(accounts.id, accountId));
  const nickname = a?.wxNickname?.trim();
  const name = nickname || (await shownName(deps.db, accountId)) || maskPhone(a?.phone ?? '');
  return { name, avatar: a?.wxAvatar || a?.avatarUrl || null };
}
