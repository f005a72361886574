import { describe, expect, it } from 'vitest';
import {
  invoiceFieldProblems,
  invoiceNumber,
  normalBankAccount,
  taxNumberProblem,
  validBankAccount,
  validInvoicePhone,
} from '../../src/domain/invoice';

/** Invoice rules (decision 044): the taxpayer number's GB 32100-2015 check character, the optional fields' formats, the number. */
describe('taxpayer number (unified social credit code, GB 32100-2015)', () => {
  it.each(['91350100M000100Y43', '91440300708461136T', '91440300708461136t '])('accepts a real code %j (case and spaces forgiven)', (n) => {
    expect(taxNumberProblem(n)).toBeNull();
  });

  it.each([
    ['too short', '91350100M000100Y4'],
    ['too long', '91350100M000100Y433'],
    ['a letter the code never uses (I, O, S, V, Z)', '91350100M000100O43'],
    ['letters in the division digits', '9135A100M000100Y43'],
    ['empty', ''],
  ])('refuses a malformed one (%s) as format', (_what, n) => {
    expect(taxNumberProblem(n)).toBe('format');
  });

  it('refuses every wrong check character of a well-formed code as checkDigit', () => {
    const body = '91350100M000100Y4';
    const wrong = [...'0123456789ABCDEFGHJKLMNPQRTUWXY'].filter((c) => c !== '3');
    expect(wrong.map((c) => taxNumberProblem(body + c))).toEqual(wrong.map(() => 'checkDigit'));
  });
});

describe('optional fields', () => {
  it.each(['13912345678', '021-62881234', '02162881234', '0755-1234567', '010-12345678-123', '400-800-8888'])('phone %j is accepted', (p) =>
    expect(validInvoicePhone(p)).toBe(true),
  );
  it.each(['12345', '23912345678', '62881234', '021-123', 'abc'])('phone %j is refused', (p) => expect(validInvoicePhone(p)).toBe(false));
  it('bank account: 8 to 30 digits, spaces and dashes taken out', () => {
    expect(normalBankAccount('6214 8301-2345 6789')).toBe('6214830123456789');
    expect([
      validBankAccount('12345678'),
      validBankAccount('1'.repeat(30)),
      validBankAccount('1234567'),
      validBankAccount('1'.repeat(31)),
      validBankAccount('6214x'),
    ]).toEqual([true, true, false, false, false]);
  });
});

describe('the form check', () => {
  it('lists every problem in the form order, naming its field', () => {
    expect(
      invoiceFieldProblems({ title: ' ', taxNumber: '91350100M000100Y44', address: '', phone: '1', bankAccount: 'x' }).map(
        (p) => `${p.field}:${p.problem}`,
      ),
    ).toEqual([
      'title:invoiceTitleEmpty',
      'taxNumber:taxNumberCheckDigit',
      'address:invoiceAddressEmpty',
      'phone:invoicePhoneInvalid',
      'bankAccount:invoiceBankAccountInvalid',
    ]);
    expect(invoiceFieldProblems({ title: '公司', taxNumber: '91350100M000100Y43', address: '上海', phone: '', bankAccount: null })).toEqual(
      [],
    );
  });

  it('an invoice number is FP, the Shanghai day and the id in 8 digits', () => {
    expect(invoiceNumber('2026-11-27', 42)).toBe('FP2026112700000042');
  });
});
