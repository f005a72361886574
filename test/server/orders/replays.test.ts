import { createHash } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { idempotencyKeys, orders, payments } from '../../../src/server/db/schema/index';
import { IDEMPOTENCY_LEASE_MS } from '../../../src/server/http/idempotency';
import { issueOpenId } from '../payments/support';
import { startTestServer } from '../support/harness';
import { create, credit, newGoods, newMember, orderRow, pay } from './support';

describe('orders: retries and notifications for orders we do not have', async () => {
  const s = await startTestServer({ seed: true });

  it('a create retried with the same Idempotency-Key answers the same order; a different body is refused', async () => {
    const m = await newMember(s);
    const g = await newGoods(s, { stock: 3 });
    const a = await create(s, m.token, { goodsId: g.id }, { 'Idempotency-Key': 'create-key-1' });
    const b = await create(s, m.token, { goodsId: g.id }, { 'Idempotency-Key': 'create-key-1' });
    expect(b.body.data.orderNo).toBe(a.body.data.orderNo);
    expect((await create(s, m.token, { goodsId: g.id, useBalance: true }, { 'Idempotency-Key': 'create-key-1' })).body.code).toBe(70007);
  });

  it('a create cut off by a killed process (its key left in progress, its transaction rolled back): the retry after the lease makes the order once', async () => {
    const m = await newMember(s);
    const g = await newGoods(s, { stock: 3 });
    // what the killed process left: the key in progress under a lease it can no longer extend, no order
    const body = JSON.stringify({ agreementAccepted: true, goodsId: g.id });
    await s.deps.db.insert(idempotencyKeys).values({
      scope: `a:${m.id}`,
      key: 'create-cut-off-1',
      method: 'POST',
      path: '/api/orders/create',
      bodyHash: createHash('sha256').update(`POST /api/orders/create\n${body}`).digest('hex'),
      createdAt: s.clock.now(),
      owner: 'killed-process',
      leaseUntil: new Date(s.clock.now().getTime() + IDEMPOTENCY_LEASE_MS),
    });
    expect((await create(s, m.token, { goodsId: g.id }, { 'Idempotency-Key': 'create-cut-off-1' })).body.code).toBe(70010);
    s.clock.advance(IDEMPOTENCY_LEASE_MS);
    const retry = await create(s, m.token, { goodsId: g.id }, { 'Idempotency-Key': 'create-cut-off-1' });
    expect(retry.status).toBe(200);
    const again = await create(s, m.token, { goodsId: g.id }, { 'Idempotency-Key': 'create-cut-off-1' });
    expect(again.body.data.orderNo).toBe(retry.body.data.orderNo);
    expect(await s.deps.db.select().from(orders).where(eq(orders.accountId, m.id))).toHaveLength(1);
  });

  it('a validly signed notification for an order we never made changes nothing and is not acknowledged', async () => {
    const wechat = s.deps.gateways.payments.wechat!;
    await issueOpenId(s, 'o1');
    const start = await wechat.createPayment({
      orderNo: 'O-NOT-OURS-1',
      amountCents: 100,
      description: 'x',
      payerOpenId: 'o1',
      notifyUrl: `${s.deps.config.publicUrl}/api/pay/notify/wechat`,
    });
    if (start.method !== 'wechat') throw new Error('expected wechat');
    const sim = await s.call('POST', '/api/dev/pay/wechat/simulate', { body: { prepayId: start.prepayId, outcome: 'pay' } });
    expect(sim.body.data.deliveries[0].status).not.toBe(204);
    expect(await s.deps.db.select().from(payments)).toHaveLength(0);
  });

  it('a paying order with too little balance refuses it; three deliveries of its notification pay it once', async () => {
    const m = await newMember(s);
    const g = await newGoods(s);
    await credit(s, m.id, 19_899);
    const no = (await create(s, m.token, { goodsId: g.id })).body.data.orderNo;
    const wechat = await pay(s, m.token, no, 'wechat');
    expect(wechat.body.data.order.state).toBe('paying');
    expect((await pay(s, m.token, no, 'balance')).body.code).toBe(40004);
    await s.call('POST', '/api/dev/pay/wechat/simulate', {
      body: { prepayId: wechat.body.data.payment.prepayId, outcome: 'pay', deliveries: 3 },
    });
    const o = await orderRow(s, no);
    expect(o.state).toBe('paid');
    expect(await s.deps.db.select().from(payments).where(eq(payments.orderId, o.id))).toHaveLength(1);
  });
});
