import { sql } from 'drizzle-orm';
import { check, foreignKey, index, integer, jsonb, pgTable, serial, text, timestamp, unique, uniqueIndex } from 'drizzle-orm/pg-core';
import type { PaymentStart } from '../../../domain/payment-start';
import type { FriendInvitationState } from '../../../../machines/domain/friend-pay-invitation-transitions';
import { OPEN_INVITATION_STATES } from '../../../../machines/domain/friend-pay-invitation-transitions';
import type { PaymentAttemptState } from '../../../../machines/domain/payment-attempt-transitions';
import { OPEN_ATTEMPT_STATES } from '../../../../machines/domain/payment-attempt-transitions';
import type { PaymentPartState } from '../../../../machines/domain/payment-part-transitions';
import type { PaymentStatus } from '../../../../machines/domain/payment-transitions';
import type { RefundState } from '../../../../machines/domain/refund-transitions';
import { STATE_COLUMNS, stateCheck, stateIn } from '../state-checks';
import { accounts } from './auth';
import { orders } from './orders';

/**
 * An order's money (decision 021): money in is a `payments` row against one payment part, money out
 * a `refunds` row against one payment; an order's paid, refunded and outstanding amounts are sums of
 * these rows (services/orders/money.ts), never a column. Money is integer cents.
 */

export type { FriendInvitationState, PaymentAttemptState, PaymentPartState, RefundState };

