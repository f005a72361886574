import { count, inArray, sql } from 'drizzle-orm';
import type { Clock } from '../../../domain/clock';
import type { Db, Tx } from '../client';
import { accounts, clubs } from '../schema/index';
import { verifyPassword } from '../../services/auth-password';
import { seedBookings } from './bookings';
import { seedBuying } from './buying';
import { seedCardTypeRules } from './card-rules';
import { seedClasses } from './classes';
import { seedClubs } from './clubs';
import { seedGoods } from './goods';
import { demoAccounts, hashDemoPasswords, seedAccounts, seedBalances, seedNotices, seedSurvey } from './people';
import { seatCountsThatDisagree } from '../consistency';

export { demoAccounts, type DemoAccount } from './people';

/** Any constant: the advisory lock two starting processes take so only one of them seeds. */
const SEED_LOCK = 774_201;

async function seedInto(tx: Tx, clock: Clock, hashes: readonly string[]) {
  // Deterministic order: on an empty database the first row of every table gets id 1.
  const accountIds = await seedAccounts(tx, clock, hashes);
  const byRole = (role: string, banned = false) =>
    accountIds.filter((_, i) => demoAccounts[i]!.role === role && demoAccounts[i]!.banned === banned);
  const teacherAccountId = byRole('teacher')[0]!;
  const { clubIds, teacherIds } = await seedClubs(tx, teacherAccountId);
  await seedGoods(tx, clock, clubIds, teacherIds);
  await seedCardTypeRules(tx);
  await seedBuying(tx, clock, byRole('member'), teacherIds);
  await seedNotices(tx, clock, byRole('member'));
  await seedBalances(tx, clock, byRole('member'));
  await seedSurvey(tx, clock);
  const schedule = await seedClasses(tx, clock, clubIds, teacherIds);
  await seedBookings(tx, clock, byRole('member'), schedule);
  // what the data promises, checked before it is committed: every class counts the seats its bookings hold
  const off = await seatCountsThatDisagree(tx);
  if (off.length > 0)
    throw new Error(
      `seed: ${off.length} classes count other seats than their bookings hold (class ${off[0]!.classId}: ${off[0]!.bookedCount} ≠ ${off[0]!.seats})`,
    );
}

/**
 * Seeds the demo chain (clubs, teachers, goods, notices, survey, demo accounts) in one transaction;
 * the demo passwords hashed at `scryptN` (the product's cost by default).
 */
export async function seedDemo(db: Db, clock: Clock, scryptN?: number): Promise<void> {
  const hashes = await hashDemoPasswords(scryptN);
  await db.transaction((tx) => seedInto(tx, clock, hashes));
}

async function isEmpty(db: Db | Tx): Promise<boolean> {
  const [row] = await db.select({ n: count() }).from(clubs);
  return (row?.n ?? 0) === 0;
}

/** Seeds only an empty database (server start); safe when several processes start at once. */
export async function seedIfEmpty(db: Db, clock: Clock, scryptN?: number): Promise<boolean> {
  if (!(await isEmpty(db))) return false;
  const hashes = await hashDemoPasswords(scryptN);
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${SEED_LOCK})`);
    if (!(await isEmpty(tx))) return false;
    await seedInto(tx, clock, hashes);
    return true;
  });
}

/**
 * Whether the database holds the demo chain: a demo account (phone and role) that still opens with
 * its published password. Such a database must never serve production, where anyone who has read
 * the README could log in as its staff.
 */
export async function holdsDemoChain(db: Db): Promise<boolean> {
  const rows = await db
    .select({ phone: accounts.phone, role: accounts.role, passwordHash: accounts.passwordHash })
    .from(accounts)
    .where(
      inArray(
        accounts.phone,
        demoAccounts.map((a) => a.phone),
      ),
    );
  for (const row of rows) {
    const demo = demoAccounts.find((a) => a.phone === row.phone && a.role === row.role);
    if (demo && (await verifyPassword(demo.password, row.passwordHash))) return true;
  }
  return false;
}
