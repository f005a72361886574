import { createSign, createVerify } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { payStandInKeys } from '../../../src/server/db/schema/index';
import { storedPaymentStandIns } from '../../../src/server/gateways/payments/standin-keys';
import { startTestServer } from '../support/harness';

/** Signed by one key, verified by another: true when they are the two halves of one pair. */
function halves(privateKey: Parameters<ReturnType<typeof createSign>['sign']>[0], publicKey: Parameters<ReturnType<typeof createVerify>['verify']>[0]): boolean {
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
});
