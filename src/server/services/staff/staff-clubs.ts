import { eq } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { staffClubs } from '../../db/schema/index';

/**
 * The clubs a staff member works for (`staff_clubs`, decisions 033 and 041); null: the whole chain
 * (no row). Their complaint queue and the classes they may create, edit and cancel follow it.
 */
export async function staffClubsOf(db: Db | Tx, staffId: number): Promise<number[] | null> {
  const rows = await db.select({ clubId: staffClubs.clubId }).from(staffClubs).where(eq(staffClubs.accountId, staffId));
  return rows.length === 0 ? null : rows.map((r) => r.clubId);
}

/** Whether a staff member with these clubs works for `clubId`. */
export const worksFor = (scope: number[] | null, clubId: number): boolean => scope === null || scope.includes(clubId);
