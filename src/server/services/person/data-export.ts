import { eq, getTableColumns } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/client';
import * as schema from '../../db/schema/index';
import type { KeyAdapter } from '../../gateways/keys/key-adapter';
import { memberIdNumber } from './person-info';

/**
 * Where a member's rows are: each table and the column that names the member. The export reads
 * exactly these; `NOT_EXPORTED` says why each other member column is left out, and a test holds the
 * two lists to the schema, so a new table that names a member cannot be forgotten.
 */
export const EXPORTED: readonly { name: string; table: PgTable; owner: PgColumn }[] = [
  { name: 'sessions', table: schema.sessions, owner: schema.sessions.accountId },
  { name: 'openIdBindings', table: schema.openIdBindings, owner: schema.openIdBindings.accountId },
  { name: 'notifications', table: schema.notifications, owner: schema.notifications.accountId },
  { name: 'personInfo', table: schema.personInfo, owner: schema.personInfo.accountId },
  { name: 'memberPhotos', table: schema.memberPhotos, owner: schema.memberPhotos.accountId },
  { name: 'cards', table: schema.memberCards, owner: schema.memberCards.accountId },
  { name: 'cardsBought', table: schema.memberCards, owner: schema.memberCards.buyerAccountId },
  { name: 'cardsGiven', table: schema.memberCards, owner: schema.memberCards.giftedFromAccountId },
  { name: 'familyCardPlaces', table: schema.cardFamilyMembers, owner: schema.cardFamilyMembers.accountId },
  { name: 'bookings', table: schema.bookings, owner: schema.bookings.accountId },
  { name: 'coupons', table: schema.memberCoupons, owner: schema.memberCoupons.accountId },
  { name: 'couponsGiven', table: schema.memberCoupons, owner: schema.memberCoupons.giftedToAccountId },
  { name: 'courses', table: schema.memberCourses, owner: schema.memberCourses.accountId },
  { name: 'orders', table: schema.orders, owner: schema.orders.accountId },
  { name: 'paymentAttempts', table: schema.paymentAttempts, owner: schema.paymentAttempts.payerAccountId },
  { name: 'balanceLedger', table: schema.balanceLedger, owner: schema.balanceLedger.accountId },
  { name: 'invoices', table: schema.invoices, owner: schema.invoices.accountId },
  { name: 'complaints', table: schema.complaints, owner: schema.complaints.accountId },
  { name: 'complaintImages', table: schema.complaintImages, owner: schema.complaintImages.accountId },
  { name: 'activitySignups', table: schema.activitySignups, owner: schema.activitySignups.accountId },
  { name: 'surveyAnswers', table: schema.surveyAnswers, owner: schema.surveyAnswers.accountId },
  { name: 'flashSalePurchases', table: schema.flashSaleBuyers, owner: schema.flashSaleBuyers.accountId },
  { name: 'cardTransfersSent', table: schema.cardTransfers, owner: schema.cardTransfers.fromAccountId },
  { name: 'cardTransfersReceived', table: schema.cardTransfers, owner: schema.cardTransfers.toAccountId },
  { name: 'transferImages', table: schema.transferImages, owner: schema.transferImages.accountId },
  { name: 'cardRefunds', table: schema.cardRefunds, owner: schema.cardRefunds.accountId },
  { name: 'pageViews', table: schema.pageViews, owner: schema.pageViews.accountId },
  { name: 'accountClosings', table: schema.accountClosings, owner: schema.accountClosings.accountId },
];

/** Member columns not exported, and why ("table.column"). */
export const NOT_EXPORTED: Readonly<Record<string, string>> = {
  'reset_tickets.account_id': 'single-use secrets that last ten minutes',
  'teachers.account_id': "a teacher's public profile, not a member's data",
  'staff_clubs.account_id': "staff's clubs, not a member's data",
  'audit_log.staff_account_id': "staff's actions, the record of who looked at what (decision 055), not a member's data",
};

/** Secrets and bytes never leave the server: hashes, and photo bytes (the export names the photo instead). */
const SECRET = /(^|_)(password_hash|token_hash|ticket_hash|code_hash)$/;

function exportable(table: PgTable): Record<string, PgColumn> {
  return Object.fromEntries(
    Object.entries(getTableColumns(table)).filter(([, col]) => !SECRET.test(col.name) && col.getSQLType() !== 'bytea'),
  );
}

/**
 * Every row the server holds about the member, by table, as JSON (GET /customers/me/export). Their
 * ID number is sealed at rest (decision 055): the export opens it for them, as their own page does.
 */
export async function exportMemberData(db: Db, keys: KeyAdapter, accountId: number, exportedAt: Date): Promise<Record<string, unknown>> {
  const [account] = await db.select(exportable(schema.accounts)).from(schema.accounts).where(eq(schema.accounts.id, accountId));
  const sections = await Promise.all(
    EXPORTED.map(async (e) => [e.name, await db.select(exportable(e.table)).from(e.table).where(eq(e.owner, accountId))] as const),
  );
  const idNumber = (await memberIdNumber(db, keys, accountId)) ?? null;
  const out: Record<string, unknown> = { exportedAt: exportedAt.toISOString(), account, ...Object.fromEntries(sections) };
  out.personInfo = (out.personInfo as Record<string, unknown>[]).map((row) => ({ ...row, idNumber }));
  return out;
}

/** The schema's tables, for the completeness test. */
export function allTables(): PgTable[] {
  return (Object.values(schema) as unknown[]).filter(
    (t): t is PgTable => typeof t === 'object' && t !== null && Symbol.for('drizzle:IsDrizzleTable') in t,
  );
}
