// The invoice as a PDF (§10), made in the worker with pdf-lib: real text in an embedded Noto Sans cut
// down to Latin, Greek and Cyrillic (scripts/subset-font.sh), so a PDF-to-text tool finds the
// number, the client and the total as printed. A character the font lacks prints as U+FFFD, never
// an error. Long invoices flow onto more pages, each with the header and the table's column titles
// again, and page numbers. Its words are the document's labels, in the invoice's language.
// It runs in the renderer worker (index.ts), so the API's bundle carries none of pdf-lib, fontkit or the font.
import fontkit from '@pdf-lib/fontkit';
import { PDFDocument, type PDFFont, type PDFPage, rgb } from 'pdf-lib';
import { labelsFor } from '../modules/documents/labels/language';
import type { PdfDocument } from './contract';
import { NOTO_SANS_SUBSET_BASE64 } from './fonts/noto-sans-subset';

const PAGE = { width: 595.28, height: 841.89 }; // A4; Letter readers print it scaled to fit
const MARGIN = 48;
const INK = rgb(0.11, 0.12, 0.14);
const MUTED = rgb(0.36, 0.38, 0.44);
const RULE = rgb(0.85, 0.86, 0.88);
// Column right edges (the description is left-aligned from the margin and wraps before `qty`).
const COLUMNS = { description: MARGIN, qty: 330, unit: 410, tax: 470, amount: PAGE.width - MARGIN };

let fontBytes: Uint8Array | undefined;
const notoSans = () => (fontBytes ??= Uint8Array.from(atob(NOTO_SANS_SUBSET_BASE64), (c) => c.charCodeAt(0)));

type Pen = { page: PDFPage; y: number };

