import { and, desc, eq, inArray, ne, notInArray, sql } from 'drizzle-orm';
import type { Clock } from '../../../domain/clock';
import type { Db, Tx } from '../../db/client';
import { payStandInOrders, payStandInRefunds } from '../../db/schema/index';
import type { StandInOrder } from './standin-common';

/**
 * The refunds the payment stand-ins were asked for (`pay_standin_refunds`), shared by the WeChat Pay and
 * Alipay stand-ins: one refund per out_refund_no (asked again, the same refund), never more than the
 * trade took summed over its refunds, and what a test arranged for a trade's next refund.
 */
export type StandInRefund = typeof payStandInRefunds.$inferSelect;

/**
 * What a test asks of a trade's next refund (`POST …/refunds/arrange`), kept as a row of its own
 * (state `ARRANGED`, out_refund_no `next:<out_trade_no>`: no provider allows a colon in a refund
 * number) and taken by the next new refund of that trade, so any process of the demo sees it.
 */
export interface RefundArrangement {
  /** the provider's state the refund takes at once (default: succeeded) */
  status?: string;
  /** refuse the request with this provider code instead (nothing recorded) */
  refuse?: string;
  /** notifications sent when the refund settles (default 1) */
  deliveries?: number;
  /** how to spoil them */
  tamper?: string;
  /** date them this far back */
  ageSeconds?: number;
}

export const ARRANGED = 'ARRANGED';
const arrangementNo = (outTradeNo: string) => `next:${outTradeNo}`;

/** Stores (or replaces) the arrangement for a trade's next refund. */
export async function arrangeRefund(
  db: Db,
  clock: Clock,
  at: { provider: string; merchantId: string; outTradeNo: string },
  arrangement: RefundArrangement,
): Promise<void> {
  const simulate = JSON.stringify(arrangement);
  await db
    .insert(payStandInRefunds)
    .values({
      ...at,
      outRefundNo: arrangementNo(at.outTradeNo),
      refundId: '',
      amountCents: 0,
      totalCents: 0,
      state: ARRANGED,
      simulate,
      createdAt: clock.now(),
    })
    .onConflictDoUpdate({
      target: [payStandInRefunds.provider, payStandInRefunds.merchantId, payStandInRefunds.outRefundNo],
      set: { simulate },
    });
}

/** A refund by its number (never an arrangement). */
export async function findRefund(
  db: Db | Tx,
  provider: string,
  merchantId: string,
  outRefundNo: string,
): Promise<StandInRefund | undefined> {
  const [row] = await db
    .select()
    .from(payStandInRefunds)
    .where(
      and(
        eq(payStandInRefunds.provider, provider),
        eq(payStandInRefunds.merchantId, merchantId),
        eq(payStandInRefunds.outRefundNo, outRefundNo),
      ),
    )
    .limit(1);
  return row && row.state !== ARRANGED ? row : undefined;
}

/** The out_refund_no of a trade's latest refund (never an arrangement), for a test that knows only the trade. */
export async function latestRefundNo(db: Db | Tx, provider: string, merchantId: string, outTradeNo: string): Promise<string | undefined> {
  const [row] = await db
    .select({ outRefundNo: payStandInRefunds.outRefundNo })
    .from(payStandInRefunds)
    .where(
      and(
        eq(payStandInRefunds.provider, provider),
        eq(payStandInRefunds.merchantId, merchantId),
        eq(payStandInRefunds.outTradeNo, outTradeNo),
        ne(payStandInRefunds.state, ARRANGED),
      ),
    )
    .orderBy(desc(payStandInRefunds.id))
    .limit(1);
  return row?.outRefundNo;
}

/** The arrangement a refund was made with (empty when none). */
export function arrangementOf(row: Pick<StandInRefund, 'simulate'>): RefundArrangement {
  try {
    const v = JSON.parse(row.simulate ?? '{}') as unknown;
    return v && typeof v === 'object' ? (v as RefundArrangement) : {};
  } catch {
    return {};
  }
}

