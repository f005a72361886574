import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { invoiceOrders } from '../../../src/server/db/schema/index';
import { requestInvoice as requestInvoiceService } from '../../../src/server/services/invoices/invoices';
import { newMember } from '../orders/support';
import { startTestServer, usePostgres } from '../support/harness';
import { withoutLocks } from '../support/without-locks';
import { FIELDS, paidOrder, requestInvoice } from './support';

/**
 * Two invoice requests for the same order at once on PostgreSQL (decision 044; PGlite is one
 * connection): under the order's lock the second sees the first's request once it commits and is
 * refused 70187, so the order is on one invoice. Without the lock, the partial unique index on
 * `invoice_orders` is the backstop: still one invoice, and the loser is the same 70187, never a 500.
 */
describe.runIf(usePostgres)('invoice request races on PostgreSQL', async () => {
  const s = await startTestServer({ seed: true });

  async function twoAtOnce(send: (m: { id: number; token: string }, orderId: number) => Promise<string>, rounds = 6) {
    for (let i = 0; i < rounds; i++) {
      const m = await newMember(s);
      const o = await paidOrder(s, m);
      const answers = await Promise.all([send(m, o.id), send(m, o.id)]);
      expect(answers.sort()).toEqual(['200', '409 70187']);
      expect(await s.deps.db.select().from(invoiceOrders).where(eq(invoiceOrders.orderId, o.id))).toHaveLength(1);
    }
  }

  it('two requests for one order at once: one invoice, the other refused 70187', async () => {
    await twoAtOnce(async (m, orderId) => {
      const r = await requestInvoice(s, m.token, { orderIds: [orderId] });
      return r.status === 200 ? '200' : `${r.status} ${r.body.code}`;
    });
  });

  it('without the lock the unique index still keeps one invoice, and the loser is 70187, not a 500', async () => {
    await twoAtOnce(async (m, orderId) =>
      requestInvoiceService(withoutLocks(s.deps.db), s.clock, m.id, { ...FIELDS, orderIds: [orderId] }).then(
        () => '200',
        (err: { def?: { http: number; code: number } }) => (err.def ? `${err.def.http} ${err.def.code}` : String(err)),
      ),
    );
  });
});
