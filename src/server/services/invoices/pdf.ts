import fontkit from '@pdf-lib/fontkit';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { PDFDocument, rgb, StandardFonts, type PDFFont } from 'pdf-lib';
import { formatYuan } from '../../../domain/money';

/** Where the vendored fonts live (the source tree; the built server reads the same folder, as the migrations). */
export function fontsFolder(): string {
  return process.env.FONTS_DIR ?? resolve(process.cwd(), 'src/server/assets/fonts');
}

/** The CJK font's file name (Droid Sans Fallback, Apache 2.0; decision 044). */
export const INVOICE_FONT = 'DroidSansFallbackFull.ttf';

let fontBytes: Buffer | undefined;
const font = () => (fontBytes ??= readFileSync(resolve(fontsFolder(), INVOICE_FONT)));

/** What an issued invoice shows. */
export interface InvoicePdfFacts {
  number: string;
  /** the Shanghai issue date, YYYY-MM-DD */
  issuedOn: string;
  title: string;
  taxNumber: string;
  address: string;
  phone: string | null;
  bankName: string | null;
  bankAccount: string | null;
  orders: Array<{ orderNo: string; name: string; amountCents: number }>;
  totalCents: number;
}

const A4: [number, number] = [595.28, 841.89];

/** A run of text in one font: the CJK font has no Latin letters or digits, which Helvetica draws. */
function runs(text: string, latin: PDFFont, cjk: PDFFont): Array<{ text: string; font: PDFFont }> {
  const fontOf = (ch: string): PDFFont => {
    if (ch.codePointAt(0)! >= 0x2e80) return cjk;
    try {
      latin.encodeText(ch);
      return latin;
    } catch {
      return cjk;
    }
  };
  const out: Array<{ text: string; font: PDFFont }> = [];
  for (const ch of text) {
    const font = fontOf(ch);
    const last = out.at(-1);
    if (last?.font === font) last.text += ch;
    else out.push({ text: ch, font });
  }
  return out;
}

/**
 * The invoice as a PDF (decision 044): pdf-lib with the CJK font embedded as a subset (only the glyphs
 * used), so the Chinese title and goods names render in any reader; Latin letters, digits and ¥ in
 * Helvetica (a standard font every reader has), which the CJK font lacks. A new A4 page when the
 * orders fill one.
 */
export async function invoicePdf(f: InvoicePdfFacts): Promise<Buffer> {
  const doc = await PDFDocument.create();
  doc.registerFontkit(fontkit);
  doc.setTitle(`发票 ${f.number}`);
  doc.setCreator('yoga club');
  const cjk = await doc.embedFont(font(), { subset: true });
  const latin = await doc.embedFont(StandardFonts.Helvetica);
  const ink = rgb(0.1, 0.1, 0.1);
  const grey = rgb(0.45, 0.45, 0.45);
  let page = doc.addPage(A4);
  let y = A4[1] - 64;
  const line = (text: string, opts: { size?: number; x?: number; color?: typeof ink } = {}) => {
    const size = opts.size ?? 11;
    let x = opts.x ?? 56;
    for (const run of runs(text, latin, cjk)) {
      page.drawText(run.text, { x, y, size, font: run.font, color: opts.color ?? ink });
      x += run.font.widthOfTextAtSize(run.text, size);
    }
  };
  line('发票 Invoice', { size: 22 });
  y -= 32;
  line(`发票号码 No.: ${f.number}`);
  line(`开票日期 Date: ${f.issuedOn}`, { x: 340 });
  y -= 28;
  const rows: Array<[string, string | null]> = [
    ['抬头 Title', f.title],
    ['纳税人识别号 Taxpayer no.', f.taxNumber],
    ['地址 Address', f.address],
    ['电话 Phone', f.phone],
    ['开户银行 Bank', f.bankName],
    ['银行账号 Account', f.bankAccount],
  ];
  for (const [label, value] of rows) {
    if (!value) continue;
    line(label, { color: grey, size: 10 });
    line(value, { x: 200 });
    y -= 20;
  }
  y -= 12;
  line('订单 Order', { color: grey, size: 10 });
  line('项目 Item', { x: 220, color: grey, size: 10 });
  line('金额 Amount', { x: 460, color: grey, size: 10 });
  y -= 20;
  for (const o of f.orders) {
    if (y < 96) {
      page = doc.addPage(A4);
      y = A4[1] - 64;
    }
    line(o.orderNo, { size: 10 });
    line(o.name.length > 20 ? `${o.name.slice(0, 19)}…` : o.name, { x: 220, size: 10 });
    line(formatYuan(o.amountCents), { x: 460, size: 10 });
    y -= 18;
  }
  y -= 10;
  line('合计 Total', { size: 12 });
  line(formatYuan(f.totalCents), { x: 460, size: 12 });
  return Buffer.from(await doc.save());
}
