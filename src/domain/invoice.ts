/**
 * Invoice rules shared by the server and the app (spec §3 invoice fields, §5 title, taxpayer number and
 * address required; decision 044). Pure: no imports of ours.
 */

/** The stored states of an invoice request (the invoice chart's; the state-checks test keeps them equal). */
export const INVOICE_STATE_VALUES = ['requested', 'issued', 'refused', 'voided'] as const;

/** The longest title, address and bank name (characters), and the most orders on one invoice. */
export const INVOICE_TITLE_MAX = 100;
export const INVOICE_ADDRESS_MAX = 120;
export const INVOICE_BANK_NAME_MAX = 50;
export const INVOICE_REASON_MAX = 200;
export const INVOICE_MAX_ORDERS = 20;

/** What is wrong with a taxpayer number, so a form can say which: its shape or its check character. */
export type TaxNumberProblem = 'format' | 'checkDigit';

/** GB 32100-2015: the 31 characters a unified social credit code is written in (no I, O, S, V, Z). */
const USCC_CHARS = '0123456789ABCDEFGHJKLMNPQRTUWXY';
const USCC_WEIGHTS = [1, 3, 9, 27, 19, 26, 16, 17, 20, 29, 25, 13, 8, 24, 10, 30, 28];
const USCC_SHAPE = /^[0-9A-HJ-NPQRTUWXY]{2}\d{6}[0-9A-HJ-NPQRTUWXY]{10}$/;

/** A taxpayer number as stored and compared: trimmed, upper case. */
export const normalTaxNumber = (n: string): string => n.trim().toUpperCase();

/**
 * A taxpayer number: the 18-character unified social credit code (GB 32100-2015): two code characters,
 * six digits of the administrative division, nine of the organisation code, and a check character
 * computed from the first 17 (weights 3^i mod 31). Null when it is right.
 */
export function taxNumberProblem(raw: string): TaxNumberProblem | null {
  const s = normalTaxNumber(raw);
  if (!USCC_SHAPE.test(s)) return 'format';
  const sum = USCC_WEIGHTS.reduce((acc, w, i) => acc + w * USCC_CHARS.indexOf(s[i]!), 0);
  return USCC_CHARS[(31 - (sum % 31)) % 31] === s[17] ? null : 'checkDigit';
}

/** An invoice phone: a mobile number, a landline with its area code (an extension allowed), or a 400 number. */
export function validInvoicePhone(raw: string): boolean {
  return /^(1[3-9]\d{9}|0\d{2,3}-?\d{7,8}(-\d{1,6})?|400-?\d{3}-?\d{4})$/.test(raw.trim());
}

/** A bank account as stored: digits only (members type it in groups of four). */
export const normalBankAccount = (raw: string): string => raw.replace(/[\s-]/g, '');

/** A bank account: 8 to 30 digits once spaces and dashes are taken out. */
export function validBankAccount(raw: string): boolean {
  return /^\d{8,30}$/.test(normalBankAccount(raw));
}

/** The fields a member fills in, as the form and the server check them. */
export interface InvoiceFields {
  title: string;
  taxNumber: string;
  address: string;
  phone?: string | null;
  bankName?: string | null;
  bankAccount?: string | null;
}

/** What is wrong with one field of an invoice request (the error name the server answers with). */
export type InvoiceFieldProblem =
  | { field: 'title'; problem: 'invoiceTitleEmpty' }
  | { field: 'taxNumber'; problem: 'taxNumberFormat' | 'taxNumberCheckDigit' }
  | { field: 'address'; problem: 'invoiceAddressEmpty' }
  | { field: 'phone'; problem: 'invoicePhoneInvalid' }
  | { field: 'bankAccount'; problem: 'invoiceBankAccountInvalid' };

/** Every problem of the fields, in the form's order (title, taxpayer number, address, phone, bank account); empty when they are right. */
export function invoiceFieldProblems(f: InvoiceFields): InvoiceFieldProblem[] {
  const out: InvoiceFieldProblem[] = [];
  if (f.title.trim() === '') out.push({ field: 'title', problem: 'invoiceTitleEmpty' });
  const tax = taxNumberProblem(f.taxNumber);
  if (tax) out.push({ field: 'taxNumber', problem: tax === 'format' ? 'taxNumberFormat' : 'taxNumberCheckDigit' });
  if (f.address.trim() === '') out.push({ field: 'address', problem: 'invoiceAddressEmpty' });
  if (f.phone && f.phone.trim() !== '' && !validInvoicePhone(f.phone)) out.push({ field: 'phone', problem: 'invoicePhoneInvalid' });
  if (f.bankAccount && f.bankAccount.trim() !== '' && !validBankAccount(f.bankAccount))
    out.push({ field: 'bankAccount', problem: 'invoiceBankAccountInvalid' });
  return out;
}

/** An issued invoice's number: `FP`, the Shanghai issue date (YYYYMMDD) and the request's id in 8 digits (FP2026112700000042). */
export const invoiceNumber = (shanghaiDay: string, id: number): string =>
  `FP${shanghaiDay.replace(/-/g, '')}${String(id).padStart(8, '0')}`;
