import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { AnyStateMachine } from 'xstate';
import { bookingMachine } from '../../machines/domain/booking.machine';
import { cardMachine } from '../../machines/domain/card.machine';
import { storedStates } from '../../machines/domain/chart-states';
import { scheduleClassMachine } from '../../machines/domain/schedule-class.machine';
import { couponMachine } from '../../machines/domain/coupon.machine';
import { orderMachine } from '../../machines/domain/order.machine';
import { friendPayInvitationMachine } from '../../machines/domain/friend-pay-invitation.machine';
import { paymentAttemptMachine } from '../../machines/domain/payment-attempt.machine';
import { paymentPartMachine } from '../../machines/domain/payment-part.machine';
import { paymentMachine } from '../../machines/domain/payment.machine';
import { photoReviewMachine } from '../../machines/domain/photo-review.machine';
import { refundMachine } from '../../machines/domain/refund.machine';
import { scheduleTeacherConfirmationMachine } from '../../machines/domain/schedule-teacher-confirmation.machine';
import { cardTransferApplicationMachine } from '../../machines/domain/card-transfer-application.machine';
import { TRANSFER_STATE_VALUES } from '../../src/domain/card-transfer';
import { CARD_REFUND_STATE_VALUES } from '../../src/domain/card-refund';
import { cardRefundMachine } from '../../machines/domain/card-refund.machine';
import { complaintMachine } from '../../machines/domain/complaint.machine';
import { COMPLAINT_STATE_VALUES } from '../../src/domain/complaint';
import { invoiceMachine } from '../../machines/domain/invoice.machine';
import { INVOICE_STATE_VALUES } from '../../src/domain/invoice';
import { ACCOUNT_CLOSING_STATE_VALUES } from '../../src/domain/account-closing';
import { accountClosingMachine } from '../../machines/domain/account-closing.machine';
import { BOOKING_ROW_STATES, CARD_STATUSES } from '../../src/domain/booking-rules';
import { ORDER_STATES, PAYMENT_PART_STATE_VALUES, REFUND_STATE_VALUES } from '../../src/domain/orders';
import { PHOTO_REVIEW_STATES } from '../../src/domain/photo-review';
import { TEACHER_REQUEST_STATES } from '../../src/domain/binding';
import { bindingTeacherRequestMachine } from '../../machines/domain/binding-teacher-request.machine';
import { TEACHER_SCHEDULE_STATE_VALUES } from '../../src/domain/teacher-schedule';
import { COUPON_STATES } from '../../src/domain/pricing';
import { STATE_COLUMNS, stateCheckName } from '../../src/server/db/state-checks';
import { startTestServer } from './support/harness';

/**
 * Every stored state column has a CHECK constraint listing exactly its chart's states (decision
 * 017). The constraints are read back from the migrated database (pg_constraint), so a chart
 * changed without a migration, or a migration edited by hand, fails here. The state lists the API
 * declares (src/domain) must be the chart's too.
 */
const s = await startTestServer({ seed: true });

const CHARTS: Record<string, AnyStateMachine> = {
  order: orderMachine,
  'payment-attempt': paymentAttemptMachine,
  payment: paymentMachine,
  'payment-part': paymentPartMachine,
  refund: refundMachine,
  'friend-invitation': friendPayInvitationMachine,
  coupon: couponMachine,
  card: cardMachine,
  booking: bookingMachine,
  class: scheduleClassMachine,
  'photo-review': photoReviewMachine,
  'teacher-request': bindingTeacherRequestMachine,
  transfer: cardTransferApplicationMachine,
  'teacher-schedule': scheduleTeacherConfirmationMachine,
  'card-refund': cardRefundMachine,
  complaint: complaintMachine,
  invoice: invoiceMachine,
  'account-closing': accountClosingMachine,
};

/** The values a state column's CHECK constraint admits, as the database holds it. */
async function checkValues(table: string, name: string): Promise<string[] | undefined> {
  const r = await s.deps.db.execute(sql`
    select pg_get_constraintdef(c.oid) as def
    from pg_constraint c join pg_class t on t.oid = c.conrelid
    where t.relname = ${table} and c.conname = ${name} and c.contype = 'c'`);
  const rows = (Array.isArray(r) ? r : (r as { rows: unknown[] }).rows) as Array<{ def: string }>;
  if (rows.length === 0) return undefined;
  return [...rows[0]!.def.matchAll(/'([^']*)'/g)].map((m) => m[1]!).sort();
}

