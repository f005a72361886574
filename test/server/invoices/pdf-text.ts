import { inflateSync } from 'node:zlib';
import { PDFArray, PDFDict, PDFDocument, PDFName, type PDFRawStream, type PDFRef, PDFStream } from 'pdf-lib';

/**
 * The text a PDF reader extracts from an invoice's pages, one string per text-showing operator: each
 * font's codes mapped to characters by its ToUnicode CMap (the embedded CJK subset) or, for a standard
 * font, as WinAnsi (latin1 for what invoices use). A glyph the font lacks (code 0, .notdef) reads as
 * U+FFFD (or the subset's own U+FFFF), so a character that would print as an empty box is caught.
 */
export async function pdfText(bytes: Uint8Array): Promise<string[]> {
  const doc = await PDFDocument.load(bytes);
  const decode = (s: PDFStream) => {
    const raw = Buffer.from((s as PDFRawStream).contents);
    return String(s.dict.get(PDFName.of('Filter'))) === '/FlateDecode' ? inflateSync(raw).toString('latin1') : raw.toString('latin1');
  };
  const out: string[] = [];
  for (const page of doc.getPages()) {
    const fonts = page.node.Resources()!.lookup(PDFName.of('Font'), PDFDict);
    const mapOf = new Map<string, ((hex: string) => string) | undefined>();
    for (const [name, ref] of fonts.entries()) {
      const f = doc.context.lookup(ref, PDFDict);
      const cmapRef = f.get(PDFName.of('ToUnicode'));
      if (!cmapRef) {
        mapOf.set(name.asString(), (hex) => Buffer.from(hex, 'hex').toString('latin1'));
        continue;
      }
      const cmap = new Map<string, string>();
      for (const m of decode(doc.context.lookup(cmapRef as PDFRef, PDFStream)).matchAll(/<([0-9A-Fa-f]{4})>\s*<([0-9A-Fa-f]+)>/g))
        cmap.set(m[1]!.toUpperCase(), Buffer.from(m[2]!, 'hex').swap16().toString('utf16le'));
      mapOf.set(name.asString(), (hex) => (hex.toUpperCase().match(/.{4}/g) ?? []).map((c) => cmap.get(c) ?? '\uFFFD').join(''));
    }
    const contents = page.node.Contents();
    const streams =
      contents instanceof PDFArray ? contents.asArray().map((r) => doc.context.lookup(r, PDFStream)) : [contents as PDFStream];
    let current: ((hex: string) => string) | undefined;
    for (const s of streams)
      for (const m of decode(s).matchAll(/(\/[^\s/]+)\s+[\d.]+\s+Tf|<([0-9A-Fa-f]*)>\s*Tj/g)) {
        if (m[1]) current = mapOf.get(m[1]);
        else out.push(current ? current(m[2]!) : '?');
      }
  }
  return out;
}
