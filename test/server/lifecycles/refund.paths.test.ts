import { eq, inArray } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { refundMachine } from '../../../machines/domain/refund.machine';
import type { OrderDetail } from '../../../src/contracts/orders';
import type { StaffRefund } from '../../../src/contracts/refunds';
import { jobs, payStandInOrders, refunds } from '../../../src/server/db/schema/index';
import { alipayTimestamp, centsToYuan } from '../../../src/server/gateways/payments/alipay-rsa2';
import { alipayNotification } from '../../../src/server/gateways/payments/alipay-standin';
import type { StandInRefund } from '../../../src/server/gateways/payments/standin-refunds';
import { wechatRefundNotification } from '../../../src/server/gateways/payments/wechat-standin-refunds';
import { jobHandlers } from '../../../src/server/jobs/runner';
import { orderMoney } from '../../../src/server/services/orders/money';
import { REFUND_RUN_AFTER_MS, REFUND_RUN_JOB } from '../../../src/server/services/refunds/request';
import { REFUND_QUERY_JOB, REFUND_RETRY_EVERY_MS } from '../../../src/server/services/refunds/run';
import { dev, lateMoney, openRefundJobs, refundRow, runRefundJobs, standInRefunds, type RefundProvider } from '../orders/refund-support';
import { newStaff, orderRow } from '../orders/support';
import { startTestServer } from '../support/harness';
import { assertMoneyInvariants } from '../support/money-invariants';
import { accepted, defineServerPaths, type ServerPathSpec } from '../support/server-paths';

/**
 * The refund chart (decision 021) against the server: one provider refund of money that arrived for an
 * order already cancelled (`lateMoney`), asked of the payment stand-ins, which answer as arranged per
 * trade. Each event is what causes it: the refund job's ask answered PROCESSING (accepted), SUCCESS,
 * ABNORMAL or a business refusal (failed), CLOSED (asked again under the next number); the provider's
 * signed notification or the refund query (succeeded, failed, closed); the hourly retry job; staff's
 * release and settle (POST /api/staff/refunds/release|settle). Each state is read back from the
 * refunds table and the member's order detail, with what it promises at the stand-in, in the order's
 * money sums, in staff's attention list and in the refund's jobs.
 *
 * Three worlds, because how a refund fails decides what can follow:
 * - `wechat`: WeChat Pay, whose failure is ABNORMAL (answered at once, or notified of an accepted
 *   refund). An abnormal refund is only asked about hourly: its provider may still pay it out (failed
 *   → succeeded), but it is never asked again (no failed → retry; the hourly query is not a retry).
 * - `alipay`: Alipay, whose failure is a business refusal (ACQ.SELLER_BALANCE_NOT_ENOUGH), recorded
 *   nothing at the provider, so it is asked again hourly (failed → retry) and nothing can pay it out
 *   meanwhile (no failed → succeeded). Alipay never closes a refund and never fails one it accepted.
 * - `held`: a refund migration 0018 held for staff (money staff were told to refund by hand before
 *   refunds existed). The chart has no way into `held`; the walk starts there (`startIn`), with what
 *   staff do with it. What follows a release is the other worlds' walk.
 * A refund starts `pending` as the server leaves it when the provider cannot be reached at the first ask
 * (the stand-in arranged to answer SYSTEM_ERROR): under its number, its job due in a minute.
 */
const s = await startTestServer({ seed: true });

type World = 'wechat' | 'alipay' | 'held';

interface Refund {
  world: World;
  provider: RefundProvider;
  token: string;
  orderNo: string;
  orderId: number;
  refundId: number;
  amountCents: number;
  outTradeNo: string;
  staff: { id: number; token: string };
  /** staff's requests and their answers: 200 where the chart allows the move, 40023 where it does not */
  staffAnswers: Array<{ action: 'release' | 'settle'; from: string; code: number }>;
  /** requests sent (each staff request its own Idempotency-Key: a new request, never a replay) */
  sent: number;
}

