import { and, asc, desc, eq, inArray, isNull, or, sql } from 'drizzle-orm';
import { HOLDS_ORDERS_STATES, INVOICE_INITIAL, nextInvoiceState, type InvoiceState } from '../../../../machines/domain/invoice-transitions';
import type { InvoiceEvent } from '../../../../machines/domain/invoice.machine';
import { INVOICEABLE_STATES } from '../../../../machines/domain/order-transitions';
import type { Clock } from '../../../domain/clock';
import { Errors } from '../../../domain/errors';
import { invoiceFieldProblems, invoiceNumber, normalBankAccount, normalTaxNumber, type InvoiceFields } from '../../../domain/invoice';
import { shanghaiDate } from '../../../domain/time';
import type { InvoiceableOrder, MyInvoice, StaffInvoice } from '../../../contracts/invoices';
import type { Db, Tx } from '../../db/client';
import { accounts, clubs, goods, invoiceOrders, invoices, notifications, orders } from '../../db/schema/index';
import { stateIn } from '../../db/state-checks';
import { ApiError } from '../../http/api-error';
import type { Locale } from '../../i18n';
import { loc } from '../catalog';
import { staffClubsOf } from '../staff/staff-clubs';
import { invoiceDecidedNotice } from './notices';
import type { Audit } from '../staff-audit/audit-log';

type InvoiceRow = typeof invoices.$inferSelect;

/** What an order adds to an invoice: the money it took (its price less the coupon; balance is money too). */
const amountOf = (o: { priceCents: number; couponDeductionCents: number }) => o.priceCents - o.couponDeductionCents;

/** An order no live request holds (a refused one released it). */
const notHeld = sql`not exists (select 1 from ${invoiceOrders} where ${invoiceOrders.orderId} = ${orders.id} and ${invoiceOrders.releasedAt} is null)`;

/** My paid orders not yet invoiced or asked for, newest paid first. */
export async function invoiceableOrders(db: Db, accountId: number, locale: Locale): Promise<InvoiceableOrder[]> {
  const rows = await db
    .select({ o: orders, name: goods.name, nameEn: goods.nameEn })
    .from(orders)
    .innerJoin(goods, eq(goods.id, orders.goodsId))
    .where(and(eq(orders.accountId, accountId), stateIn(orders.state, INVOICEABLE_STATES), notHeld))
    .orderBy(desc(orders.paidAt), desc(orders.id))
    .limit(100);
  return rows.map(({ o, name, nameEn }) => ({
    id: o.id,
    orderNo: o.orderNo,
    goodsName: loc(locale, name, nameEn),
    amountCents: amountOf(o),
    paidAt: o.paidAt?.toISOString() ?? null,
  }));
}

export interface InvoiceInput extends InvoiceFields {
  orderIds: number[];
}

/** PostgreSQL's unique violation of the one-live-request-per-order index, possibly wrapped by drizzle. */
function heldElsewhere(err: unknown): boolean {
  for (let e: unknown = err; e && typeof e === 'object'; e = (e as { cause?: unknown }).cause) {
    if (
      (e as { code?: unknown }).code === '23505' &&
      String(
        (e as { constraint_name?: unknown; constraint?: unknown }).constraint_name ??
          (e as { constraint?: unknown }).constraint ??
          (e as Error).message,
      ).includes('invoice_orders_held')
    )
      return true;
  }
  return false;
}

/**
 * Asks for one invoice over some of my orders (spec §5 title, taxpayer number and address required):
 * the fields checked in the form's order, each refusal naming its field (70180-70185); the orders
 * locked (in id order, so two requests cannot deadlock) and each mine (404 naming `orderIds`), paid and
 * not being refunded (70186), and held by no live request (70187). The partial unique index on
 * `invoice_orders` is the backstop: a second request that slipped past is the same 70187, never a 500.
 */
