import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { ORDER_PAY_WITHIN_MS } from '../../../src/domain/pricing';
import { payments, payStandInOrders, refunds } from '../../../src/server/db/schema/index';
import { alipayNotification } from '../../../src/server/gateways/payments/alipay-standin';
import { PaymentProviderError, type PaymentGateway, type PaymentResult } from '../../../src/server/gateways/payments/types';
import { runOrderExpiry } from '../../../src/server/services/orders/expiry';
import { settlePayment } from '../../../src/server/services/orders/settle';
import { startTestServer, usePostgres } from '../support/harness';
import { assertMoneyInvariants } from '../support/money-invariants';
import { withoutGuards, withoutLocks } from '../support/without-locks';
import { cardsOf, create, goodsRow, newGoods, newMember, orderRow, pay } from './support';

/**
 * The order's expiry racing the provider's notification that its trade was paid (decision 021), on
 * PostgreSQL: the provider cannot be reached by the expiry (so it closes the trade here and cancels),
 * while the notification of money taken before arrives. Each round ends either paid (applied, one
 * card, nothing refunded) or cancelled with the money refunded in full: never both, never neither.
 * The negative control settles without the row locks and the part's guarded write, and the same race
 * then ends some orders both paid and cancelled.
 */
// a sweep of rounds checks who won, not how fast: on two cores shared with the other suites it has
// taken over the 20 s default, so the safety net is wider here
describe.runIf(usePostgres)('expiry against a paid notification on PostgreSQL', { timeout: 120_000 }, async () => {
  const s = await startTestServer({ seed: true });
  const alipay = s.deps.gateways.payments.alipay as PaymentGateway;
  // the expiry cannot reach the provider: it closes the trade here
  alipay.queryOrder = async () => Promise.reject(new PaymentProviderError('alipay', 'NETWORK', 'unreachable'));
  alipay.close = async () => Promise.reject(new PaymentProviderError('alipay', 'NETWORK', 'unreachable'));

  /**
   * One race; the notification arrives `delayMs` after the expiry starts (the rounds sweep the expiry's
   * span). `unsafe`: the notification is settled without the row locks (and the caller takes the guards out).
   */
  async function round(delayMs: number, unsafe = false) {
    const m = await newMember(s);
    const g = await newGoods(s, { stock: 1 });
    const no = (await create(s, m.token, { goodsId: g.id })).body.data.orderNo as string;
    const started = await pay(s, m.token, no, 'alipay');
    expect((await s.app.request(started.body.data.payment.url)).status).toBe(200);
    const [trade] = await s.deps.db
      .select()
      .from(payStandInOrders)
      .where(eq(payStandInOrders.outTradeNo, `${no}-1`));
    const body = alipayNotification(
      { ...trade!, state: 'TRADE_SUCCESS', providerTxnId: `T${no}`, paidAt: s.clock.now() },
      s.deps.gateways.payments.standIn!.alipay,
      s.clock.now(),
    );
    const result = alipay.parseNotification(body, new Headers()) as PaymentResult;
    s.clock.advance(ORDER_PAY_WITHIN_MS);
    const late = new Promise((resolve) => setTimeout(resolve, delayMs)).then(() =>
      settlePayment(unsafe ? { ...s.deps, db: withoutLocks(s.deps.db) } : s.deps, result, 'notify'),
    );
    await Promise.all([runOrderExpiry(s.deps, { orderNo: no }), unsafe ? late.catch(() => undefined) : late]);
    const o = await orderRow(s, no);
    const ps = await s.deps.db.select().from(payments).where(eq(payments.orderId, o.id));
    const back = ps.length ? await s.deps.db.select().from(refunds).where(eq(refunds.paymentId, ps[0]!.id)) : [];
    return { o, ps, back, cards: (await cardsOf(s, m.id)).length, stock: (await goodsRow(s, g.id)).stock };
  }

  it('30 rounds: each order paid (applied, one card) or cancelled and refunded in full; never both, never neither', async () => {
    const seen = new Set<string>();
    for (let i = 0; i < 30; i++) {
      const r = await round(i);
      seen.add(r.o.state);
      if (r.o.state === 'paid') {
        expect(r.o.cancelledAt).toBeNull();
        expect(r.ps.map((p) => p.status)).toEqual(['paid']);
        expect(r.back).toEqual([]);
        expect([r.cards, r.stock]).toEqual([1, 0]);
      } else {
        expect(r.o.state).toBe('cancelled');
        expect(r.o.paidAt).toBeNull();
        expect(r.ps.map((p) => p.status)).toEqual(['needs_refund']);
        expect(r.back.map((x) => [x.amountCents, x.cause])).toEqual([[r.ps[0]!.amountCents, 'unwanted_payment']]);
        expect([r.cards, r.stock]).toEqual([0, 1]);
      }
    }
    // the sweep makes both endings happen (else the race proved nothing)
    expect([...seen].sort()).toEqual(['cancelled', 'paid']);
    await assertMoneyInvariants(s.deps.db);
  });

  it('negative control: settling without the locks and the guarded write, some orders end both paid and cancelled', {
    retry: 2,
  }, async () => {
    let both = 0;
    // stops at the first order both paid and cancelled (the window is the cancel's few milliseconds: swept twice over)
    for (let i = 0; i < 80 && both === 0; i++) {
      const r = await withoutGuards(() => round(i % 40, true));
      if (r.o.cancelledAt !== null && (r.o.state === 'paid' || r.cards > 0)) both++;
    }
    expect(both).toBeGreaterThan(0);
  });
});
