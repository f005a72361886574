import { eq } from 'drizzle-orm';
import { PDFDict, PDFDocument, PDFName, PDFRef } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { clubs, invoices, notifications, orders } from '../../../src/server/db/schema/index';
import { askRefund, boughtCard, staffRefund } from '../cards/refund-support';
import { assignClubs } from '../complaints/support';
import { create, newGoods, newMember, newStaff } from '../orders/support';
import { startTestServer } from '../support/harness';
import { shanghaiDate } from '../../../src/domain/time';
import { pdfText } from './pdf-text';
import {
  FIELDS,
  invoiceable,
  invoicePdf,
  invoiceRow,
  issue,
  myInvoices,
  paidOrder,
  refuse,
  requestInvoice,
  staffInvoices,
  TAX_NO,
  TAX_NO_WRONG_CHECK,
} from './support';

/**
 * Invoices (decision 044): every rule and refusal of asking for one (spec §5 title, taxpayer
 * number and address required; the taxpayer number's check character; the optional fields' formats),
 * an order never invoiced twice, another member's ids answering as not found, the staff queue by club,
 * issuing (a real PDF with the CJK font embedded) and refusing, and a refund voiding an issued invoice.
 */
const s = await startTestServer({ seed: true });
const [clubA, clubB] = (await s.deps.db.select({ id: clubs.id }).from(clubs).orderBy(clubs.id)).map((c) => c.id);

const countInvoices = async (accountId: number) =>
  (await s.deps.db.select().from(invoices).where(eq(invoices.accountId, accountId))).length;
const ids = (r: { body: { data: Array<{ id: number }> } }) => r.body.data.map((x) => x.id);

/** The invoice-chart's fonts of a PDF: every FontDescriptor's name and whether it carries an embedded TrueType file. */
function embeddedFonts(doc: PDFDocument): Array<{ name: string; embedded: boolean }> {
  const out: Array<{ name: string; embedded: boolean }> = [];
  for (const [, obj] of doc.context.enumerateIndirectObjects()) {
    if (!(obj instanceof PDFDict) || obj.get(PDFName.of('Type')) !== PDFName.of('FontDescriptor')) continue;
    out.push({ name: String(obj.get(PDFName.of('FontName'))), embedded: obj.get(PDFName.of('FontFile2')) instanceof PDFRef });
  }
  return out;
}

describe('the orders an invoice may be asked for', () => {
  it("lists my paid orders with the money each took, not an unpaid one nor another member's", async () => {
    const m = await newMember(s);
    const other = await newMember(s);
    const o1 = await paidOrder(s, m, 19_900);
    const o2 = await paidOrder(s, m, 5_050);
    await paidOrder(s, other);
    await create(s, m.token, { goodsId: (await newGoods(s)).id });
    const r = await invoiceable(s, m.token);
    expect(r.status).toBe(200);
    expect(r.body.data.map((o: { id: number; amountCents: number }) => [o.id, o.amountCents]).sort()).toEqual(
      [
        [o1.id, 19_900],
        [o2.id, 5_050],
      ].sort(),
    );
    expect(r.body.data[0]).toMatchObject({ orderNo: expect.any(String), goodsName: '20次卡' });
  });
});