export async function requestInvoice(db: Db, clock: Clock, accountId: number, input: InvoiceInput): Promise<InvoiceRow> {
  const [problem] = invoiceFieldProblems(input);
  if (problem) throw new ApiError(Errors[problem.problem], { field: problem.field });
  const orderIds = [...new Set(input.orderIds)].sort((a, b) => a - b);
  const blank = (v: string | null | undefined) => (v == null || v.trim() === '' ? null : v.trim());
  try {
    return await db.transaction(async (tx) => {
      const rows = await tx
        .select({ o: orders, clubId: goods.clubId })
        .from(orders)
        .innerJoin(goods, eq(goods.id, orders.goodsId))
        .where(inArray(orders.id, orderIds))
        .orderBy(asc(orders.id))
        .for('update', { of: orders });
      if (rows.length !== orderIds.length || rows.some((r) => r.o.accountId !== accountId))
        throw new ApiError(Errors.notFound, { field: 'orderIds' });
      if (rows.some((r) => !INVOICEABLE_STATES.includes(r.o.state))) throw new ApiError(Errors.invoiceOrderNotPaid, { field: 'orderIds' });
      const held = await tx
        .select({ id: invoiceOrders.orderId })
        .from(invoiceOrders)
        .where(and(inArray(invoiceOrders.orderId, orderIds), isNull(invoiceOrders.releasedAt)));
      if (held.length > 0) throw new ApiError(Errors.invoiceOrderInvoiced, { field: 'orderIds' });
      const clubIds = [...new Set(rows.map((r) => r.clubId))];
      const [row] = await tx
        .insert(invoices)
        .values({
          accountId,
          clubId: clubIds.length === 1 ? clubIds[0]! : null,
          state: INVOICE_INITIAL,
          title: input.title.trim(),
          taxNumber: normalTaxNumber(input.taxNumber),
          address: input.address.trim(),
          phone: blank(input.phone),
          bankName: blank(input.bankName),
          bankAccount: blank(input.bankAccount) === null ? null : normalBankAccount(input.bankAccount!),
          totalCents: rows.reduce((n, r) => n + amountOf(r.o), 0),
          createdAt: clock.now(),
        })
        .returning();
      await tx.insert(invoiceOrders).values(rows.map((r) => ({ invoiceId: row!.id, orderId: r.o.id, amountCents: amountOf(r.o) })));
      return row!;
    });
  } catch (err) {
    if (heldElsewhere(err)) throw new ApiError(Errors.invoiceOrderInvoiced, { field: 'orderIds' });
    throw err;
  }
}

interface Joined {
  i: InvoiceRow;
  memberPhone: string;
  clubName: string | null;
  clubNameEn: string | null;
}

const select = (db: Db | Tx) =>
  db
    .select({ i: invoices, memberPhone: accounts.phone, clubName: clubs.name, clubNameEn: clubs.nameEn })
    .from(invoices)
    .innerJoin(accounts, eq(accounts.id, invoices.accountId))
    .leftJoin(clubs, eq(clubs.id, invoices.clubId));

type Line = MyInvoice['orders'][number];

async function linesOf(db: Db | Tx, ids: number[], locale: Locale): Promise<Map<number, Line[]>> {
  const out = new Map<number, Line[]>();
  if (ids.length === 0) return out;
  const rows = await db
    .select({
      invoiceId: invoiceOrders.invoiceId,
      amountCents: invoiceOrders.amountCents,
      id: orders.id,
      orderNo: orders.orderNo,
      name: goods.name,
      nameEn: goods.nameEn,
    })
    .from(invoiceOrders)
    .innerJoin(orders, eq(orders.id, invoiceOrders.orderId))
    .innerJoin(goods, eq(goods.id, orders.goodsId))
    .where(inArray(invoiceOrders.invoiceId, ids))
    .orderBy(asc(orders.id));
  for (const r of rows)
    out.set(r.invoiceId, [
      ...(out.get(r.invoiceId) ?? []),
      { id: r.id, orderNo: r.orderNo, goodsName: loc(locale, r.name, r.nameEn), amountCents: r.amountCents },
    ]);
  return out;
}

const memberView = ({ i }: Joined, lines: Line[]): MyInvoice => ({
  id: i.id,
  state: i.state,
  title: i.title,
  taxNumber: i.taxNumber,
  address: i.address,
  phone: i.phone,
  bankName: i.bankName,
  bankAccount: i.bankAccount,
  orders: lines,
  totalCents: i.totalCents,
  number: i.number,
  reason: i.reason,
  issuedAt: i.number !== null ? (i.decidedAt?.toISOString() ?? null) : null,
  hasPdf: i.state === 'issued',
  createdAt: i.createdAt.toISOString(),
});