/** Answers the stand-ins' next new refund of a trade gives, per provider. */
const TRANSIENT = { wechat: { refuse: 'SYSTEM_ERROR' }, alipay: { refuse: 'ACQ.SYSTEM_ERROR' } } as const;
const FAILURE = { wechat: { status: 'abnormal', deliveries: 0 }, alipay: { refuse: 'ACQ.SELLER_BALANCE_NOT_ENOUGH' } } as const;
/** The stand-ins' refund states (WeChat Pay's and Alipay's own words). */
const PAID_OUT = { wechat: 'SUCCESS', alipay: 'REFUND_SUCCESS' } as const;

const arrange = async (w: Refund, arrangement: Record<string, unknown>) =>
  accepted(await dev(s, w.provider, '/refunds/arrange', { outTradeNo: w.outTradeNo, ...arrangement }), 'arrange');
const numberOf = (r: { id: number; tryNo: number; outRefundNo: string | null }) => r.outRefundNo ?? `R${r.id}-${r.tryNo}`;

/** Time passes until the refund's next job of `kind` is due (never back), and its due jobs run. */
async function untilJob(w: Refund, kind: string) {
  const next = (await openRefundJobs(s, w.refundId)).find((j) => j.kind === kind);
  if (next && next.runAt > s.clock.now()) s.clock.set(next.runAt);
  await runRefundJobs(s, w.refundId);
}
/** Time passes (an hour: past any job a refund may have), and its due jobs run. */
async function anHourLater(w: Refund) {
  s.clock.advance(REFUND_RETRY_EVERY_MS);
  await runRefundJobs(s, w.refundId);
}
/** The refund job asks the provider now, which answers as arranged. */
async function ask(w: Refund, arrangement: Record<string, unknown>) {
  await arrange(w, arrangement);
  await untilJob(w, REFUND_RUN_JOB);
}
/** The stand-in settles the refund it holds under the refund's number (processing, or WeChat's abnormal) and notifies. */
async function finish(w: Refund, outcome: 'success' | 'abnormal' | 'closed', deliveries = 1) {
  const outRefundNo = numberOf(await refundRow(s, w.refundId));
  accepted(
    await dev(
      s,
      w.provider,
      '/refunds/simulate',
      w.provider === 'wechat' ? { outRefundNo, outcome, deliveries } : { outRefundNo, deliveries },
    ),
    `the stand-in's refund ${outcome}`,
  );
}

/**
 * A notification of the refund's number the stand-in did not send but the provider could (late, or for
 * a refund the stand-in never holds), signed with its keys: WeChat Pay's REFUND.<state>; Alipay's
 * trade notification naming the refund (which has the server ask the stand-in how it ended).
 */
async function notifyAs(w: Refund, state: 'SUCCESS' | 'ABNORMAL' | 'CLOSED') {
  const r = await refundRow(s, w.refundId);
  const [trade] = await s.deps.db.select().from(payStandInOrders).where(eq(payStandInOrders.outTradeNo, w.outTradeNo));
  const now = s.clock.now();
  if (w.provider === 'alipay') {
    const fields = { out_biz_no: numberOf(r), refund_fee: centsToYuan(r.amountCents), gmt_refund: `${alipayTimestamp(now)}.000` };
    const body = alipayNotification(trade!, s.deps.gateways.payments.standIn!.alipay, now, undefined, fields);
    await s.app.request('/api/pay/notify/alipay', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body,
    });
    return;
  }
  const held = (await standInRefunds(s, w.outTradeNo)).find((x) => x.outRefundNo === numberOf(r));
  const row: StandInRefund = {
    ...(held ?? {
      id: 0,
      provider: 'wechat',
      merchantId: trade!.merchantId,
      outTradeNo: w.outTradeNo,
      outRefundNo: numberOf(r),
      refundId: `50300${r.id}`,
      amountCents: r.amountCents,
      totalCents: trade!.amountCents,
      reason: null,
      notifyUrl: null,
      simulate: null,
      createdAt: now,
    }),
    state,
    succeededAt: state === 'SUCCESS' ? now : null,
  };
  const n = wechatRefundNotification(row, trade!, s.deps.gateways.payments.standIn!.wechat, Math.floor(now.getTime() / 1000));
  await s.app.request('/api/pay/refund-notify/wechat', { method: 'POST', headers: n.headers, body: n.body });
}