describe('asking for an invoice', () => {
  it('keeps the fields trimmed and normalised, totals the orders in cents, and takes them off the list', async () => {
    const m = await newMember(s);
    const o1 = await paidOrder(s, m, 19_900);
    const o2 = await paidOrder(s, m, 5_050);
    const r = await requestInvoice(s, m.token, {
      orderIds: [o1.id, o2.id],
      title: '  上海静心瑜伽文化有限公司 ',
      taxNumber: ` ${TAX_NO.toLowerCase()} `,
      phone: '021-62881234',
      bankName: '招商银行上海分行',
      bankAccount: '6214 8301 2345 6789',
    });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.data).toMatchObject({
      state: 'requested',
      title: '上海静心瑜伽文化有限公司',
      taxNumber: TAX_NO,
      phone: '021-62881234',
      bankAccount: '6214830123456789',
      totalCents: 24_950,
      number: null,
      reason: null,
      hasPdf: false,
    });
    expect(r.body.data.orders.map((o: { id: number }) => o.id)).toEqual([o1.id, o2.id]);
    expect(ids(await invoiceable(s, m.token))).toEqual([]);
    expect(ids(await myInvoices(s, m.token))).toEqual([r.body.data.id]);
  });

  it('takes a mobile phone and leaves the optional fields out when blank', async () => {
    const m = await newMember(s);
    const o = await paidOrder(s, m);
    const r = await requestInvoice(s, m.token, { orderIds: [o.id], phone: '13912345678', bankName: ' ', bankAccount: '' });
    expect(r.status).toBe(200);
    expect(r.body.data).toMatchObject({ phone: '13912345678', bankName: null, bankAccount: null });
  });

  it.each([
    ['title empty once trimmed', { title: '   ' }, 70180, 'title'],
    ['taxpayer number too short', { taxNumber: '91350100M000100Y4' }, 70181, 'taxNumber'],
    ['taxpayer number with a letter the code never uses (O)', { taxNumber: '91350100M000100O43' }, 70181, 'taxNumber'],
    ['taxpayer number well-formed but with a wrong check character', { taxNumber: TAX_NO_WRONG_CHECK }, 70182, 'taxNumber'],
    ['taxpayer number empty', { taxNumber: '' }, 70181, 'taxNumber'],
    ['address empty once trimmed', { address: ' ' }, 70183, 'address'],
    ['phone that is neither a mobile nor a landline', { phone: '12345' }, 70184, 'phone'],
    ['bank account with letters', { bankAccount: '6214abc' }, 70185, 'bankAccount'],
    ['bank account too short', { bankAccount: '1234567' }, 70185, 'bankAccount'],
    ['title too long', { title: '长'.repeat(101) }, 70003, 'title'],
    ['bank name too long', { bankName: '行'.repeat(51) }, 70003, 'bankName'],
    ['title missing', { title: undefined }, 70003, 'title'],
  ])('refuses a %s, naming the field, and writes nothing', async (_what, over, code, field) => {
    const m = await newMember(s);
    const o = await paidOrder(s, m);
    const r = await requestInvoice(s, m.token, { orderIds: [o.id], ...over });
    expect([r.status, r.body.code]).toEqual([400, code]);
    expect(JSON.stringify(r.body)).toContain(field);
    expect(await countInvoices(m.id)).toBe(0);
  });

  it("names the field in the member's language (en)", async () => {
    const m = await newMember(s);
    const o = await paidOrder(s, m);
    const r = await requestInvoice(s, m.token, { orderIds: [o.id], taxNumber: TAX_NO_WRONG_CHECK }, { cookie: 'lang=en' });
    expect(r.body.code).toBe(70182);
    expect(r.body.message).toMatch(/check/i);
  });

  it.each([
    ['no order', [], 400, 70003],
    ['an order that does not exist', [2_147_483_000], 404, 70004],
  ])('refuses %s (naming orderIds)', async (_what, orderIds, status, code) => {
    const m = await newMember(s);
    const r = await requestInvoice(s, m.token, { orderIds });
    expect([r.status, r.body.code]).toEqual([status, code]);
    expect(JSON.stringify(r.body)).toContain('orderIds');
  });

  it("answers another member's order as not found, even beside one of mine, and writes nothing", async () => {
    const m = await newMember(s);
    const other = await newMember(s);
    const mine = await paidOrder(s, m);
    const theirs = await paidOrder(s, other);
    const r = await requestInvoice(s, m.token, { orderIds: [mine.id, theirs.id] });
    expect([r.status, r.body.code]).toEqual([404, 70004]);
    expect(await countInvoices(m.id)).toBe(0);
    expect(ids(await invoiceable(s, other.token))).toEqual([theirs.id]);
  });

  it('refuses an unpaid order (70186)', async () => {
    const m = await newMember(s);
    const no = (await create(s, m.token, { goodsId: (await newGoods(s)).id })).body.data.orderNo as string;
    const [o] = await s.deps.db.select().from(orders).where(eq(orders.orderNo, no));
    expect(o!.state).toBe('unpaid');
    const r = await requestInvoice(s, m.token, { orderIds: [o!.id] });
    expect([r.status, r.body.code]).toEqual([409, 70186]);
    expect(await countInvoices(m.id)).toBe(0);
  });

  it('never invoices an order twice: a second request for it, alone or with another order, is 70187 and writes nothing', async () => {
    const m = await newMember(s);
    const o1 = await paidOrder(s, m);
    const o2 = await paidOrder(s, m);
    expect((await requestInvoice(s, m.token, { orderIds: [o1.id] })).status).toBe(200);
    const again = await requestInvoice(s, m.token, { orderIds: [o1.id] });
    expect([again.status, again.body.code]).toEqual([409, 70187]);
    const mixed = await requestInvoice(s, m.token, { orderIds: [o2.id, o1.id] });
    expect([mixed.status, mixed.body.code]).toEqual([409, 70187]);
    expect(await countInvoices(m.id)).toBe(1);
    expect(ids(await invoiceable(s, m.token))).toEqual([o2.id]);
  });

  it('a double tap with one Idempotency-Key makes one request and answers the same twice', async () => {
    const m = await newMember(s);
    const o = await paidOrder(s, m);
    const key = { 'Idempotency-Key': 'invoice-double-tap-0001' };
    const first = await requestInvoice(s, m.token, { orderIds: [o.id] }, key);
    const second = await requestInvoice(s, m.token, { orderIds: [o.id] }, key);
    expect(first.status).toBe(200);
    expect(second.body).toEqual(first.body);
    expect(await countInvoices(m.id)).toBe(1);
  });
});