const staffView = (j: Joined, lines: Line[], locale: Locale): StaffInvoice => ({
  ...memberView(j, lines),
  memberPhone: j.memberPhone,
  clubName: j.clubName === null ? null : loc(locale, j.clubName, j.clubNameEn),
});

/** My invoice requests, newest first, each with its state, its number or the reason it was refused. */
export async function myInvoices(db: Db, accountId: number, locale: Locale): Promise<MyInvoice[]> {
  const rows = await select(db).where(eq(invoices.accountId, accountId)).orderBy(desc(invoices.id)).limit(100);
  const lines = await linesOf(
    db,
    rows.map((r) => r.i.id),
    locale,
  );
  return rows.map((r) => memberView(r, lines.get(r.i.id) ?? []));
}

/** One of my requests; another member's is 404, never 403. */
export async function myInvoice(db: Db, accountId: number, id: number, locale: Locale): Promise<MyInvoice> {
  const [row] = await select(db).where(and(eq(invoices.id, id), eq(invoices.accountId, accountId)));
  if (!row) throw new ApiError(Errors.notFound, { field: 'id' });
  return memberView(row, (await linesOf(db, [id], locale)).get(id) ?? []);
}

/** The PDF of one of my issued invoices (a voided one is not offered); anything else, another member's included, is 404. */
export async function myInvoicePdf(db: Db, accountId: number, id: number): Promise<{ number: string; pdf: Buffer }> {
  const [row] = await db
    .select({ number: invoices.number, pdf: invoices.pdf })
    .from(invoices)
    .where(and(eq(invoices.id, id), eq(invoices.accountId, accountId), eq(invoices.state, 'issued')));
  if (!row?.pdf || !row.number) throw new ApiError(Errors.notFound, { field: 'id' });
  return { number: row.number, pdf: row.pdf };
}

/** A staff member's requests: their clubs' and those of no one club (every one for chain-wide staff). */
const inScope = (scope: number[] | null) => (scope === null ? undefined : or(isNull(invoices.clubId), inArray(invoices.clubId, scope)));

/** A staff member's queue: the requests of their clubs waiting to be issued or refused, oldest first. */
export async function invoicesForStaff(db: Db, staffId: number, locale: Locale): Promise<StaffInvoice[]> {
  const rows = await select(db)
    .where(and(eq(invoices.state, INVOICE_INITIAL), inScope(await staffClubsOf(db, staffId))))
    .orderBy(asc(invoices.id))
    .limit(100);
  const lines = await linesOf(
    db,
    rows.map((r) => r.i.id),
    locale,
  );
  return rows.map((r) => staffView(r, lines.get(r.i.id) ?? [], locale));
}

/** One request a staff member may see (404 outside their clubs). */
export async function staffInvoice(db: Db, staffId: number, id: number, locale: Locale): Promise<StaffInvoice> {
  const [row] = await select(db).where(and(eq(invoices.id, id), inScope(await staffClubsOf(db, staffId))));
  if (!row) throw new ApiError(Errors.notFound, { field: 'id' });
  return staffView(row, (await linesOf(db, [id], locale)).get(id) ?? [], locale);
}

/** The request locked for a staff decision, and where the chart moves it (404 outside the staff member's clubs, 70188 when the chart refuses). */
async function lockForStaff(
  tx: Tx,
  staffId: number,
  id: number,
  event: InvoiceEvent['type'],
): Promise<{ i: InvoiceRow; state: InvoiceState }> {
  const scope = await staffClubsOf(tx, staffId);
  const [i] = await tx.select().from(invoices).where(eq(invoices.id, id)).for('update');
  if (!i || !(scope === null || i.clubId === null || scope.includes(i.clubId))) throw new ApiError(Errors.notFound, { field: 'id' });
  const state = nextInvoiceState(i.state, event);
  if (!state) throw new ApiError(Errors.invoiceNotInState);
  return { i, state };
}

/**
 * Staff issue a request of their clubs: its orders must still be paid and not being refunded (70186:
 * refuse it instead); the number (decision 044) and the PDF are written in the same transaction as the
 * state, and the member is notified.
 */