/** Staff release or settle the refund; the answer is recorded for the states' checks. */
async function staff(w: Refund, action: 'release' | 'settle', from: string) {
  const r = await s.call('POST', `/api/staff/refunds/${action}`, {
    token: w.staff.token,
    body: { refundId: w.refundId },
    headers: { 'Idempotency-Key': `${action}-${w.refundId}-${++w.sent}` },
  });
  w.staffAnswers.push({ action, from, code: r.body.code as number });
}

const detail = async (w: Refund) =>
  (await s.call('GET', `/api/orders/detail?orderNo=${w.orderNo}`, { token: w.token })).body.data as OrderDetail;
const listed = async (w: Refund) =>
  ((await s.call('GET', '/api/staff/refunds/attention', { token: w.staff.token })).body.data as StaffRefund[]).find(
    (r) => r.refundId === w.refundId,
  );
const money = async (w: Refund) => (await orderMoney(s.deps.db, [w.orderId])).get(w.orderId)!;
/** What the provider holds under the refund's number now. */
const atProvider = async (w: Refund) => {
  const r = await refundRow(s, w.refundId);
  return (await standInRefunds(s, w.outTradeNo)).find((x) => x.outRefundNo === numberOf(r));
};

/**
 * Nothing more is asked of the provider: the refund's jobs still open (a query queued while it was
 * processing, an hourly retry queued when it failed) change nothing whenever they run.
 */
async function asksNothingMore(w: Refund) {
  const before = { refund: await refundRow(s, w.refundId), provider: await standInRefunds(s, w.outTradeNo) };
  for (const job of await openRefundJobs(s, w.refundId)) await jobHandlers[job.kind]!(s.deps, job.payload);
  expect({ refund: await refundRow(s, w.refundId), provider: await standInRefunds(s, w.outTradeNo) }, 'its jobs ask nothing more').toEqual(
    before,
  );
}

/** What holds in every state. */
async function always(w: Refund) {
  // staff may release only a held refund and settle only a held or failed one; anything else is 40023
  for (const a of w.staffAnswers) {
    const allowed = a.action === 'release' ? a.from === 'held' : a.from === 'held' || a.from === 'failed';
    expect(a, `staff ${a.action} of a ${a.from} refund`).toMatchObject({ code: allowed ? 200 : 40023 });
  }
  const r = await refundRow(s, w.refundId);
  expect(r.amountCents, 'all the money that arrived for nothing is refunded').toBe(w.amountCents);
  // a number the provider closed never paid anything; only the current number may
  const earlier = (await standInRefunds(s, w.outTradeNo)).filter((x) => x.outRefundNo !== numberOf(r));
  expect(
    earlier.map((x) => x.state).filter((st) => st !== 'CLOSED'),
    'earlier numbers are closed',
  ).toEqual([]);
  expect((await orderRow(s, w.orderNo)).state, 'a refund never changes its order').toBe('cancelled');
  await assertMoneyInvariants(s.deps.db);
}