describe('staff issue or refuse', () => {
  it('issue: number FP + Shanghai date + id, a PDF with the CJK font embedded, the member notified and able to download it', async () => {
    const m = await newMember(s);
    const staff = await newStaff(s);
    const o = await paidOrder(s, m, 19_900, clubA);
    const id = (await requestInvoice(s, m.token, { orderIds: [o.id] })).body.data.id as number;
    expect(ids(await staffInvoices(s, staff.token))).toContain(id);
    const r = await issue(s, staff.token, id);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const today = s.clock.now();
    const row = await invoiceRow(s, id);
    expect(row).toMatchObject({ state: 'issued', decidedBy: staff.id });
    expect(row.number).toMatch(/^FP\d{8}\d{8}$/);
    expect(row.number!.endsWith(String(id).padStart(8, '0'))).toBe(true);
    expect(row.decidedAt).toEqual(today);
    expect(ids(await staffInvoices(s, staff.token))).not.toContain(id);
    const mine = (await myInvoices(s, m.token)).body.data[0];
    expect(mine).toMatchObject({ id, state: 'issued', number: row.number, hasPdf: true });
    const [notice] = await s.deps.db.select().from(notifications).where(eq(notifications.accountId, m.id));
    expect(notice?.body).toContain(row.number!);

    const pdf = await invoicePdf(s, m.token, id);
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get('content-type')).toBe('application/pdf');
    const bytes = new Uint8Array(await pdf.arrayBuffer());
    expect(Buffer.from(bytes.slice(0, 5)).toString()).toBe('%PDF-');
    const doc = await PDFDocument.load(bytes);
    expect(doc.getPageCount()).toBe(1);
    expect(doc.getTitle()).toContain(row.number!);
    const fonts = embeddedFonts(doc);
    expect(
      fonts.some((f) => f.name.includes('DroidSansFallback') && f.embedded),
      JSON.stringify(fonts),
    ).toBe(true);
    // a subset: far smaller than the 4 MB font
    expect(bytes.length).toBeLessThan(200_000);
    // what a reader extracts: every character drawn with a glyph, the Chinese and the digits alike
    const text = (await pdfText(bytes)).join('');
    expect(text).not.toMatch(/[\uFFFD\uFFFF]/);
    for (const shown of [FIELDS.title, TAX_NO, FIELDS.address, row.number!, o.orderNo, '20次卡', '¥199', '合计', shanghaiDate(today)])
      expect(text, shown).toContain(shown);
  });

  it("the PDF is only mine and only once issued: not issued, another member's, or absent all answer 404", async () => {
    const m = await newMember(s);
    const other = await newMember(s);
    const staff = await newStaff(s);
    const id = (await requestInvoice(s, m.token, { orderIds: [(await paidOrder(s, m)).id] })).body.data.id as number;
    expect((await invoicePdf(s, m.token, id)).status).toBe(404);
    await issue(s, staff.token, id);
    expect((await invoicePdf(s, m.token, id)).status).toBe(200);
    const theirs = await invoicePdf(s, other.token, id);
    const absent = await invoicePdf(s, other.token, 2_147_483_000);
    expect([theirs.status, (await theirs.json()).code]).toEqual([404, 70004]);
    expect([absent.status, (await absent.json()).code]).toEqual([404, 70004]);
  });

  it('refuse: the reason kept and shown, the member notified, the orders may be asked for again', async () => {
    const m = await newMember(s);
    const staff = await newStaff(s);
    const o = await paidOrder(s, m);
    const id = (await requestInvoice(s, m.token, { orderIds: [o.id] })).body.data.id as number;
    const r = await refuse(s, staff.token, id, '  抬头与营业执照不符 ');
    expect(r.status).toBe(200);
    expect(await invoiceRow(s, id)).toMatchObject({
      state: 'refused',
      reason: '抬头与营业执照不符',
      decidedBy: staff.id,
      number: null,
      pdf: null,
    });
    expect((await myInvoices(s, m.token)).body.data[0]).toMatchObject({ state: 'refused', reason: '抬头与营业执照不符', hasPdf: false });
    expect((await invoicePdf(s, m.token, id)).status).toBe(404);
    expect(ids(await invoiceable(s, m.token))).toEqual([o.id]);
    expect((await requestInvoice(s, m.token, { orderIds: [o.id] })).status).toBe(200);
  });

  it('refuses an empty reason (70189, naming reason) and a second decision (70188)', async () => {
    const m = await newMember(s);
    const staff = await newStaff(s);
    const id = (await requestInvoice(s, m.token, { orderIds: [(await paidOrder(s, m)).id] })).body.data.id as number;
    const empty = await refuse(s, staff.token, id, '  ');
    expect([empty.status, empty.body.code]).toEqual([400, 70189]);
    expect(JSON.stringify(empty.body)).toContain('reason');
    expect((await issue(s, staff.token, id)).status).toBe(200);
    const twice = await issue(s, staff.token, id);
    expect([twice.status, twice.body.code]).toEqual([409, 70188]);
    const late = await refuse(s, staff.token, id, '太晚了');
    expect([late.status, late.body.code]).toEqual([409, 70188]);
    expect((await invoiceRow(s, id)).state).toBe('issued');
  });

  it("staff see and decide only their clubs' requests (and those spanning clubs); a member is 403", async () => {
    const m = await newMember(s);
    const staffA = await newStaff(s);
    await assignClubs(s, staffA.id, [clubA!]);
    const ofB = (await requestInvoice(s, m.token, { orderIds: [(await paidOrder(s, m, 100, clubB)).id] })).body.data.id as number;
    const spanning = (
      await requestInvoice(s, m.token, { orderIds: [(await paidOrder(s, m, 100, clubA)).id, (await paidOrder(s, m, 100, clubB)).id] })
    ).body.data.id as number;
    const queue = ids(await staffInvoices(s, staffA.token));
    expect(queue).toContain(spanning);
    expect(queue).not.toContain(ofB);
    const outside = await issue(s, staffA.token, ofB);
    expect([outside.status, outside.body.code]).toEqual([404, 70004]);
    expect((await invoiceRow(s, ofB)).state).toBe('requested');
    const member = await staffInvoices(s, m.token);
    expect([member.status, member.body.code]).toEqual([403, 70008]);
    expect((await issue(s, m.token, ofB)).status).toBe(403);
  });
});