export async function issueInvoice(db: Db, clock: Clock, staffId: number, id: number, audit?: Audit): Promise<InvoiceRow> {
  // pdf-lib and its font engine load with the first invoice, not at every server start (0.1-0.2 s of
  // CPU), and before the request's rows are locked
  const { invoicePdf } = await import('./pdf');
  return db.transaction(async (tx) => {
    const now = clock.now();
    const { i, state } = await lockForStaff(tx, staffId, id, 'invoice.issue');
    const lines = await tx
      .select({ orderNo: orders.orderNo, state: orders.state, name: goods.name, amountCents: invoiceOrders.amountCents })
      .from(invoiceOrders)
      .innerJoin(orders, eq(orders.id, invoiceOrders.orderId))
      .innerJoin(goods, eq(goods.id, orders.goodsId))
      .where(eq(invoiceOrders.invoiceId, id))
      .orderBy(asc(orders.id))
      .for('update', { of: orders });
    if (lines.some((l) => !INVOICEABLE_STATES.includes(l.state))) throw new ApiError(Errors.invoiceOrderNotPaid, { field: 'id' });
    const number = invoiceNumber(shanghaiDate(now), i.id);
    const pdf = await invoicePdf({
      ...i,
      number,
      issuedOn: shanghaiDate(now),
      orders: lines.map((l) => ({ orderNo: l.orderNo, name: l.name, amountCents: l.amountCents })),
    });
    const [row] = await tx
      .update(invoices)
      .set({ state, number, pdf, decidedBy: staffId, decidedAt: now })
      .where(and(eq(invoices.id, id), eq(invoices.state, i.state)))
      .returning();
    await tx.insert(notifications).values({ accountId: i.accountId, createdAt: now, ...invoiceDecidedNotice(true, number) });
    await audit?.(tx, { action: 'invoice.issue', subjectKind: 'invoice', subjectId: id });
    return row!;
  });
}

/** Staff refuse a request of their clubs with the reason the member reads (70189 empty); its orders are released to be asked for again. */
export async function refuseInvoice(db: Db, clock: Clock, staffId: number, id: number, reason: string, audit?: Audit): Promise<InvoiceRow> {
  const text = reason.trim();
  if (text === '') throw new ApiError(Errors.invoiceReasonEmpty, { field: 'reason' });
  return db.transaction(async (tx) => {
    const now = clock.now();
    const { i, state } = await lockForStaff(tx, staffId, id, 'invoice.refuse');
    const [row] = await tx
      .update(invoices)
      .set({ state, reason: text, decidedBy: staffId, decidedAt: now })
      .where(and(eq(invoices.id, id), eq(invoices.state, i.state)))
      .returning();
    if (!HOLDS_ORDERS_STATES.includes(state))
      await tx
        .update(invoiceOrders)
        .set({ releasedAt: now })
        .where(and(eq(invoiceOrders.invoiceId, id), isNull(invoiceOrders.releasedAt)));
    await tx.insert(notifications).values({ accountId: i.accountId, createdAt: now, ...invoiceDecidedNotice(false, text) });
    await audit?.(tx, { action: 'invoice.refuse', subjectKind: 'invoice', subjectId: id, reason: text });
    return row!;
  });
}

/**
 * A refund of `orderId` completed (the order chart reached refunded): the issued invoice holding it is
 * voided by the chart, in the refund's transaction (the caller holds the order's lock). A request not
 * yet issued stays for staff, who cannot issue it (70186) and refuse it.
 */
export async function voidInvoicesOfOrder(tx: Tx, now: Date, orderId: number): Promise<void> {
  const held = await tx
    .select({ id: invoices.id, state: invoices.state })
    .from(invoiceOrders)
    .innerJoin(invoices, eq(invoices.id, invoiceOrders.invoiceId))
    .where(and(eq(invoiceOrders.orderId, orderId), isNull(invoiceOrders.releasedAt)))
    .for('update', { of: invoices });
  for (const h of held) {
    const state = nextInvoiceState(h.state, 'invoice.void');
    if (state)
      await tx
        .update(invoices)
        .set({ state, voidedAt: now })
        .where(and(eq(invoices.id, h.id), eq(invoices.state, h.state)));
  }
}
