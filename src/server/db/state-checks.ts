import { CARD_REFUND_STATES } from '../../../machines/domain/card-refund-transitions';
import { sql, type AnyColumn, type SQL } from 'drizzle-orm';
import { check } from 'drizzle-orm/pg-core';
import { BOOKING_STORED_STATES } from '../../../machines/domain/booking-transitions';
import { CARD_STORED_STATUSES } from '../../../machines/domain/card-transitions';
import { stateCheckSql } from '../../../machines/domain/chart-states';
import { CLASS_STATUSES } from '../../../machines/domain/schedule-class-transitions';
import { COUPON_STORED_STATES } from '../../../machines/domain/coupon-transitions';
import { ORDER_STORED_STATES } from '../../../machines/domain/order-transitions';
import { FRIEND_INVITATION_STATES } from '../../../machines/domain/friend-pay-invitation-transitions';
import { PAYMENT_ATTEMPT_STATES } from '../../../machines/domain/payment-attempt-transitions';
import { PAYMENT_PART_STATES } from '../../../machines/domain/payment-part-transitions';
import { PAYMENT_STATUSES } from '../../../machines/domain/payment-transitions';
import { PHOTO_STORED_STATES } from '../../../machines/domain/photo-review-transitions';
import { REFUND_STATES } from '../../../machines/domain/refund-transitions';
import { TEACHER_REQUEST_STORED_STATES } from '../../../machines/domain/binding-teacher-request-transitions';
import { TEACHER_SCHEDULE_STATES } from '../../../machines/domain/schedule-teacher-confirmation-transitions';
import { TRANSFER_STATES } from '../../../machines/domain/card-transfer-application-transitions';
import { COMPLAINT_STATES } from '../../../machines/domain/complaint-transitions';
import { INVOICE_STATES } from '../../../machines/domain/invoice-transitions';
import { ACCOUNT_CLOSING_STATES } from '../../../machines/domain/account-closing-transitions';

/**
 * Every stored state column and the chart whose states it may hold (decision 017). The
 * schema gives each a CHECK constraint built from this list, so `npm run db:generate` writes the
 * chart's states into the migration; test/server/state-checks.test.ts reads the constraints back
 * from the database and compares them with the charts.
 */
export interface StateColumn {
  table: string;
  column: string;
  /** the chart (machines/domain/<chart>.machine.ts) */
  chart: string;
  states: readonly string[];
}

const col = (table: string, column: string, chart: string, states: readonly string[]): StateColumn => ({ table, column, chart, states });

export const STATE_COLUMNS = {
  orders: col('orders', 'state', 'order', ORDER_STORED_STATES),
  paymentAttempts: col('payment_attempts', 'state', 'payment-attempt', PAYMENT_ATTEMPT_STATES),
  payments: col('payments', 'status', 'payment', PAYMENT_STATUSES),
  paymentParts: col('payment_parts', 'state', 'payment-part', PAYMENT_PART_STATES),
  refunds: col('refunds', 'state', 'refund', REFUND_STATES),
  friendInvitations: col('friend_invitations', 'state', 'friend-invitation', FRIEND_INVITATION_STATES),
  memberCoupons: col('member_coupons', 'state', 'coupon', COUPON_STORED_STATES),
  memberCards: col('member_cards', 'status', 'card', CARD_STORED_STATUSES),
  bookings: col('bookings', 'state', 'booking', BOOKING_STORED_STATES),
  classes: col('classes', 'status', 'class', CLASS_STATUSES),
  classTeachers: col('classes', 'teacher_state', 'teacher-schedule', TEACHER_SCHEDULE_STATES),
  memberPhotos: col('member_photos', 'state', 'photo-review', PHOTO_STORED_STATES),
  cardTransfers: col('card_transfers', 'state', 'transfer', TRANSFER_STATES),
  teacherRequests: col('teacher_requests', 'state', 'teacher-request', TEACHER_REQUEST_STORED_STATES),
  cardRefunds: col('card_refunds', 'state', 'card-refund', CARD_REFUND_STATES),
  complaints: col('complaints', 'state', 'complaint', COMPLAINT_STATES),
  invoices: col('invoices', 'state', 'invoice', INVOICE_STATES),
  accountClosings: col('account_closings', 'state', 'account-closing', ACCOUNT_CLOSING_STATES),
} satisfies Record<string, StateColumn>;

/** The constraint's name: `<table>_<column>_check`. */
export const stateCheckName = (c: StateColumn): string => `${c.table}_${c.column}_check`;

/** `column = 'a'` or `column in ('a', 'b')`: a partial index's or a filter's list of a chart's states, as SQL. */
export function stateIn(column: AnyColumn, states: readonly string[]): SQL {
  const list = stateCheckSql('x', states).slice('"x" in '.length);
  return states.length === 1 ? sql`${column} = ${sql.raw(list.slice(1, -1))}` : sql`${column} in ${sql.raw(list)}`;
}

/** The CHECK constraint of a state column, for the table's definition in the schema. */
export const stateCheck = (c: StateColumn) => check(stateCheckName(c), sql.raw(stateCheckSql(c.column, c.states)));
