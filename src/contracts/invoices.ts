import { z } from '@hono/zod-openapi';
import {
  INVOICE_ADDRESS_MAX,
  INVOICE_BANK_NAME_MAX,
  INVOICE_MAX_ORDERS,
  INVOICE_REASON_MAX,
  INVOICE_STATE_VALUES,
  INVOICE_TITLE_MAX,
} from '../domain/invoice';
import { IdField, IdParam } from './common';

/** Invoices (spec §3 invoice: title, tax number, address, phone, bank name, account; §5; decision 044). */

const IsoTime = z.string().openapi({ example: '2026-11-20T02:00:00.000Z' });
/** An optional text field: absent, null or blank all mean "not given". */
const Optional = (max: number) => z.string().max(max).nullable().optional();

/** POST /customers/invoices: one invoice over one or more of my paid orders not yet invoiced. */
export const InvoiceRequestBody = z
  .object({
    orderIds: z.array(IdField).min(1).max(INVOICE_MAX_ORDERS).openapi({
      description:
        "my paid orders not yet invoiced (70186 not paid or refunded, 70187 invoiced or asked for already; another member's 404)",
    }),
    title: z.string().max(INVOICE_TITLE_MAX).openapi({ description: 'the company name; 70180 when empty once trimmed' }),
    taxNumber: z.string().max(40).openapi({
      description: 'the 18-character unified social credit code (70181 shape, 70182 check character)',
      example: '91350100M000100Y43',
    }),
    address: z.string().max(INVOICE_ADDRESS_MAX).openapi({ description: '70183 when empty once trimmed' }),
    phone: Optional(30).openapi({ description: 'a mobile or a landline with its area code (70184)' }),
    bankName: Optional(INVOICE_BANK_NAME_MAX),
    bankAccount: Optional(40).openapi({ description: '8 to 30 digits, spaces allowed (70185)' }),
  })
  .openapi('InvoiceRequest');
export type InvoiceRequestBody = z.input<typeof InvoiceRequestBody>;

/** POST /staff/invoices/issue. */
export const InvoiceIssueBody = z.object({ id: IdField }).openapi('InvoiceIssue');
/** POST /staff/invoices/refuse: the reason the member reads (70189 when empty once trimmed). */
export const InvoiceRefuseBody = z.object({ id: IdField, reason: z.string().max(INVOICE_REASON_MAX) }).openapi('InvoiceRefuse');

/** GET /customers/invoices/{id}/pdf. */
export const InvoicePath = z.object({ id: IdParam.openapi({ param: { name: 'id', in: 'path' }, example: 1 }) });

/** One of my paid orders an invoice may be asked for. */
export const InvoiceableOrder = z
  .object({
    id: z.number().int(),
    orderNo: z.string(),
    goodsName: z.string(),
    amountCents: z.number().int().openapi({ description: 'what the order took in money (its price less the coupon), the invoice amount' }),
    paidAt: IsoTime.nullable(),
  })
  .openapi('InvoiceableOrder');
export type InvoiceableOrder = z.infer<typeof InvoiceableOrder>;

/** An invoice request as its member sees it. */
export const MyInvoice = z
  .object({
    id: z.number().int(),
    state: z.enum(INVOICE_STATE_VALUES),
    title: z.string(),
    taxNumber: z.string(),
    address: z.string(),
    phone: z.string().nullable(),
    bankName: z.string().nullable(),
    bankAccount: z.string().nullable(),
    orders: z.array(z.object({ id: z.number().int(), orderNo: z.string(), goodsName: z.string(), amountCents: z.number().int() })),
    totalCents: z.number().int(),
    number: z.string().nullable().openapi({ description: 'set when issued' }),
    reason: z.string().nullable().openapi({ description: 'why staff refused it' }),
    issuedAt: IsoTime.nullable(),
    hasPdf: z.boolean().openapi({ description: 'issued (not voided): the PDF can be downloaded' }),
    createdAt: IsoTime,
  })
  .openapi('MyInvoice');
export type MyInvoice = z.infer<typeof MyInvoice>;

/** A request in the staff queue (or one just decided). */
export const StaffInvoice = MyInvoice.extend({ memberPhone: z.string(), clubName: z.string().nullable() }).openapi('StaffInvoice');
export type StaffInvoice = z.infer<typeof StaffInvoice>;