/** What the trade's refunds in the given states add up to. */
export async function refundedCents(db: Db, trade: StandInOrder, states: string[]): Promise<number> {
  const [r] = await db
    .select({ cents: sql<string | null>`sum(${payStandInRefunds.amountCents})` })
    .from(payStandInRefunds)
    .where(
      and(
        eq(payStandInRefunds.provider, trade.provider),
        eq(payStandInRefunds.merchantId, trade.merchantId),
        eq(payStandInRefunds.outTradeNo, trade.outTradeNo),
        inArray(payStandInRefunds.state, states),
      ),
    );
  return Number(r?.cents ?? 0);
}

export type AskRefundOutcome =
  | { kind: 'existing'; row: StandInRefund }
  | { kind: 'over'; refundableCents: number }
  | { kind: 'refused'; code: string }
  | { kind: 'created'; row: StandInRefund; arrangement: RefundArrangement };

/**
 * A refund of a paid trade, asked for by its number, under the trade's row lock so that two refunds at
 * once cannot together take more than the trade's total: the same number again is the existing refund;
 * more than is left (refunds in `uncounted` states gave their money back) is `over`; else the trade's
 * arrangement, if any, is taken: a refusal (nothing recorded), or the state the refund starts in.
 */
export async function askRefund(
  db: Db,
  clock: Clock,
  trade: StandInOrder,
  ask: { outRefundNo: string; amountCents: number; reason?: string; notifyUrl?: string; refundId: string },
  states: { initial: (arrangement: RefundArrangement) => string; success: string; uncounted: string[] },
): Promise<AskRefundOutcome> {
  return db.transaction(async (tx) => {
    await tx.select({ id: payStandInOrders.id }).from(payStandInOrders).where(eq(payStandInOrders.id, trade.id)).for('update');
    const existing = await findRefund(tx, trade.provider, trade.merchantId, ask.outRefundNo);
    if (existing) return { kind: 'existing', row: existing };
    const [taken] = await tx
      .select({ cents: sql<string | null>`sum(${payStandInRefunds.amountCents})` })
      .from(payStandInRefunds)
      .where(
        and(
          eq(payStandInRefunds.provider, trade.provider),
          eq(payStandInRefunds.merchantId, trade.merchantId),
          eq(payStandInRefunds.outTradeNo, trade.outTradeNo),
          notInArray(payStandInRefunds.state, [ARRANGED, ...states.uncounted]),
        ),
      );
    const refundableCents = trade.amountCents - Number(taken?.cents ?? 0);
    if (ask.amountCents > refundableCents) return { kind: 'over', refundableCents };
    const [arranged] = await tx
      .delete(payStandInRefunds)
      .where(
        and(
          eq(payStandInRefunds.provider, trade.provider),
          eq(payStandInRefunds.merchantId, trade.merchantId),
          eq(payStandInRefunds.outRefundNo, arrangementNo(trade.outTradeNo)),
        ),
      )
      .returning();
    const arrangement = arranged ? arrangementOf(arranged) : {};
    if (arrangement.refuse) return { kind: 'refused', code: arrangement.refuse };
    const state = states.initial(arrangement);
    const now = clock.now();
    const [row] = await tx
      .insert(payStandInRefunds)
      .values({
        provider: trade.provider,
        merchantId: trade.merchantId,
        outTradeNo: trade.outTradeNo,
        outRefundNo: ask.outRefundNo,
        refundId: ask.refundId,
        amountCents: ask.amountCents,
        totalCents: trade.amountCents,
        reason: ask.reason ?? null,
        notifyUrl: ask.notifyUrl ?? null,
        state,
        simulate: arranged?.simulate ?? null,
        createdAt: now,
        succeededAt: state === states.success ? now : null,
      })
      .returning();
    return { kind: 'created', row: row!, arrangement };
  });
}

/** Moves a refund from one of `from` to `to` (a test settling a processing refund); the row after, or undefined when its state did not allow it. */
export async function settleStandInRefund(
  db: Db,
  clock: Clock,
  id: number,
  from: string[],
  to: string,
  success: string,
): Promise<StandInRefund | undefined> {
  const [row] = await db
    .update(payStandInRefunds)
    .set({ state: to, ...(to === success ? { succeededAt: clock.now() } : {}) })
    .where(and(eq(payStandInRefunds.id, id), inArray(payStandInRefunds.state, from)))
    .returning();
  return row;
}
