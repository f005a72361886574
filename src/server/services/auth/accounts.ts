import { eq } from 'drizzle-orm';
import type { Clock } from '../../../domain/clock';
import type { Db, Tx } from '../../db/client';
import { accounts } from '../../db/schema/index';
import { revokeAccountSessions } from './sessions';
import type { Profile } from '../../../contracts/auth';

export type Account = typeof accounts.$inferSelect;

/** The profile the app shows (login answer's data and GET /customers/me); never the password hash. */
export function profileOf(a: Account): Profile {
  return {
    id: a.id,
    username: a.phone,
    phone: a.phone,
    level: a.level,
    role: a.role,
    name: a.name,
    wxAvatar: a.wxAvatar,
    wxNickname: a.wxNickname,
    avatarUrl: a.avatarUrl,
  };
}

export async function accountByPhone(db: Db | Tx, phone: string, lock = false): Promise<Account | undefined> {
  const q = db.select().from(accounts).where(eq(accounts.phone, phone)).limit(1);
  const rows = lock ? await q.for('update') : await q;
  return rows[0];
}

export async function accountById(db: Db | Tx, id: number): Promise<Account | undefined> {
  const rows = await db.select().from(accounts).where(eq(accounts.id, id)).limit(1);
  return rows[0];
}

/** A phone's first code login creates the member (safe under concurrency: the phone is unique). */
export async function findOrCreateMember(tx: Tx, phone: string, clock: Clock): Promise<Account> {
  await tx.insert(accounts).values({ phone, role: 'member', createdAt: clock.now() }).onConflictDoNothing({ target: accounts.phone });
  const account = await accountByPhone(tx, phone, true);
  if (!account) throw new Error(`account for ${phone} vanished`);
  return account;
}

/** Banning an account revokes its tokens at once (DESIGN.md §4); for the staff tools and tests. */
export async function banAccount(db: Db, accountId: number, clock: Clock): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.update(accounts).set({ banned: true }).where(eq(accounts.id, accountId));
    await revokeAccountSessions(tx, accountId, clock);
  });
}

/** Keeps the messaging-app avatar and nickname given at binding time (only the fields given). */
export async function updateWxProfile(tx: Tx, accountId: number, wx: { avatar?: string; nickname?: string }): Promise<void> {
  const set: Partial<Pick<Account, 'wxAvatar' | 'wxNickname'>> = {};
  if (wx.avatar) set.wxAvatar = wx.avatar;
  if (wx.nickname) set.wxNickname = wx.nickname;
  if (Object.keys(set).length) await tx.update(accounts).set(set).where(eq(accounts.id, accountId));
}
