import { sql } from 'drizzle-orm';
import { check, customType, index, integer, pgTable, primaryKey, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import type { InvoiceState } from '../../../../machines/domain/invoice-transitions';
import { STATE_COLUMNS, stateCheck, stateIn } from '../state-checks';
import { accounts } from './auth';
import { clubs } from './catalog';
import { orders } from './orders';

/** PostgreSQL bytea as a Node Buffer (PGlite and postgres.js both hand back bytes). */
const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (v) => (Buffer.isBuffer(v) ? v : Buffer.from(v)),
});

/**
 * A member's invoice request (spec §3, §5; decision 044), moved by the invoice chart
 * (machines/domain/invoice.machine.ts): requested → issued (number and PDF written) | refused (with a
 * reason); issued → voided when one of its orders is refunded. The PDF's bytes live here (the default
 * storage adapter is PostgreSQL). `club_id` is the club of its orders' goods when they share one
 * (that club's staff issue it), null otherwise (any staff).
 */
export const invoices = pgTable(
  'invoices',
  {
    id: serial('id').primaryKey(),
    accountId: integer('account_id')
      .notNull()
      .references(() => accounts.id),
    clubId: integer('club_id').references(() => clubs.id),
    state: text('state').$type<InvoiceState>().notNull().default('requested'),
    title: text('title').notNull(),
    taxNumber: text('tax_number').notNull(),
    address: text('address').notNull(),
    phone: text('phone'),
    bankName: text('bank_name'),
    bankAccount: text('bank_account'),
    totalCents: integer('total_cents').notNull(),
    /** FP + Shanghai issue date + id (decision 044), set when issued */
    number: text('number'),
    pdf: bytea('pdf'),
    reason: text('reason'),
    decidedBy: integer('decided_by').references(() => accounts.id),
    decidedAt: timestamp('decided_at', { withTimezone: true }),
    voidedAt: timestamp('voided_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    index('invoices_account').on(t.accountId, t.id),
    index('invoices_requested')
      .on(t.id)
      .where(stateIn(t.state, ['requested'])),
    uniqueIndex('invoices_number').on(t.number),
    check('invoices_issued_kept', sql`(${t.state} in ('issued', 'voided')) = (${t.number} is not null and ${t.pdf} is not null)`),
    check('invoices_reason_kept', sql`(${t.state} = 'refused') = (${t.reason} is not null)`),
    check('invoices_total', sql`${t.totalCents} >= 0`),
    stateCheck(STATE_COLUMNS.invoices),
  ],
);

/**
 * The orders of an invoice request, with the amount each adds. An order is held by at most one live
 * request (the partial unique index): a refused request releases its orders (`released_at`), so they
 * may be asked for again; an issued or voided one never does.
 */
export const invoiceOrders = pgTable(
  'invoice_orders',
  {
    invoiceId: integer('invoice_id')
      .notNull()
      .references(() => invoices.id),
    orderId: integer('order_id')
      .notNull()
      .references(() => orders.id),
    amountCents: integer('amount_cents').notNull(),
    releasedAt: timestamp('released_at', { withTimezone: true }),
  },
  (t) => [
    primaryKey({ columns: [t.invoiceId, t.orderId] }),
    uniqueIndex('invoice_orders_held').on(t.orderId).where(sql`${t.releasedAt} is null`),
  ],
);