const spec: ServerPathSpec<Refund> = {
  machine: refundMachine,
  record: 'a provider refund of money that came for a cancelled order',
  inputs: { wechat: { world: 'wechat' }, alipay: { world: 'alipay' }, held: { world: 'held' } },
  startIn: { held: 'held' },
  offer: ({ type }, snapshot, world) => {
    const state = snapshot.value as string;
    // staff's release or settle; after a release, the refund goes on as in the other worlds
    if (world === 'held') return state === 'held';
    if (world === 'alipay')
      return (
        type !== 'refund.closed' &&
        !(state === 'processing' && type === 'refund.failed') &&
        !(state === 'failed' && type === 'refund.succeeded')
      );
    // WeChat's failure here is ABNORMAL: queried hourly, never retried
    return !(state === 'failed' && type === 'refund.retry');
  },
  async start(_, input) {
    const { world } = input as { world: World };
    const provider: RefundProvider = world === 'alipay' ? 'alipay' : 'wechat';
    const m = await lateMoney(s, provider, TRANSIENT[provider]);
    if (world === 'held') {
      // as migration 0018 writes it: never asked (no number, no job), nothing said by any provider
      await s.deps.db
        .update(refunds)
        .set({
          state: 'held',
          key: `migrated:${m.p.id}`,
          outRefundNo: null,
          tryNo: 1,
          providerRefundId: null,
          failureCode: null,
          failureMessage: null,
        })
        .where(eq(refunds.id, m.refundId));
      await s.deps.db.delete(jobs).where(
        inArray(
          jobs.id,
          (await openRefundJobs(s, m.refundId)).map((j) => j.id),
        ),
      );
    }
    const st = await newStaff(s);
    return {
      world,
      provider,
      token: m.token,
      orderNo: m.o.orderNo,
      orderId: m.o.id,
      refundId: m.refundId,
      amountCents: m.p.amountCents,
      outTradeNo: m.outTradeNo,
      staff: st,
      staffAnswers: [],
      sent: 0,
    };
  },
  events: {
    'provider.accepted': async (w, from) => {
      const processing = { status: 'processing', deliveries: 0 };
      // the refund job asks; the provider answers PROCESSING (Alipay: fund_change N)
      if (from === 'pending') return ask(w, processing);
      // elsewhere, were it asked anew, the provider would answer so too
      await arrange(w, processing);
      // asked how it is: still processing (WeChat Pay; Alipay's query finds nothing done yet)
      if (from === 'processing') return untilJob(w, REFUND_QUERY_JOB);
      // whenever its jobs run, nothing is asked
      if (from === 'succeeded' || from === 'settled') return anHourLater(w);
      // failed: asked nothing before its hourly retry (refund.retry), or, abnormal, only how it ended;
      // held: asked nothing until staff release it. A provider says "processing" only when asked: what is due runs (nothing)
      await runRefundJobs(s, w.refundId);
    },
    'refund.succeeded': async (w, from) => {
      // the ask's answer: SUCCESS (Alipay: fund_change Y)
      if (from === 'pending') return ask(w, { status: 'success', deliveries: 0 });
      // paid out: WeChat Pay's signed REFUND.SUCCESS; Alipay's trade notification, then our query
      if (from === 'processing') return finish(w, 'success');
      // the abnormal refund paid by the provider's own process, unnotified: the hourly query finds it
      if (from === 'failed') {
        await finish(w, 'success', 0);
        return untilJob(w, REFUND_QUERY_JOB);
      }
      // the provider's notification again
      if (from === 'succeeded') return finish(w, 'success');
      // settled another way, or held: the provider says it paid it (late, or never asked)
      await notifyAs(w, 'SUCCESS');
    },
    'refund.failed': async (w, from) => {
      // the ask's answer: ABNORMAL (WeChat Pay) or a business refusal (Alipay)
      if (from === 'pending') return ask(w, FAILURE[w.provider]);
      // WeChat Pay's REFUND.ABNORMAL for an accepted refund
      if (from === 'processing') return finish(w, 'abnormal');
      if (w.provider === 'wechat') {
        // asked how it ended: ABNORMAL still
        if (from === 'failed') return untilJob(w, REFUND_QUERY_JOB);
        return notifyAs(w, 'ABNORMAL');
      }
      // Alipay refuses only when asked and never notifies a failure: nothing to try
    },
    'refund.retry': async (w, from) => {
      if (from === 'failed') {
        // the hourly retry asks again; the provider cannot be reached then, so it stays pending with its job
        await arrange(w, TRANSIENT[w.provider]);
        return untilJob(w, REFUND_RUN_JOB);
      }
      // pending: its job asks it (provider.accepted, refund.succeeded, …); an hour passing would be those: nothing to try.
      // Elsewhere an hour passes and whatever jobs it has run: none retries it
      if (from !== 'pending') await anHourLater(w);
    },
    'refund.closed': async (w, from) => {
      if (w.provider === 'alipay') return; // Alipay never closes a refund: nothing to try
      // the ask's answer: CLOSED, so asked again under the next number
      if (from === 'pending') return ask(w, { status: 'closed', deliveries: 0 });
      // WeChat Pay's REFUND.CLOSED for an accepted refund
      if (from === 'processing') return finish(w, 'closed');
      // the stand-in never closes a refund in another state; WeChat Pay's signed REFUND.CLOSED all the same
      await notifyAs(w, 'CLOSED');
    },
    'refund.release': async (w, from) => {
      // released and asked at once; the provider cannot be reached now, so it stays pending with its job
      if (from === 'held') await arrange(w, TRANSIENT[w.provider]);
      await staff(w, 'release', from);
    },
    'refund.settle': (w, from) => staff(w, 'settle', from),
  },
  async read(w) {
    const stored = (await refundRow(s, w.refundId)).state;
    return { stored, shown: (await detail(w)).refunds.map((r) => r.state).join(', ') };
  },
  states: {
    // asked for under its number, not accepted: the provider holds nothing under it; its job asks within a minute
    pending: async (w) => {
      await always(w);
      const r = await refundRow(s, w.refundId);
      expect(r).toMatchObject({ outRefundNo: `R${r.id}-${r.tryNo}`, settledBy: null, settledAt: null });
      expect(await atProvider(w), 'the provider holds nothing under its number').toBeUndefined();
      const asks = (await openRefundJobs(s, w.refundId)).filter((j) => j.kind === REFUND_RUN_JOB);
      expect(
        asks.some((j) => j.runAt.getTime() <= s.clock.now().getTime() + REFUND_RUN_AFTER_MS),
        'its refund job runs within a minute',
      ).toBe(true);
      expect(await money(w)).toMatchObject({ refundedCents: 0, refundingCents: w.amountCents });
      expect(await listed(w), 'not for staff').toBeUndefined();
    },
    // accepted: the provider is paying it out; its query asks how it ends
    processing: async (w) => {
      await always(w);
      const r = await refundRow(s, w.refundId);
      expect(r).toMatchObject({ outRefundNo: `R${r.id}-${r.tryNo}`, settledBy: null, settledAt: null });
      expect(await atProvider(w)).toMatchObject({ state: 'PROCESSING', amountCents: w.amountCents });
      expect(
        (await openRefundJobs(s, w.refundId)).some((j) => j.kind === REFUND_QUERY_JOB),
        'its query is queued',
      ).toBe(true);
      expect(await money(w)).toMatchObject({ refundedCents: 0, refundingCents: w.amountCents });
      expect(await listed(w), 'not for staff').toBeUndefined();
    },
    // the provider refused or could not pay it out: its reason kept for staff and the member, the money not
    // back, tried (or, abnormal, asked about) again within the hour, not at once
    failed: async (w) => {
      await always(w);
      const r = await refundRow(s, w.refundId);
      expect(r).toMatchObject({ outRefundNo: `R${r.id}-${r.tryNo}`, settledBy: null, settledAt: null });
      expect(r.failureCode, "the provider's code").toBeTruthy();
      expect(await listed(w), 'listed for staff with the reason').toMatchObject({
        state: 'failed',
        to: w.provider,
        amountCents: w.amountCents,
        failureCode: r.failureCode,
        failureMessage: r.failureMessage,
      });
      const [shown] = (await detail(w)).refunds;
      expect(shown).toMatchObject({ state: 'failed', to: w.provider, failureMessage: r.failureMessage });
      // a refusal carries the provider's words (WeChat Pay's ABNORMAL carries none)
      if (w.provider === 'alipay') expect(shown!.failureMessage, "the member reads the provider's words").toBeTruthy();
      expect((await atProvider(w))?.state, 'not paid out').not.toBe(PAID_OUT[w.provider]);
      expect(await money(w)).toMatchObject({ refundedCents: 0, refundingCents: 0 });
      const now = s.clock.now().getTime();
      const next = await openRefundJobs(s, w.refundId);
      expect(
        next.some((j) => j.runAt.getTime() > now && j.runAt.getTime() <= now + REFUND_RETRY_EVERY_MS),
        'tried again within the hour',
      ).toBe(true);
      expect(
        next.filter((j) => j.runAt.getTime() <= now),
        'not at once',
      ).toEqual([]);
    },
    // staff hold it: never asked of a provider (no number, no job), nothing said by one
    held: async (w) => {
      await always(w);
      expect(await refundRow(s, w.refundId)).toMatchObject({
        outRefundNo: null,
        tryNo: 1,
        failureCode: null,
        settledBy: null,
        settledAt: null,
      });
      expect(await listed(w), 'listed for staff').toMatchObject({
        state: 'held',
        to: w.provider,
        amountCents: w.amountCents,
        failureCode: null,
      });
      expect(await standInRefunds(s, w.outTradeNo), 'nothing asked of the provider').toEqual([]);
      expect(await openRefundJobs(s, w.refundId), 'nothing will ask it').toEqual([]);
      expect(await money(w)).toMatchObject({ refundedCents: 0, refundingCents: 0 });
    },
    // paid out by the provider under its number: back with the payer, counted once, asked nothing more
    succeeded: async (w) => {
      await always(w);
      const r = await refundRow(s, w.refundId);
      expect(r).toMatchObject({ outRefundNo: `R${r.id}-${r.tryNo}`, settledBy: null });
      expect(r.settledAt, 'when it came back').not.toBe(null);
      expect(await atProvider(w)).toMatchObject({ state: PAID_OUT[w.provider], amountCents: w.amountCents });
      expect(await money(w)).toMatchObject({ refundedCents: w.amountCents, refundingCents: 0 });
      const [shown] = (await detail(w)).refunds;
      expect(shown).toMatchObject({
        state: 'succeeded',
        to: w.provider,
        amountCents: w.amountCents,
        settledAt: r.settledAt!.toISOString(),
      });
      expect(await listed(w), 'not for staff').toBeUndefined();
      await asksNothingMore(w);
    },
    // given back another way by staff, who are recorded: the provider paid nothing, and is asked nothing more
    settled: async (w) => {
      await always(w);
      const r = await refundRow(s, w.refundId);
      expect(r.settledBy, 'who settled it').toBe(w.staff.id);
      expect(r.settledAt).not.toBe(null);
      expect(
        (await standInRefunds(s, w.outTradeNo)).map((x) => x.state),
        'the provider paid nothing (it is not returned twice)',
      ).not.toContain(PAID_OUT[w.provider]);
      expect(await money(w)).toMatchObject({ refundedCents: w.amountCents, refundingCents: 0 });
      expect((await detail(w)).refunds).toMatchObject([{ state: 'settled', amountCents: w.amountCents }]);
      expect(await listed(w), 'no longer for staff').toBeUndefined();
      await asksNothingMore(w);
    },
  },
};

defineServerPaths<Refund>(s, spec);

// A held refund is never the last state of a path (each goes on to what staff do with it), so the
// refusals at a path's end never try it: here, everything but staff's release and settle.
if (!process.env.MUTANTS) {
  it('a held refund: what the chart refuses there changes nothing', async () => {
    const w = await spec.start(s, { world: 'held' });
    for (const type of ['provider.accepted', 'refund.succeeded', 'refund.failed', 'refund.retry', 'refund.closed']) {
      await spec.events[type]!(w, 'held');
      expect((await spec.read(w)).stored, `${type} refused`).toBe('held');
      expect((await spec.read(w)).shown).toBe('held');
      await spec.states.held!(w);
    }
  });
}
