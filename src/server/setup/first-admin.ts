import { randomInt } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import type { Clock } from '../../domain/clock';
import { validRealName } from '../../domain/identity';
import { isValidPhone, trimInput } from '../../domain/validation';
import type { Db } from '../db/client';
import { accounts } from '../db/schema/index';
import { hashPassword } from '../services/auth-password';

/** Any constant: the advisory lock that lets only one first administrator be created at a time. */
const FIRST_ADMIN_LOCK = 774_203;

/** Letters and digits that cannot be misread for each other when the password is read out or typed. */
const ALPHABET = 'abcdefghjkmnpqrstuvwxyzACDEFGHJKLMNPQRTUVWXY3467';

/** A random password of 12 characters from a cryptographic source (about 67 bits). */
export function randomPassword(length = 12): string {
  return Array.from({ length }, () => ALPHABET[randomInt(ALPHABET.length)]).join('');
}

/** Why the first administrator was not created; the command prints it and exits 1. */
export class FirstAdminRefused extends Error {}

/**
 * The chain's first staff account, made once from the command line (`create-admin`): there is no
 * built-in staff password in production. Refused when any staff account exists already (later staff
 * are added from the staff console) or when the phone has an account. The password is random and
 * returned once, for the operator to hand over; only its hash is stored.
 */
export async function createFirstAdmin(
  db: Db,
  clock: Clock,
  input: { phone: string; name: string },
  scryptN?: number,
): Promise<{ id: number; password: string }> {
  const phone = trimInput(input.phone);
  const name = trimInput(input.name);
  if (!isValidPhone(phone)) throw new FirstAdminRefused(`--phone: not a mainland mobile number (got "${input.phone}")`);
  if (!validRealName(name)) throw new FirstAdminRefused('--name: a real name of at most 20 characters, not digits');
  const password = randomPassword();
  const passwordHash = await hashPassword(password, scryptN);
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${FIRST_ADMIN_LOCK})`);
    const [staff] = await tx.select({ id: accounts.id }).from(accounts).where(eq(accounts.role, 'staff')).limit(1);
    if (staff) throw new FirstAdminRefused('a staff account exists already: add staff from the staff console');
    const [taken] = await tx.select({ id: accounts.id }).from(accounts).where(eq(accounts.phone, phone));
    if (taken) throw new FirstAdminRefused(`--phone: ${phone} already has an account; use another phone`);
    const [row] = await tx
      .insert(accounts)
      .values({ phone, name, passwordHash, role: 'staff', createdAt: clock.now() })
      .returning({ id: accounts.id });
    return { id: row!.id, password };
  });
}
