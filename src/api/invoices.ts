import type { InvoiceableOrder, MyInvoice, StaffInvoice } from '../contracts/invoices';
import type { InvoiceFields } from '../domain/invoice';
import type { ApiClient } from './client';

// The answers are the server's own schemas, inferred (src/contracts/invoices.ts): they cannot drift.
export type { InvoiceableOrder, MyInvoice, StaffInvoice };

/** Invoices (decision 044): my paid orders not yet invoiced, my requests and their PDFs; the staff queue, issue and refuse. */
export function invoiceCalls(http: ApiClient) {
  return {
    orders: () => http.get<InvoiceableOrder[]>('/customers/invoices/orders'),
    mine: () => http.get<MyInvoice[]>('/customers/invoices'),
    request: (body: InvoiceFields & { orderIds: number[] }, idempotencyKey: string) =>
      http.post<MyInvoice>('/customers/invoices', { body, idempotencyKey }),
    staffQueue: () => http.get<StaffInvoice[]>('/staff/invoices'),
    staffIssue: (id: number, idempotencyKey: string) => http.post<StaffInvoice>('/staff/invoices/issue', { body: { id }, idempotencyKey }),
    staffRefuse: (id: number, reason: string, idempotencyKey: string) =>
      http.post<StaffInvoice>('/staff/invoices/refuse', { body: { id, reason }, idempotencyKey }),
  };
}