describe('a refund voids the invoice', () => {
  it('a completed refund of an order voids its issued invoice in the same transaction: the PDF is no longer offered', async () => {
    const staff = await newStaff(s);
    const b = await boughtCard(s);
    const id = (await requestInvoice(s, b.m.token, { orderIds: [b.order.id] })).body.data.id as number;
    expect((await issue(s, staff.token, id)).status).toBe(200);
    const refundId = (await askRefund(s, b.m.token, b.card.id)).body.data.id as number;
    expect((await staffRefund(s, staff.token, 'approve', refundId)).status).toBe(200);
    const row = await invoiceRow(s, id);
    expect(row.state).toBe('voided');
    expect(row.voidedAt).toEqual(s.clock.now());
    expect((await myInvoices(s, b.m.token)).body.data[0]).toMatchObject({ state: 'voided', hasPdf: false });
    expect((await invoicePdf(s, b.m.token, id)).status).toBe(404);
    expect(ids(await invoiceable(s, b.m.token))).toEqual([]);
  });

  it('a request not yet issued whose order was refunded cannot be issued (70186); staff refuse it', async () => {
    const staff = await newStaff(s);
    const b = await boughtCard(s);
    const id = (await requestInvoice(s, b.m.token, { orderIds: [b.order.id] })).body.data.id as number;
    const refundId = (await askRefund(s, b.m.token, b.card.id)).body.data.id as number;
    expect((await staffRefund(s, staff.token, 'approve', refundId)).status).toBe(200);
    expect((await invoiceRow(s, id)).state).toBe('requested');
    const r = await issue(s, staff.token, id);
    expect([r.status, r.body.code]).toEqual([409, 70186]);
    expect((await refuse(s, staff.token, id, '订单已退款')).status).toBe(200);
    expect(ids(await invoiceable(s, b.m.token))).toEqual([]);
  });
});

it('the fields the member fills are those of spec §3', () => {
  expect(Object.keys(FIELDS)).toEqual(['title', 'taxNumber', 'address']);
});
