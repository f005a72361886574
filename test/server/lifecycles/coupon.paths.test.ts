import { expect } from 'vitest';
import { couponMachine } from '../../../machines/domain/coupon.machine';
import { enqueueJob } from '../../../src/server/jobs/queue';
import { runDueJobs } from '../../../src/server/jobs/runner';
import { TIME_PASSING_JOB } from '../../../src/server/jobs/time-passing';
import { eq } from 'drizzle-orm';
import { memberCoupons } from '../../../src/server/db/schema/index';
import { couponRow, create, giveCoupon, newGoods, newMember, orderRow } from '../buying/support';
import { phoneOf } from '../cards/transfer-support';
import { startTestServer } from '../support/harness';
import { accepted, defineServerPaths } from '../support/server-paths';

/**
 * The coupon chart (spec §4 coupon tabs, decision 008) against the server: an unused coupon is used by
 * the order it is applied to (POST /orders/create with couponId) and comes back unused when that order
 * is cancelled (POST /orders/cancel). Each state is read back from GET /customers/coupons and the
 * member_coupons table, with what it promises: which order holds it, whether checkout offers it, the
 * deduction on the order. Expiry is time passing to the coupon's validity end and the time-passing
 * job running (decision 018). Gifting is POST /customers/coupons/gift to a friend (decision 032): the
 * coupon leaves the member (transferred) and arrives with the friend.
 */
const s = await startTestServer({ seed: true });

const OFF = 2_000;
const VALID_MS = 5 * 60_000;

// the time-passing job, due now (the test server runs jobs only when a test asks)
await enqueueJob(s.deps.db, { kind: TIME_PASSING_JOB, runAt: s.clock.now() });

interface Coupon {
  token: string;
  couponId: number;
  goodsId: number;
  /** the order that took the coupon last, and when */
  orderNo: string | null;
  usedAt?: Date;
  /** the friend a gift goes to */
  friendId: number;
  friendPhone: string;
}

async function shown(w: Coupon): Promise<{ state: string; usedAt: string | null } | undefined> {
  const list = (await s.call('GET', '/api/customers/coupons?pagenum=0&pagesize=50', { token: w.token })).body.data.list as Array<{
    id: number;
    state: string;
    usedAt: string | null;
  }>;
  return list.find((c) => c.id === w.couponId);
}
/** Whether checkout offers the coupon for the goods. */
async function offered(w: Coupon): Promise<boolean> {
  const q = await s.call('POST', '/api/orders/quote', { token: w.token, body: { goodsId: w.goodsId, couponId: w.couponId } });
  return (q.body.data?.coupons ?? []).some((c: { id: number; usable: boolean }) => c.id === w.couponId && c.usable);
}

defineServerPaths<Coupon>(s, {
  machine: couponMachine,
  record: "a member's coupon",
  async start() {
    const m = await newMember(s);
    // valid for 5 minutes: its end comes before its order's pay deadline (so a used coupon is still
    // held by its order when its validity ends) and moves the shared test clock only a little
    const c = await giveCoupon(s, m.id, { offCents: OFF, minSpendCents: 0, validUntil: new Date(s.clock.now().getTime() + VALID_MS) });
    const g = await newGoods(s);
    const friend = await newMember(s);
    return { token: m.token, couponId: c.id, goodsId: g.id, orderNo: null, friendId: friend.id, friendPhone: await phoneOf(s, friend.id) };
  },
  events: {
    'coupon.use': async (w) => {
      const r = await create(s, w.token, { goodsId: w.goodsId, couponId: w.couponId });
      accepted(r, 'create with the coupon');
      w.orderNo = r.body.data.orderNo as string;
      w.usedAt = s.clock.now();
    },
    'coupon.release': async (w) =>
      accepted(await s.call('POST', '/api/orders/cancel', { token: w.token, body: { orderNo: w.orderNo } }), 'cancel its order'),
    // time passes to the validity end and the job runs
    'coupon.expire': async (w) => {
      const until = (await couponRow(s, w.couponId)).validUntil.getTime();
      if (until > s.clock.now().getTime()) s.clock.set(until);
      await runDueJobs(s.deps);
    },
    'coupon.gift': async (w) =>
      accepted(
        await s.call('POST', '/api/customers/coupons/gift', {
          token: w.token,
          body: { couponId: w.couponId, phone: w.friendPhone, agreed: true },
        }),
        'gift it to a friend',
      ),
  },
  async read(w) {
    return { stored: (await couponRow(s, w.couponId)).state, shown: (await shown(w))?.state ?? 'missing' };
  },
  states: {
    // held by no order, offered at checkout
    unused: async (w) => {
      expect((await couponRow(s, w.couponId)).validUntil.getTime(), 'an unused coupon is within its validity').toBeGreaterThan(
        s.clock.now().getTime(),
      );
      expect(await couponRow(s, w.couponId)).toMatchObject({ usedOrderId: null, usedAt: null });
      expect((await shown(w))?.usedAt).toBe(null);
      expect(await offered(w)).toBe(true);
      if (w.orderNo) expect((await orderRow(s, w.orderNo)).state, 'the order that held it was cancelled').toBe('cancelled');
    },
    // held by the order that took it off its price; not offered to another order
    used: async (w) => {
      const o = await orderRow(s, w.orderNo!);
      expect(await couponRow(s, w.couponId)).toMatchObject({ usedOrderId: o.id, usedAt: w.usedAt });
      expect(o).toMatchObject({ couponId: w.couponId, couponDeductionCents: OFF, state: 'unpaid' });
      expect(await offered(w)).toBe(false);
    },
    // past its validity, never used: listed under expired, not offered, and no order can take it
    expired: async (w) => {
      const row = await couponRow(s, w.couponId);
      expect(row.validUntil.getTime(), 'only a coupon whose validity has ended is expired').toBeLessThanOrEqual(s.clock.now().getTime());
      expect(row.usedOrderId).toBe(null);
      const tab = (await s.call('GET', '/api/customers/coupons?state=expired&pagenum=0&pagesize=50', { token: w.token })).body.data
        .list as Array<{ id: number }>;
      expect(tab.map((c) => c.id)).toContain(w.couponId);
      expect(await offered(w)).toBe(false);
      const r = await create(s, w.token, { goodsId: w.goodsId, couponId: w.couponId });
      expect(r.status, 'an order with the expired coupon is refused').not.toBe(200);
    },
    // gone to the friend: listed under transferred with whom, not offered; the friend holds one coupon from it
    transferred: async (w) => {
      expect(await couponRow(s, w.couponId)).toMatchObject({ giftedToAccountId: w.friendId, usedOrderId: null });
      const tab = (await s.call('GET', '/api/customers/coupons?state=transferred&pagenum=0&pagesize=50', { token: w.token })).body.data
        .list as Array<{ id: number; giftedTo: string | null }>;
      expect(tab.find((c) => c.id === w.couponId)?.giftedTo).toBe(`${w.friendPhone.slice(0, 3)}****${w.friendPhone.slice(-4)}`);
      expect(await offered(w)).toBe(false);
      const arrived = await s.deps.db.select().from(memberCoupons).where(eq(memberCoupons.giftedFromCouponId, w.couponId));
      // it keeps the validity it had: unused with the friend until its end (the refused events tried at a path's end let time pass)
      const within = (await couponRow(s, w.couponId)).validUntil.getTime() > s.clock.now().getTime();
      expect(arrived.map((c) => [c.accountId, c.state])).toEqual([[w.friendId, within ? 'unused' : 'expired']]);
    },
  },
});