/** Every text column named state or status in the database: each must be in STATE_COLUMNS, or known not to be a lifecycle. */
const NOT_LIFECYCLES = new Set([
  // the payment stand-ins' own ledger: the simulated providers' trade states (WeChat's and Alipay's names), not ours
  'pay_standin_orders.state',
  // and their refunds (WeChat SUCCESS/PROCESSING/CLOSED/ABNORMAL, Alipay REFUND_SUCCESS)
  'pay_standin_refunds.state',
]);

describe('state columns and their charts', () => {
  it.each(Object.values(STATE_COLUMNS).map((c) => [`${c.table}.${c.column}`, c] as const))(
    "%s has a CHECK with exactly its chart's states",
    async (_, c) => {
      const chart = CHARTS[c.chart];
      expect(chart, `chart ${c.chart}`).toBeDefined();
      expect(await checkValues(c.table, stateCheckName(c))).toEqual([...storedStates(chart!)].sort());
    },
  );

  it("every text state or status column is a chart's", async () => {
    const r = await s.deps.db.execute(sql`
      select table_name, column_name from information_schema.columns
      where table_schema = 'public' and column_name in ('state', 'status') and data_type = 'text'`);
    const rows = (Array.isArray(r) ? r : (r as { rows: unknown[] }).rows) as Array<{ table_name: string; column_name: string }>;
    const known = new Set(Object.values(STATE_COLUMNS).map((c) => `${c.table}.${c.column}`));
    expect(rows.map((x) => `${x.table_name}.${x.column_name}`).filter((n) => !known.has(n) && !NOT_LIFECYCLES.has(n))).toEqual([]);
  });

  it('the database refuses a state its chart does not have', async () => {
    const insert = (status: string) =>
      s.deps.db.execute(sql`insert into classes (club_id, room, teacher_id, class_type, style, effect, difficulty, title, starts_at, duration_min, capacity, status, created_at)
        values (1, 'x', 1, 'regular', 'hatha', 'flexibility', 'beginner', 'x', now(), 60, 1, ${status}, now())`);
    const refused = await insert('postponed').then(
      () => 'accepted',
      // PGlite names it `constraint`, postgres.js `constraint_name`
      (err: Error) => {
        const cause = err.cause as { constraint?: string; constraint_name?: string } | undefined;
        return cause?.constraint ?? cause?.constraint_name;
      },
    );
    expect(refused).toBe('classes_status_check');
    await expect(insert('open'), 'the same row with a state of the chart').resolves.toBeDefined();
  });

  it("the state lists the API declares are the charts'", () => {
    const sorted = (xs: readonly string[]) => [...xs].sort();
    expect(sorted(ORDER_STATES)).toEqual(sorted(storedStates(orderMachine)));
    expect(sorted(PAYMENT_PART_STATE_VALUES)).toEqual(sorted(storedStates(paymentPartMachine)));
    expect(sorted(REFUND_STATE_VALUES)).toEqual(sorted(storedStates(refundMachine)));
    expect(sorted(CARD_STATUSES)).toEqual(sorted(storedStates(cardMachine)));
    expect(sorted(BOOKING_ROW_STATES)).toEqual(sorted(storedStates(bookingMachine)));
    expect(sorted(PHOTO_REVIEW_STATES)).toEqual(sorted(storedStates(photoReviewMachine)));
    expect(sorted(TEACHER_SCHEDULE_STATE_VALUES)).toEqual(sorted(storedStates(scheduleTeacherConfirmationMachine)));
    expect(sorted(COUPON_STATES)).toEqual(sorted(storedStates(couponMachine)));
    expect(sorted(TRANSFER_STATE_VALUES)).toEqual(sorted(storedStates(cardTransferApplicationMachine)));
    expect(sorted(TEACHER_REQUEST_STATES)).toEqual(sorted(storedStates(bindingTeacherRequestMachine)));
    expect(sorted(CARD_REFUND_STATE_VALUES)).toEqual(sorted(storedStates(cardRefundMachine)));
    expect(sorted(COMPLAINT_STATE_VALUES)).toEqual(sorted(storedStates(complaintMachine)));
    expect(sorted(INVOICE_STATE_VALUES)).toEqual(sorted(storedStates(invoiceMachine)));
    expect(sorted(ACCOUNT_CLOSING_STATE_VALUES)).toEqual(sorted(storedStates(accountClosingMachine)));
  });
});