/** Who pays how much of an order: the balance deduction (seq 0) and its shares (1..; 2-10 when split). */
export const paymentParts = pgTable(
  'payment_parts',
  {
    id: serial('id').primaryKey(),
    orderId: integer('order_id')
      .notNull()
      .references(() => orders.id),
    /** 0 the deduction; 1.. shares in creation order (a replacing part takes the next number) */
    seq: integer('seq').notNull(),
    kind: text('kind').$type<'deduction' | 'share'>().notNull(),
    amountCents: integer('amount_cents').notNull(),
    state: text('state').$type<PaymentPartState>().notNull().default('unpaid'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    settledAt: timestamp('settled_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('payment_parts_order_seq').on(t.orderId, t.seq),
    unique('payment_parts_id_order').on(t.id, t.orderId),
    check('payment_parts_kind_check', sql`${t.kind} in ('deduction', 'share')`),
    check('payment_parts_amount_check', sql`${t.amountCents} > 0`),
    check('payment_parts_deduction_seq_check', sql`(${t.kind} = 'deduction') = (${t.seq} = 0)`),
    stateCheck(STATE_COLUMNS.paymentParts),
  ],
);

/** A link a member shares so that a friend pays one part (open an hour). */
export const friendInvitations = pgTable(
  'friend_invitations',
  {
    id: serial('id').primaryKey(),
    orderId: integer('order_id').notNull(),
    partId: integer('part_id').notNull(),
    /** 128-bit random, base64url; kept as is (the member copies the same link again) */
    token: text('token').notNull(),
    state: text('state').$type<FriendInvitationState>().notNull().default('open'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    endedAt: timestamp('ended_at', { withTimezone: true }),
  },
  (t) => [
    foreignKey({
      name: 'friend_invitations_part_fk',
      columns: [t.partId, t.orderId],
      foreignColumns: [paymentParts.id, paymentParts.orderId],
    }),
    uniqueIndex('friend_invitations_token').on(t.token),
    uniqueIndex('friend_invitations_one_open').on(t.partId).where(stateIn(t.state, OPEN_INVITATION_STATES)),
    uniqueIndex('friend_invitations_one_paid').on(t.partId).where(sql`${t.state} = 'paid'`),
    index('friend_invitations_order').on(t.orderId),
    check('friend_invitations_expiry_check', sql`${t.expiresAt} > ${t.createdAt}`),
    stateCheck(STATE_COLUMNS.friendInvitations),
  ],
);

/**
 * One attempt to collect a part's money at a provider (decision 013): each has its own out_trade_no,
 * `<orderNo>-<n>` (n per order), because a provider's trade is final once failed or closed.
 * Notifications and queries name the out_trade_no; this table maps it back to the part and order.
 */
export const paymentAttempts = pgTable(
  'payment_attempts',
  {
    id: serial('id').primaryKey(),
    orderId: integer('order_id')
      .notNull()
      .references(() => orders.id),
    /** the part this trade collects (its amount is the part's) */
    partId: integer('part_id').notNull(),
    /** 1, 2, … per order */
    seq: integer('seq').notNull(),
    /** what the provider knows the trade by: `<orderNo>-<seq>` (orders paid before attempts existed: the order number) */
    outTradeNo: text('out_trade_no').notNull(),
    provider: text('provider').$type<'wechat' | 'alipay'>().notNull(),
    /** open (sent, not settled) | paid | failed (the provider said so) | closed (we closed it there) */
    state: text('state').$type<PaymentAttemptState>().notNull().default('open'),
    /** the member paying, or (a friend) their open id and what the user-info authorization showed */
    payerAccountId: integer('payer_account_id').references(() => accounts.id),
    payerOpenId: text('payer_open_id'),
    payerNickname: text('payer_nickname'),
    payerAvatar: text('payer_avatar'),
    invitationId: integer('invitation_id').references(() => friendInvitations.id),
    /** what the page needs to pay it (prepay and pay-sign, or the cashier URL), answered again to a second tap */
    start: jsonb('start').$type<PaymentStart>(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    closedAt: timestamp('closed_at', { withTimezone: true }),
  },
  (t) => [
    foreignKey({
      name: 'payment_attempts_part_fk',
      columns: [t.partId, t.orderId],
      foreignColumns: [paymentParts.id, paymentParts.orderId],
    }),
    uniqueIndex('payment_attempts_out_trade_no').on(t.outTradeNo),
    uniqueIndex('payment_attempts_order_seq').on(t.orderId, t.seq),
    // one open trade per part: another method first closes it (decision 013); two parts may be paid at once
    uniqueIndex('payment_attempts_one_open').on(t.partId).where(stateIn(t.state, OPEN_ATTEMPT_STATES)),
    check('payment_attempts_one_payer_check', sql`num_nonnulls(${t.payerAccountId}, ${t.payerOpenId}) = 1`),
    check('payment_attempts_friend_check', sql`(${t.invitationId} is null) = (${t.payerOpenId} is null)`),
    stateCheck(STATE_COLUMNS.paymentAttempts),
  ],
);

/** The balance ledger: every change is a row; the balance is their sum and never below zero. */
export const balanceLedger = pgTable(
  'balance_ledger',
  {
    id: serial('id').primaryKey(),
    accountId: integer('account_id')
      .notNull()
      .references(() => accounts.id),
    changeCents: integer('change_cents').notNull(),
    /** see LEDGER_REASONS (services/orders/balance.ts) */
    reason: text('reason').notNull(),
    orderId: integer('order_id').references(() => orders.id),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    index('balance_ledger_account').on(t.accountId, t.id),
    index('balance_ledger_order').on(t.orderId),
    check('balance_ledger_reason_check', sql`${t.reason} in ('topup', 'grant', 'order', 'split_part', 'cancel', 'refund')`),
  ],
);

/**
 * Money received for a part: a provider's payment (a notification or a query answer; a repeat of the
 * same txn id changes nothing), or the balance (its ledger row). The payer is the attempt's, or the
 * ledger row's account.
 */
export const payments = pgTable(
  'payments',
  {
    id: serial('id').primaryKey(),
    orderId: integer('order_id')
      .notNull()
      .references(() => orders.id),
    partId: integer('part_id').notNull(),
    /** the attempt (out_trade_no) the provider answered about; none for the balance */
    attemptId: integer('attempt_id').references(() => paymentAttempts.id),
    provider: text('provider').$type<'wechat' | 'alipay' | 'balance'>().notNull(),
    /** null for a failure the provider gave no id (WeChat Pay's CLOSED, PAYERROR): such rows are one per attempt */
    providerTxnId: text('provider_txn_id'),
    /** the balance's debit for this payment */
    ledgerId: integer('ledger_id').references(() => balanceLedger.id),
    amountCents: integer('amount_cents').notNull(),
    /** paid | failed | mismatch | needs_refund (money taken for nothing: refunded, decision 021) */
    status: text('status').$type<PaymentStatus>().notNull(),
    /** notify | query | balance */
    source: text('source').$type<'notify' | 'query' | 'balance'>().notNull(),
    raw: jsonb('raw'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    foreignKey({ name: 'payments_part_fk', columns: [t.partId, t.orderId], foreignColumns: [paymentParts.id, paymentParts.orderId] }),
    uniqueIndex('payments_provider_txn').on(t.provider, t.providerTxnId),
    uniqueIndex('payments_ledger').on(t.ledgerId),
    // a failure is recorded once per attempt, with or without a provider id
    uniqueIndex('payments_attempt_failed').on(t.attemptId).where(sql`${t.status} = 'failed'`),
    // one applied payment per part
    uniqueIndex('payments_part_paid').on(t.partId).where(sql`${t.status} = 'paid'`),
    index('payments_order').on(t.orderId),
    check('payments_provider_check', sql`${t.provider} in ('wechat', 'alipay', 'balance')`),
    check('payments_source_check', sql`${t.source} in ('notify', 'query', 'balance')`),
    check('payments_amount_check', sql`${t.amountCents} >= 0`),
    check('payments_balance_ledger_check', sql`(${t.provider} = 'balance') = (${t.ledgerId} is not null)`),
    check(
      'payments_balance_paid_check',
      sql`${t.provider} <> 'balance' or (${t.status} = 'paid' and ${t.attemptId} is null and ${t.providerTxnId} is null)`,
    ),
    stateCheck(STATE_COLUMNS.payments),
  ],
);

/** Money given back of one payment (decision 021): one per (payment, what asked for it). */
export const refunds = pgTable(
  'refunds',
  {
    id: serial('id').primaryKey(),
    paymentId: integer('payment_id')
      .notNull()
      .references(() => payments.id),
    amountCents: integer('amount_cents').notNull(),
    cause: text('cause').$type<RefundCause>().notNull(),
    /** what asked for it: `cancel:<orderId>`, `unsplit:<partId>`, `unwanted:<paymentId>`, `migrated:<paymentId>`, … */
    key: text('key').notNull(),
    state: text('state').$type<RefundState>().notNull().default('pending'),
    tryNo: integer('try_no').notNull().default(1),
    /** `R<id>-<tryNo>`: the provider's out_refund_no (WeChat) / out_request_no (Alipay); none for the balance */
    outRefundNo: text('out_refund_no'),
    /** WeChat Pay's refund_id */
    providerRefundId: text('provider_refund_id'),
    /** the balance credit that returned it */
    ledgerId: integer('ledger_id').references(() => balanceLedger.id),
    /** the provider's code and words when it refused or failed (for staff and the member) */
    failureCode: text('failure_code'),
    failureMessage: text('failure_message'),
    /** the staff member who settled it another way */
    settledBy: integer('settled_by').references(() => accounts.id),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    settledAt: timestamp('settled_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('refunds_payment_key').on(t.paymentId, t.key),
    uniqueIndex('refunds_out_refund_no').on(t.outRefundNo),
    uniqueIndex('refunds_ledger').on(t.ledgerId),
    index('refunds_attention').on(t.state).where(sql`${t.state} in ('held', 'failed')`),
    index('refunds_payment').on(t.paymentId),
    check('refunds_amount_check', sql`${t.amountCents} > 0`),
    check(
      'refunds_cause_check',
      sql`${t.cause} in ('order_cancelled', 'split_undone', 'unwanted_payment', 'amount_mismatch', 'order_refund')`,
    ),
    check('refunds_ledger_or_provider_check', sql`${t.ledgerId} is null or ${t.outRefundNo} is null`),
    stateCheck(STATE_COLUMNS.refunds),
  ],
);

/** Why a refund was asked for. */
export type RefundCause = 'order_cancelled' | 'split_undone' | 'unwanted_payment' | 'amount_mismatch' | 'order_refund';
