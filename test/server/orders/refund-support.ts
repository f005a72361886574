import { and, eq, inArray, isNull, lte, ne, sql } from 'drizzle-orm';
import { expect } from 'vitest';
import { ORDER_PAY_WITHIN_MS } from '../../../src/domain/pricing';
import { jobs, payments, payStandInOrders, payStandInRefunds, refunds } from '../../../src/server/db/schema/index';
import { alipayNotification } from '../../../src/server/gateways/payments/alipay-standin';
import { ARRANGED } from '../../../src/server/gateways/payments/standin-refunds';
import { wechatNotification } from '../../../src/server/gateways/payments/wechat-standin';
import { PaymentProviderError, type PaymentGateway } from '../../../src/server/gateways/payments/types';
import { completeJob, failJob } from '../../../src/server/jobs/queue';
import { jobHandlers, runDueJobs } from '../../../src/server/jobs/runner';
import { REFUND_RUN_JOB } from '../../../src/server/services/refunds/request';
import { REFUND_QUERY_JOB } from '../../../src/server/services/refunds/run';
import { runOrderExpiry } from '../../../src/server/services/orders/expiry';
import type { TestServer } from '../support/harness';
import { create, newGoods, newMember, orderRow, pay } from './support';

/**
 * Provider refunds in tests (decision 021): money that arrived for an order that no longer takes it
 * (so one refund of it, to its payer), the payment stand-ins' refund controls, and the refund's jobs.
 * Shared by test/server/orders/refunds.test.ts and the refund chart's server paths.
 */

export type RefundProvider = 'wechat' | 'alipay';

/** A payment stand-in's dev endpoint (`/api/dev/pay/<provider><path>`). */
export const dev = (s: TestServer, provider: RefundProvider, path: string, body: Record<string, unknown>) =>
  s.call('POST', `/api/dev/pay/${provider}${path}`, { body });

export const refundRow = async (s: TestServer, id: number) => (await s.deps.db.select().from(refunds).where(eq(refunds.id, id)))[0]!;

/** The jobs of a kind not done yet (any record's). */
export const pendingJobs = async (s: TestServer, kind: string) =>
  s.deps.db
    .select()
    .from(jobs)
    .where(and(eq(jobs.kind, kind), isNull(jobs.doneAt)));

/** Runs the due jobs until none is left (earlier tests leave theirs due too). */
export async function allDueJobs(s: TestServer): Promise<void> {
  while ((await runDueJobs(s.deps)) > 0);
}

/**
 * Money the provider took for an order that no longer takes it, so refunded to its payer: the member
 * paid at the provider just before the order expired, the expiry could not reach the provider (so
 * it closed the trade here and cancelled the order), then the provider's notification came. What
 * the stand-in does with the refund is arranged first (`/refunds/arrange`); the refund is asked for
 * by the notification and run once right after it.
 */
