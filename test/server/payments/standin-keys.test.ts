import { createSign, createVerify } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createApp } from '../../../src/server/app';
import { payStandInKeys } from '../../../src/server/db/schema/index';
import type { Deps } from '../../../src/server/env';
import { createGateways } from '../../../src/server/gateways/create';
import { newPaymentStandIns, storedPaymentStandIns } from '../../../src/server/gateways/payments/standin-keys';
import { NotificationRefused } from '../../../src/server/gateways/payments/types';
import { startTestServer, type TestServer } from '../support/harness';

/**
 * A server process on the test's database as `startServerApp` builds one: its stand-in keys read
 * from the database (a separate copy, as another process or a restart would have), or, as before
 * decision 016's table, made in its own memory.
 */
async function serverProcess(s: TestServer, keys: 'stored' | 'own memory' = 'stored') {
  const partial = { db: s.deps.db, dbKind: s.deps.dbKind, clock: s.clock, config: s.deps.config, log: s.log };
  const paymentStandIns = keys === 'stored' ? await storedPaymentStandIns(s.deps.db, s.clock.now()) : newPaymentStandIns();
  const deps: Deps = { ...partial, gateways: createGateways(s.deps.config, partial, { paymentStandIns }) };
  return { deps, app: createApp(deps) };
}

/** Signed by one key, verified by another: true when they are the two halves of one pair. */
function halves(
  privateKey: Parameters<ReturnType<typeof createSign>['sign']>[0],
  publicKey: Parameters<ReturnType<typeof createVerify>['verify']>[0],
): boolean {
  const signature = createSign('RSA-SHA256').update('pay').sign(privateKey);
  return createVerify('RSA-SHA256').update('pay').verify(publicKey, signature);
}

/**
 * The stand-ins' keys live in the database (one set per database): every server process on it,
 * and the same process after a restart, signs and verifies with the same keys.
 */
describe('payment stand-in keys kept with the data', async () => {
  const s = await startTestServer();

  it('the first start makes them, later and concurrent starts read the same ones', async () => {
    expect(await s.deps.db.select().from(payStandInKeys)).toHaveLength(0);
    const [a, b] = await Promise.all([storedPaymentStandIns(s.deps.db, s.clock.now()), storedPaymentStandIns(s.deps.db, s.clock.now())]);
    const c = await storedPaymentStandIns(s.deps.db, s.clock.now());
    expect(await s.deps.db.select().from(payStandInKeys)).toHaveLength(1);
    for (const other of [b, c]) {
      expect(other.wechat.platformSerial).toBe(a.wechat.platformSerial);
      expect(other.wechat.apiV3Key).toBe(a.wechat.apiV3Key);
      // what one process's stand-in signs, another's merchant side verifies
      expect(halves(a.wechat.platform.privateKey, other.wechat.platform.publicKey)).toBe(true);
      expect(halves(a.alipay.alipay.privateKey, other.alipay.alipay.publicKey)).toBe(true);
      expect(halves(other.wechat.merchant.privateKey, a.wechat.merchant.publicKey)).toBe(true);
      expect(halves(other.alipay.app.privateKey, a.alipay.app.publicKey)).toBe(true);
    }
    // four different keys, not one key four times
    expect(halves(a.wechat.merchant.privateKey, a.wechat.platform.publicKey)).toBe(false);
  });

  it('two server processes on one database: a cashier link one signs opens on the other, a notification one signs the other verifies; a restart keeps them', async () => {
    const [a, b] = [await serverProcess(s), await serverProcess(s)];
    const base = new URL(s.deps.config.publicUrl).origin;
    const link = async (p: Awaited<ReturnType<typeof serverProcess>>, orderNo: string) => {
      const start = await p.deps.gateways.payments.alipay!.createPayment({
        orderNo,
        amountCents: 100,
        description: 'keys',
        notifyUrl: `${base}/api/pay/notify/alipay`,
      });
      if (start.method !== 'alipay') throw new Error('expected alipay');
      return start.url.slice(base.length);
    };
    // the cashier link process A signed opens on process B's stand-in
    const cashier = await b.app.request(await link(a, 'O-KEYS-1'));
    expect(cashier.status).toBe(200);
    // negative control: a process with keys of its own (in memory) is refused by the other
    const stranger = await serverProcess(s, 'own memory');
    const refused = await b.app.request(await link(stranger, 'O-KEYS-2'));
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain('isv.invalid-signature');

    // B's stand-in settles the trade and signs the notification; A (and a restarted process) verify it
    const sent: string[] = [];
    b.deps.gateways.payments.standIn!.notifyFetch = async (_url, init) => {
      sent.push(String(init?.body));
      return new Response('success');
    };
    const sim = await b.app.request('/api/dev/pay/alipay/simulate', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ outTradeNo: 'O-KEYS-1', outcome: 'pay' }),
    });
    expect(sim.status).toBe(200);
    expect(sent).toHaveLength(1);
    expect(a.deps.gateways.payments.alipay!.parseNotification(sent[0]!, new Headers())).toMatchObject({
      orderNo: 'O-KEYS-1',
      status: 'paid',
      amountCents: 100,
    });
    const restarted = await serverProcess(s);
    expect(restarted.deps.gateways.payments.alipay!.parseNotification(sent[0]!, new Headers())).toMatchObject({
      orderNo: 'O-KEYS-1',
      status: 'paid',
    });
    expect((await a.app.request(await link(restarted, 'O-KEYS-3'))).status).toBe(200);
    expect(() => stranger.deps.gateways.payments.alipay!.parseNotification(sent[0]!, new Headers())).toThrow(NotificationRefused);
    expect(await s.deps.db.select().from(payStandInKeys)).toHaveLength(1);
  });
});
