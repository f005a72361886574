import { and, eq } from 'drizzle-orm';
import { expect } from 'vitest';
import { invoiceMachine } from '../../../machines/domain/invoice.machine';
import { invoiceOrders } from '../../../src/server/db/schema/index';
import { askRefund, boughtCard, staffRefund } from '../cards/refund-support';
import { invoicePdf, invoiceRow, issue, myInvoices, refuse, requestInvoice, staffInvoices } from '../invoices/support';
import { newStaff } from '../orders/support';
import { startTestServer } from '../support/harness';
import { accepted, defineServerPaths } from '../support/server-paths';

/**
 * The invoice chart (decision 044) against the server: a member who bought a card asks for
 * an invoice over its order (POST /customers/invoices); staff issue it (POST /staff/invoices/issue,
 * number and PDF written) or refuse it with a reason (POST /staff/invoices/refuse); the card refunded
 * (the member asks, staff approve, the balance refund completes) voids an issued invoice. Each state is
 * read from `invoices` and from what the member is shown (GET /customers/invoices), with what it
 * promises: the staff queue, the PDF offered or not, the order held or released.
 */
const s = await startTestServer({ seed: true });
const REASON = '抬头与营业执照不符';

interface World {
  token: string;
  cardId: number;
  orderId: number;
  id: number;
  staff: { id: number; token: string };
}

const shown = async (w: World) =>
  (
    (await myInvoices(s, w.token)).body.data as Array<{
      id: number;
      state: string;
      hasPdf: boolean;
      number: string | null;
      reason: string | null;
    }>
  ).find((i) => i.id === w.id)!;
const queued = async (w: World) => ((await staffInvoices(s, w.staff.token)).body.data as Array<{ id: number }>).some((i) => i.id === w.id);
const held = async (w: World) =>
  (
    await s.deps.db
      .select()
      .from(invoiceOrders)
      .where(and(eq(invoiceOrders.invoiceId, w.id), eq(invoiceOrders.orderId, w.orderId)))
  )[0]!.releasedAt === null;

defineServerPaths<World>(s, {
  machine: invoiceMachine,
  record: 'an invoice request',
  async start() {
    const b = await boughtCard(s);
    const r = await requestInvoice(s, b.m.token, { orderIds: [b.order.id] });
    accepted(r, 'request');
    return { token: b.m.token, cardId: b.card.id, orderId: b.order.id, id: r.body.data.id, staff: await newStaff(s) };
  },
  events: {
    'invoice.issue': async (w) => accepted(await issue(s, w.staff.token, w.id), 'issue'),
    'invoice.refuse': async (w) => accepted(await refuse(s, w.staff.token, w.id, REASON), 'refuse'),
    // the card's order refunded: the member asks, staff approve, the balance refund completes at once
    'invoice.void': async (w) => {
      const asked = await askRefund(s, w.token, w.cardId);
      accepted(asked, 'ask refund');
      accepted(await staffRefund(s, w.staff.token, 'approve', asked.body.data.id), 'approve refund');
    },
  },
  async read(w) {
    return { stored: (await invoiceRow(s, w.id)).state, shown: (await shown(w)).state };
  },
  states: {
    // waiting for staff: queued, its order held, no number, no PDF
    requested: async (w) => {
      expect(await queued(w)).toBe(true);
      expect(await held(w)).toBe(true);
      expect(await shown(w)).toMatchObject({ hasPdf: false, number: null, reason: null });
      expect((await invoicePdf(s, w.token, w.id)).status).toBe(404);
    },
    // issued: out of the queue, numbered, the PDF downloads, the order still held
    issued: async (w) => {
      expect(await queued(w)).toBe(false);
      expect(await held(w)).toBe(true);
      expect((await shown(w)).number).toMatch(/^FP\d{16}$/);
      expect(await shown(w)).toMatchObject({ hasPdf: true });
      const pdf = await invoicePdf(s, w.token, w.id);
      expect([pdf.status, pdf.headers.get('content-type')]).toEqual([200, 'application/pdf']);
    },
    // refused: the reason shown, the order released to be asked for again, nothing to download
    refused: async (w) => {
      expect(await queued(w)).toBe(false);
      expect(await held(w)).toBe(false);
      expect(await shown(w)).toMatchObject({ reason: REASON, hasPdf: false, number: null });
      expect((await invoicePdf(s, w.token, w.id)).status).toBe(404);
    },
    // voided: the number kept, the PDF no longer offered, the refunded order still held (never invoiced again)
    voided: async (w) => {
      expect(await queued(w)).toBe(false);
      expect(await held(w)).toBe(true);
      expect((await invoiceRow(s, w.id)).voidedAt).not.toBeNull();
      expect(await shown(w)).toMatchObject({ hasPdf: false });
      expect((await invoicePdf(s, w.token, w.id)).status).toBe(404);
    },
  },
});