export async function lateMoney(s: TestServer, provider: RefundProvider, arrangement: Record<string, unknown> = {}) {
  const m = await newMember(s);
  const g = await newGoods(s);
  const no = (await create(s, m.token, { goodsId: g.id })).body.data.orderNo as string;
  const started = await pay(s, m.token, no, provider);
  const outTradeNo = `${no}-1`;
  if (provider === 'wechat')
    await dev(s, 'wechat', '/simulate', { prepayId: started.body.data.payment.prepayId, outcome: 'pay', deliveries: 0 });
  else {
    expect((await s.app.request(started.body.data.payment.url)).status).toBe(200);
    await dev(s, 'alipay', '/simulate', { outTradeNo, outcome: 'pay', deliveries: 0 });
  }
  const gw = s.deps.gateways.payments[provider] as PaymentGateway;
  const saved = { queryOrder: gw.queryOrder, close: gw.close };
  const down = async () => Promise.reject(new PaymentProviderError(provider, 'NETWORK', 'unreachable'));
  gw.queryOrder = down;
  gw.close = down;
  s.clock.advance(ORDER_PAY_WITHIN_MS);
  await runOrderExpiry(s.deps, { orderNo: no });
  Object.assign(gw, saved);
  const o = await orderRow(s, no);
  expect(o.state).toBe('cancelled');
  expect((await dev(s, provider, '/refunds/arrange', { outTradeNo, ...arrangement })).status).toBe(200);
  const [trade] = await s.deps.db.select().from(payStandInOrders).where(eq(payStandInOrders.outTradeNo, outTradeNo));
  if (provider === 'wechat') {
    const n = wechatNotification(trade!, s.deps.gateways.payments.standIn!.wechat, Math.floor(s.clock.now().getTime() / 1000));
    expect((await s.app.request('/api/pay/notify/wechat', { method: 'POST', headers: n.headers, body: n.body })).status).toBe(204);
  } else {
    const body = alipayNotification(trade!, s.deps.gateways.payments.standIn!.alipay, s.clock.now());
    expect(
      await (
        await s.app.request('/api/pay/notify/alipay', {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body,
        })
      ).text(),
    ).toBe('success');
  }
  const [p] = await s.deps.db.select().from(payments).where(eq(payments.orderId, o.id));
  expect(p).toMatchObject({ status: 'needs_refund', provider, amountCents: o.amountToPayCents });
  const [r] = await s.deps.db.select().from(refunds).where(eq(refunds.paymentId, p!.id));
  expect(r).toMatchObject({ amountCents: p!.amountCents, cause: 'unwanted_payment', key: `unwanted:${p!.id}` });
  const standIn = () => standInRefunds(s, outTradeNo);
  return { o, p: p!, refundId: r!.id, outTradeNo, standIn, token: m.token, accountId: m.id };
}

/** The refunds a payment stand-in holds for a trade, oldest first (not what a test arranged for its next one). */
export const standInRefunds = (s: TestServer, outTradeNo: string) =>
  s.deps.db
    .select()
    .from(payStandInRefunds)
    .where(and(eq(payStandInRefunds.outTradeNo, outTradeNo), ne(payStandInRefunds.state, ARRANGED)))
    .orderBy(payStandInRefunds.id);

/** A refund's jobs (`refund.run`, `refund.query`) not done yet, soonest first. */
export const openRefundJobs = (s: TestServer, refundId: number) =>
  s.deps.db
    .select()
    .from(jobs)
    .where(
      and(
        isNull(jobs.doneAt),
        inArray(jobs.kind, [REFUND_RUN_JOB, REFUND_QUERY_JOB]),
        sql`(${jobs.payload} ->> 'refundId')::int = ${refundId}`,
      ),
    )
    .orderBy(jobs.runAt, jobs.id);

/**
 * Runs a refund's jobs that are due, once each, as the runner runs a due job (its handler, then done,
 * or given back with the runner's backoff). Only this refund's: a file's server holds many records'
 * jobs, and a job a run queues (WeChat CLOSED asks again at once) waits for the next call.
 */
export async function runRefundJobs(s: TestServer, refundId: number): Promise<number> {
  const due = (await openRefundJobs(s, refundId)).filter(
    (j) => j.runAt <= s.clock.now() && (!j.lockedUntil || j.lockedUntil <= s.clock.now()),
  );
  for (const job of due) {
    await s.deps.db
      .update(jobs)
      .set({ attempts: sql`${jobs.attempts} + 1` })
      .where(and(eq(jobs.id, job.id), lte(jobs.runAt, s.clock.now())));
    const claimed = { id: job.id, kind: job.kind, payload: job.payload, attempts: job.attempts + 1 };
    try {
      await jobHandlers[job.kind]!(s.deps, job.payload);
      await completeJob(s.deps.db, s.deps.clock, job.id);
    } catch (err) {
      await failJob(s.deps.db, s.deps.clock, claimed, err instanceof Error ? err.message : String(err));
    }
  }
  return due.length;
}