/** `finish` may add to the document before it is written (Factur-X: facturx.ts). */
export async function renderInvoicePdf(doc: PdfDocument, finish?: (pdf: PDFDocument) => Promise<void>): Promise<Uint8Array> {
  const { labels } = doc;
  // The footer's sentence, which the document's labels cannot carry here (contract.ts).
  const pageOf = labelsFor(doc.locale).common.page;
  // Section titles print in capitals, as the locale writes them.
  const caps = (label: string) => label.toLocaleUpperCase(doc.locale);
  const pdf = await PDFDocument.create();
  pdf.registerFontkit(fontkit);
  pdf.setTitle(`${doc.credit?.title ?? labels.invoice} ${doc.number}`);
  pdf.setAuthor(doc.issuer.legal_name ?? doc.issuer.name);
  pdf.setCreator('Workspace API');
  // The whole (already cut down, 113 KB) font is embedded rather than a per-document subset: fontkit's
  // subsetter encodes through a stream whose callbacks run on a queue shared by the isolate, which
  // in a Worker resolves one request's promises in another's context under concurrent load. Not
  // subsetting also saves CPU on every PDF.
  const font = await pdf.embedFont(notoSans(), { subset: false });
  const printable = new Set(font.getCharacterSet());
  // What the font cannot draw becomes the replacement character; line breaks become spaces.
  const clean = (text: string) => Array.from(text.replace(/[\t\r\n]+/g, ' '), (ch) => (printable.has(ch.codePointAt(0)!) ? ch : '\uFFFD')).join('');

  const measure = textMeasure(font);
  const write = (pen: Pen, text: string, x: number, size: number, options: { right?: boolean; color?: typeof INK } = {}) => {
    const value = clean(text);
    const width = measure(value, size);
    pen.page.drawText(value, { x: options.right ? x - width : x, y: pen.y, size, font, color: options.color ?? INK });
  };
  // Lines already wrapped (and cleaned), one under the other from the pen down: drawn as one block of
  // text, which costs a fraction of drawing each line on its own when a long text wraps to hundreds.
  const writeLines = (pen: Pen, lines: string[], x: number, size: number, lineHeight: number) => {
    if (lines.length) pen.page.drawText(lines.join('\n'), { x, y: pen.y, size, lineHeight, font, color: INK });
    pen.y -= lines.length * lineHeight;
  };

  const pages: PDFPage[] = [];
  const newPage = (): Pen => {
    const page = pdf.addPage([PAGE.width, PAGE.height]);
    pages.push(page);
    const pen = { page, y: PAGE.height - MARGIN };
    write(pen, `${doc.credit?.title ?? labels.invoice} ${doc.number}`, MARGIN, 18);
    write(pen, doc.issuer.legal_name ?? doc.issuer.name, COLUMNS.amount, 10, { right: true, color: MUTED });
    pen.y -= 16;
    if (doc.banner) write(pen, doc.bannerText!, MARGIN, 12, { color: doc.banner === 'PAID' ? rgb(0.09, 0.4, 0.23) : rgb(0.64, 0.13, 0.09) });
    pen.y -= 18;
    return pen;
  };
  const tableHeader = (pen: Pen) => {
    write(pen, labels.description, COLUMNS.description, 9, { color: MUTED });
    write(pen, labels.quantity, COLUMNS.qty, 9, { right: true, color: MUTED });
    write(pen, labels.unitPrice, COLUMNS.unit, 9, { right: true, color: MUTED });
    write(pen, labels.tax, COLUMNS.tax, 9, { right: true, color: MUTED });
    write(pen, labels.amount, COLUMNS.amount, 9, { right: true, color: MUTED });
    pen.y -= 6;
    pen.page.drawLine({ start: { x: MARGIN, y: pen.y }, end: { x: COLUMNS.amount, y: pen.y }, thickness: 1, color: RULE });
    pen.y -= 14;
  };

  let pen = newPage();
  // Who bills and who pays, side by side.
  const partyTop = pen.y;
  const party = (title: string, lines: string[], x: number) => {
    const p = { page: pen.page, y: partyTop };
    write(p, title, x, 8, { color: MUTED });
    p.y -= 14;
    for (const line of lines) {
      write(p, line, x, 10);
      p.y -= 13;
    }
    return p.y;
  };
  const fromBottom = party(caps(labels.from), [doc.issuer.legal_name ?? doc.issuer.name, ...doc.seller], MARGIN);
  const toBottom = party(caps(labels.billTo), [doc.billTo.name, ...doc.buyer], 320);
  pen.y = Math.min(fromBottom, toBottom) - 10;
  write(pen, `${labels.issued} ${doc.issueDate}`, MARGIN, 10);
  write(pen, doc.credit ? doc.credit.corrects : `${labels.due} ${doc.dueDate}`, 320, 10);
  // The date of supply and the buyer's references, two to a row.
  const dated = [...(doc.serviceDate ? [doc.serviceDate] : []), ...doc.references];
  for (let i = 0; i < dated.length; i += 2) {
    pen.y -= 14;
    write(pen, dated[i]!, MARGIN, 10);
    if (dated[i + 1]) write(pen, dated[i + 1]!, 320, 10);
  }
  pen.y -= 26;
  tableHeader(pen);

  const descriptionWidth = COLUMNS.qty - 40 - MARGIN;
  for (const line of doc.lines) {
    const wrapped = wrap(clean(line.description), measure, 10, descriptionWidth);
    // A discounted line shows its gross and its discount under the description, in smaller type.
    const detail = line.discount ? wrap(clean(line.discount), measure, 8, descriptionWidth) : [];
    const height = wrapped.length * 13 + detail.length * 10 + 6;
    if (pen.y - height < MARGIN + 20) {
      pen = newPage();
      tableHeader(pen);
    }
    write(pen, line.quantity, COLUMNS.qty, 10, { right: true });
    write(pen, line.unitPrice, COLUMNS.unit, 10, { right: true });
    write(pen, line.taxRate, COLUMNS.tax, 10, { right: true });
    write(pen, line.amount, COLUMNS.amount, 10, { right: true });
    writeLines(pen, wrapped, COLUMNS.description, 10, 13);
    if (detail.length) {
      pen.y += 3;
      writeLines(pen, detail, COLUMNS.description, 8, 10);
    }
    pen.y -= 6;
  }

  const totals: [string, string, number][] = [
    [labels.subtotal, doc.subtotal, 10],
    ...(doc.discount ? [[doc.discountLabel, doc.discount, 10] as [string, string, number]] : []),
    ...(doc.netAfterDiscount ? [[labels.netAfterDiscount, doc.netAfterDiscount, 10] as [string, string, number]] : []),
    ...doc.taxGroups.map((group) => [group.label, group.amount, 9] as [string, string, number]),
    [labels.tax, doc.tax, 10],
    // A document that asks for no payment (a quote, a credit note) ends on its total.
    ...(doc.payable === false || doc.credit
      ? [[labels.total, doc.total, 13] as [string, string, number]]
      : [[labels.total, doc.total, 10], ...(doc.credited ? [[labels.credited, doc.credited, 10]] : []), [labels.paid, doc.amountPaid, 10], [labels.amountDue, doc.amountDue, 13]] as [string, string, number][]),
  ];
  if (pen.y - totals.length * 18 < MARGIN + 20) pen = newPage();
  pen.y -= 6;
  for (const [label, value, size] of totals) {
    // A label too long for the column (a tax group's, a discount's reason) starts further left.
    const labelWidth = measure(clean(label), size);
    write(pen, label, Math.min(380, COLUMNS.amount - 90 - labelWidth), size, { color: size > 10 ? INK : MUTED });
    write(pen, value, COLUMNS.amount, size, { right: true });
    pen.y -= size + 8;
  }
  const howToPay = [...(doc.payment ?? []), ...(doc.paymentInstructions ? [doc.paymentInstructions] : [])].join('\n');
  const sections: [string | null, string | null][] = [[null, doc.taxNotes.join('\n') || null], [caps(labels.notes), doc.notes], [caps(labels.howToPay), howToPay || null], [null, doc.legalNotes]];
  for (const [title, text] of sections) {
    if (!text) continue;
    const lines = text.split('\n').flatMap((paragraph) => wrap(clean(paragraph), measure, 10, PAGE.width - 2 * MARGIN));
    if (pen.y - 30 - lines.length * 13 < MARGIN) pen = newPage();
    pen.y -= 14;
    if (title) {
      write(pen, title, MARGIN, 8, { color: MUTED });
      pen.y -= 14;
    }
    // As many lines as fit on each page, the rest on the next.
    for (let i = 0; i < lines.length; ) {
      if (pen.y < MARGIN) pen = newPage();
      const fit = Math.max(1, Math.floor((pen.y - MARGIN) / 13) + 1);
      writeLines(pen, lines.slice(i, i + fit), MARGIN, 10, 13);
      i += fit;
    }
  }

  pages.forEach((page, i) => {
    const label = pageOf(i + 1, pages.length);
    page.drawText(label, { x: PAGE.width - MARGIN - measure(label, 8), y: MARGIN / 2, size: 8, font, color: MUTED });
  });
  await finish?.(pdf);
  return pdf.save();
}

export type Measure = (text: string, size: number) => number;

/**
 * Text widths from each character's advance, measured once: the font has no kerning or shaping
 * tables (scripts/subset-font.sh), so this is exact, and it spares a full layout per measurement.
 */
function textMeasure(font: PDFFont): Measure {
  const advances = new Map<string, number>();
  return (text, size) => {
    let units = 0;
    for (const ch of text) {
      let advance = advances.get(ch);
      if (advance === undefined) {
        advance = font.widthOfTextAtSize(ch, 1000);
        advances.set(ch, advance);
      }
      units += advance;
    }
    return (units * size) / 1000;
  };
}

/**
 * `text` broken into lines no wider than `width` at `size`, at spaces where it can, anywhere where it
 * must. Linear in the text's length whatever it holds: each word is measured once and each line's
 * width kept as a running sum (widths add up: the font has no kerning), and a word wider than the
 * line is cut character by character as its width grows, never by measuring its prefixes again.
 */
export function wrap(text: string, measure: Measure, size: number, width: number): string[] {
  const lines: string[] = [];
  const space = measure(' ', size);
  let current = '';
  let currentWidth = 0;
  for (const word of text.split(' ')) {
    const wordWidth = measure(word, size);
    const joined = current ? currentWidth + space + wordWidth : wordWidth;
    if (joined <= width) {
      current = current ? `${current} ${word}` : word;
      currentWidth = joined;
      continue;
    }
    if (current) lines.push(current);
    if (wordWidth <= width) {
      current = word;
      currentWidth = wordWidth;
      continue;
    }
    // Too wide for any line: as many characters as fit on each (at least one), the rest carried on.
    let start = 0;
    let offset = 0;
    currentWidth = 0;
    for (const ch of word) {
      const advance = measure(ch, size);
      if (offset > start && currentWidth + advance > width) {
        lines.push(word.slice(start, offset));
        start = offset;
        currentWidth = 0;
      }
      currentWidth += advance;
      offset += ch.length;
    }
    current = word.slice(start);
  }
  if (current || !lines.length) lines.push(current);
  return lines;
}
