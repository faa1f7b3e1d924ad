// The PDF of a quote, invoice or work order (pdfkit). It takes a plain view of the document (document-view.ts),
// already calculated and copied, so the renderer decides only how things look: it computes no totals and reads no
// database. Its fonts are embedded from node_modules (fonts.ts) and nothing is fetched: the output depends on the
// view alone.
import PDFDocument from 'pdfkit';
import type { DocumentPdfLine, DocumentPdfView, PdfAddress } from './document-view.ts';
import { attachFacturX, PDF_A_3B_OPTIONS, xmpSafeInfo } from './facturx.ts';
import { FONT, printable } from './fonts.ts';
import {
  formatDate,
  formatDateTime,
  formatMoney,
  formatNumber,
  formatPercent,
  type InvoiceMark,
  PDF_LABELS,
  type PdfLabels,
} from './labels.ts';
import { MAX_PAGES } from './page-limit.ts';
import { drawLines, lineHeight, type TextStyle, wrapText } from './text-layout.ts';

const MARGIN = 50;
const GREY = '#555555';
const LINE_GREY = '#BBBBBB';
const MARK_COLOR: Record<InvoiceMark, string> = {
  cancelled: '#B00020',
  refunded: '#B00020',
  paid: '#1B7F3B',
  partly_paid: '#B26A00',
};

type Doc = PDFKit.PDFDocument;

/** Thrown when a document would need more than its page bound. */
export class PageLimitError extends Error {
  constructor(readonly maxPages: number) {
    super(`the document needs more than ${maxPages} pages`);
  }
}

export type RenderOptions = { maxPages?: number };

export async function renderDocumentPdf(view: DocumentPdfView, options: RenderOptions = {}): Promise<Buffer> {
  const labels = PDF_LABELS[view.language];
  const info = {
    Title: `${labels.title[view.kind]} ${view.number}`,
    Author: view.company.name,
    // pdfkit reads every key it is given: an absent subject must be left out, not undefined.
    ...(view.title ? { Subject: view.title } : {}),
    // The issue date, not the clock: the same view gives the same file (pdfkit derives the file id from it).
    CreationDate: new Date(`${view.issueDate.slice(0, 10)}T00:00:00Z`),
  };
  const doc = new PDFDocument({
    size: 'A4',
    margin: MARGIN,
    bufferPages: true,
    lang: view.language,
    font: FONT.regular,
    ...(view.facturX ? PDF_A_3B_OPTIONS : {}),
    info: view.facturX ? xmpSafeInfo(info) : info,
  });
  const maxPages = options.maxPages ?? MAX_PAGES;
  let pages = 1;
  doc.on('pageAdded', () => {
    pages += 1;
    if (pages > maxPages) throw new PageLimitError(maxPages);
  });
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });

  const money = (amount: string) => formatMoney(amount, view.currency, view.language);
  header(doc, view, labels);
  addresses(doc, view, labels);
  documentFacts(doc, view, labels);
  for (const text of [view.introText, view.description]) paragraph(doc, text);
  section(doc, labels.workDescription, view.work?.description);
  lineTable(doc, view, labels, money);
  totals(doc, view, labels, money);
  section(doc, labels.workPerformed, view.work?.workPerformed);
  checklist(doc, view, labels);
  section(doc, labels.customerNotes, view.work?.customerNotes);
  terms(doc, view, labels, money);
  if (view.kind === 'work_order' || view.photos?.length) photos(doc, view, labels);
  if (view.kind === 'work_order' || view.signature) signature(doc, view, labels);
  footer(doc, view, labels);
  if (view.facturX) attachFacturX(doc, view.facturX.xml, info.CreationDate);
  doc.end();
  return done;
}

const width = (doc: Doc) => doc.page.width - 2 * MARGIN;

/** Starts a new page when fewer than `height` points are left above the bottom margin. */
function ensureSpace(doc: Doc, height: number): void {
  if (doc.y + height > bottomOf(doc)) doc.addPage();
}

const bottomOf = (doc: Doc) => doc.page.height - doc.page.margins.bottom;

const BODY: TextStyle = { font: FONT.regular, size: 9 };
const HEADING: TextStyle = { font: FONT.bold, size: 11 };

/**
 * Running text from the left margin across the page, wrapped by text-layout.ts and continued on new pages; `onNewPage`
 * draws what a continued block repeats at the top (a table's header).
 */
function flow(
  doc: Doc,
  lines: string[],
  style: TextStyle,
  x: number,
  color: string,
  onNewPage: () => void = () => {},
): void {
  const height = lineHeight(doc, style);
  for (const line of lines) {
    if (doc.y + height > bottomOf(doc)) {
      doc.addPage();
      onNewPage();
      doc.font(style.font).fontSize(style.size);
    }
    doc.fillColor(color);
    drawLines(doc, [line], style, x, doc.y);
    doc.y += height;
  }
}

/** A heading with its text below, both across the page; nothing when the text is empty. */
function section(doc: Doc, heading: string, text: string | null | undefined): void {
  if (!text?.trim()) return;
  ensureSpace(doc, 50);
  doc.font(HEADING.font).fontSize(HEADING.size).fillColor('black').text(printable(heading), MARGIN, doc.y);
  doc.moveDown(0.2);
  flow(doc, wrapText(doc, text, BODY, width(doc)), BODY, MARGIN, 'black');
  doc.x = MARGIN;
  doc.moveDown(1);
}

/** A text across the page without a heading; nothing when it is empty. */
function paragraph(doc: Doc, text: string | null | undefined): void {
  if (!text?.trim()) return;
  ensureSpace(doc, 30);
  flow(doc, wrapText(doc, text, BODY, width(doc)), BODY, MARGIN, 'black');
  doc.x = MARGIN;
  doc.moveDown(1);
}

/** The checklist: a box per point, ticked when done, the label (required points marked) and the note below. */
function checklist(doc: Doc, view: DocumentPdfView, labels: PdfLabels): void {
  const points = view.work?.checklist ?? [];
  if (points.length === 0) return;
  ensureSpace(doc, 60);
  const done = points.filter((point) => point.checked).length;
  doc.font(HEADING.font).fontSize(HEADING.size).fillColor('black').text(printable(labels.checklist), MARGIN, doc.y);
  doc
    .font(BODY.font)
    .fontSize(BODY.size)
    .fillColor(GREY)
    .text(printable(labels.checklistDone(done, points.length)), MARGIN);
  doc.moveDown(0.3);
  const textX = MARGIN + 16;
  const textWidth = width(doc) - 16;
  const note: TextStyle = { font: FONT.regular, size: 8 };
  for (const point of points) {
    const label = point.required ? `${point.label} ${labels.required}` : point.label;
    const labelLines = wrapText(doc, label, BODY, textWidth);
    ensureSpace(doc, lineHeight(doc, BODY) * Math.min(labelLines.length, 3) + 4);
    const y = doc.y;
    doc
      .rect(MARGIN + 1, y + 0.5, 8, 8)
      .lineWidth(0.6)
      .strokeColor('black')
      .stroke();
    // The tick is a path, not a glyph: a dingbat font's check mark was not shown by poppler and drawn above the box
    // by MuPDF.
    if (point.checked) tick(doc, MARGIN + 1, y + 0.5, 8);
    doc.y = y;
    flow(doc, labelLines, BODY, textX, 'black');
    if (point.note) flow(doc, wrapText(doc, point.note, note, textWidth), note, textX, GREY);
    doc.y += 3;
  }
  doc.x = MARGIN;
  doc.moveDown(1);
}

/** A check mark inside the `size`-point box at (x, y), stroked. */
function tick(doc: Doc, x: number, y: number, size: number): void {
  doc
    .moveTo(x + size * 0.2, y + size * 0.55)
    .lineTo(x + size * 0.42, y + size * 0.78)
    .lineTo(x + size * 0.82, y + size * 0.22)
    .lineWidth(1.2)
    .lineCap('round')
    .lineJoin('round')
    .strokeColor('black')
    .stroke();
}

const addressLines = (address: PdfAddress | null | undefined): string[] => {
  if (!address) return [];
  const place = [address.postalCode, address.city].filter(Boolean).join('  ');
  return [address.line, place, address.country].filter((part): part is string => Boolean(part));
};

function header(doc: Doc, view: DocumentPdfView, labels: PdfLabels): void {
  const top = MARGIN;
  doc.font(FONT.bold).fontSize(16).fillColor('black').text(printable(view.company.name), MARGIN, top, { width: 260 });
  const details = [
    ...addressLines(view.company.address),
    view.company.phone ? `${labels.phone} ${view.company.phone}` : null,
    view.company.email,
    view.company.vatNumber ? `${labels.vatNumber} ${view.company.vatNumber}` : null,
    view.company.cocNumber ? `${labels.cocNumber} ${view.company.cocNumber}` : null,
    view.company.iban ? `${labels.iban} ${view.company.iban}` : null,
  ].filter((line): line is string => Boolean(line));
  doc.font(FONT.regular).fontSize(9).fillColor(GREY);
  doc.text(printable(details.join('\n')), MARGIN + 300, top, { width: width(doc) - 300, align: 'right' });
  const detailsBottom = doc.y;
  doc.y = Math.max(detailsBottom, top + 40) + 20;
  doc.x = MARGIN;
}

function addresses(doc: Doc, view: DocumentPdfView, labels: PdfLabels): void {
  const { customer } = view;
  const lines = [
    customer.companyName,
    customer.name,
    ...addressLines(customer.address),
    customer.email,
    customer.vatNumber ? `${labels.vatNumber} ${customer.vatNumber}` : null,
  ].filter((line): line is string => Boolean(line));
  doc.font(FONT.regular).fontSize(8).fillColor(GREY).text(printable(labels.customer.toUpperCase()), MARGIN, doc.y);
  doc
    .font(FONT.regular)
    .fontSize(10)
    .fillColor('black')
    .text(printable(lines.join('\n')), { width: 260 });
  doc.moveDown(1.5);
}

function documentFacts(doc: Doc, view: DocumentPdfView, labels: PdfLabels): void {
  const { language } = view;
  doc
    .font(FONT.bold)
    .fontSize(18)
    .fillColor('black')
    .text(printable(`${labels.title[view.kind]} ${view.number}`), MARGIN);
  if (view.mark) {
    doc
      .font(FONT.bold)
      .fontSize(13)
      .fillColor(MARK_COLOR[view.mark])
      .text(printable(labels.mark[view.mark].toUpperCase()));
    doc.fillColor('black');
  }
  if (view.title) doc.font(FONT.regular).fontSize(11).text(printable(view.title));
  doc.moveDown(0.5);
  const facts: [string, string][] = [[labels.date, formatDate(view.issueDate, language)]];
  if (view.dueDate) facts.push([labels.dueDate, formatDate(view.dueDate, language)]);
  if (view.validUntil) facts.push([labels.validUntil, formatDate(view.validUntil, language)]);
  if (view.reference) facts.push([labels.reference, view.reference]);
  if (view.creditedInvoice)
    facts.push([
      labels.creditedInvoice,
      `${view.creditedInvoice.number} (${formatDate(view.creditedInvoice.issueDate, language)})`,
    ]);
  doc.fontSize(10);
  for (const [label, value] of facts) {
    const y = doc.y;
    doc.font(FONT.regular).fillColor(GREY).text(printable(label), MARGIN, y, { width: 110 });
    doc.fillColor('black').text(printable(value), MARGIN + 110, y, { width: 300 });
  }
  doc.moveDown(1.5);
}

interface Column {
  label: string;
  width: number;
  align: 'left' | 'right';
  cell: (line: DocumentPdfLine) => string;
}

function lineTable(doc: Doc, view: DocumentPdfView, labels: PdfLabels, money: (a: string) => string): void {
  const { language } = view;
  const quantity = (line: DocumentPdfLine) =>
    `${formatNumber(line.quantity, language)}${line.unit ? ` ${line.unit}` : ''}`;
  const columns: Column[] = [{ label: labels.description, width: 0, align: 'left', cell: (line) => line.name }];
  columns.push({ label: labels.quantity, width: 60, align: 'right', cell: quantity });
  if (!view.hideLineAmounts) {
    const anyDiscount = view.lines.some((line) => Number(line.discount) !== 0);
    columns.push({ label: labels.unitPrice, width: 75, align: 'right', cell: (line) => money(line.unitPrice) });
    if (anyDiscount) {
      columns.push({
        label: labels.discount,
        width: 65,
        align: 'right',
        cell: (line) => (Number(line.discount) === 0 ? '' : money(line.discount)),
      });
    }
    columns.push({
      label: labels.tax,
      width: 40,
      align: 'right',
      cell: (line) => (line.isTaxable === false ? labels.exemptShort : formatPercent(line.taxRate, language)),
    });
    columns.push({ label: labels.amount, width: 80, align: 'right', cell: (line) => money(line.total) });
  }
  columns[0].width = width(doc) - columns.slice(1).reduce((sum, column) => sum + column.width, 0);

  const tableHeader = () => {
    const y = doc.y;
    doc.font(FONT.bold).fontSize(9).fillColor('black');
    let x = MARGIN;
    for (const column of columns) {
      doc.text(printable(column.label), x + 2, y, { width: column.width - 4, align: column.align });
      x += column.width;
    }
    doc.y = y + 14;
    rule(doc);
  };
  ensureSpace(doc, 60);
  tableHeader();
  const nameWidth = columns[0].width - 4;
  const nameStyle = (line: DocumentPdfLine): TextStyle => ({
    font: line.type === 'text' ? FONT.bold : FONT.regular,
    size: 9,
  });
  const descriptionStyle: TextStyle = { font: FONT.regular, size: 8 };
  for (const line of view.lines) {
    const style = nameStyle(line);
    const nameLines = wrapText(doc, line.name, style, nameWidth);
    const descriptionLines = line.description ? wrapText(doc, line.description, descriptionStyle, nameWidth) : [];
    // A row starts where its name and the first lines of its description fit; a longer description continues on
    // the next pages under the repeated table header.
    const startHeight =
      lineHeight(doc, style) * nameLines.length +
      lineHeight(doc, descriptionStyle) * Math.min(descriptionLines.length, 3) +
      6;
    if (doc.y + startHeight > bottomOf(doc)) {
      doc.addPage();
      tableHeader();
    }
    const y = doc.y + 3;
    doc.y = y;
    flow(doc, nameLines, style, MARGIN + 2, 'black');
    const nameBottom = doc.y;
    if (line.type !== 'text') {
      let x = MARGIN + columns[0].width;
      doc.font(FONT.regular).fontSize(9).fillColor('black');
      for (const column of columns.slice(1)) {
        doc.text(printable(column.cell(line)), x + 2, y, { width: column.width - 4, align: column.align });
        x += column.width;
      }
      doc.y = Math.max(doc.y, nameBottom);
    }
    flow(doc, descriptionLines, descriptionStyle, MARGIN + 2, GREY, tableHeader);
    doc.y += 3;
    rule(doc, LINE_GREY);
  }
  doc.x = MARGIN;
  doc.moveDown(1);
}

function rule(doc: Doc, color = 'black'): void {
  doc
    .moveTo(MARGIN, doc.y)
    .lineTo(MARGIN + width(doc), doc.y)
    .lineWidth(0.5)
    .strokeColor(color)
    .stroke();
  doc.y += 2;
}

function totals(doc: Doc, view: DocumentPdfView, labels: PdfLabels, money: (a: string) => string): void {
  const { totals: t, language } = view;
  const rows: [string, string, boolean][] = [[labels.subtotal, money(t.subtotal), false]];
  if (t.discount && Number(t.discount) !== 0) rows.push([labels.documentDiscount, money(`-${t.discount}`), false]);
  for (const tax of t.taxes) {
    const label = tax.exempt
      ? labels.taxExempt(money(tax.base))
      : reverseCharged(view, tax)
        ? labels.reverseCharged(money(tax.base))
        : labels.taxAt(formatPercent(tax.rate, language), money(tax.base));
    rows.push([label, money(tax.amount), false]);
  }
  rows.push([labels.total, money(t.total), true]);
  if (t.amountPaid != null) rows.push([labels.amountPaid, money(t.amountPaid), false]);
  if (t.amountDue != null) rows.push([labels.amountDue, money(t.amountDue), true]);
  ensureSpace(doc, rows.length * 15 + 10);
  const labelX = MARGIN + width(doc) - 320;
  for (const [label, value, strong] of rows) {
    const y = doc.y;
    doc
      .font(strong ? FONT.bold : FONT.regular)
      .fontSize(strong ? 11 : 9)
      .fillColor('black');
    doc.text(printable(label), labelX, y, { width: 220, align: 'right' });
    doc.text(printable(value), labelX + 220, y, { width: 100, align: 'right' });
    doc.y = Math.max(doc.y, y + 14);
  }
  doc.x = MARGIN;
  doc.moveDown(1.5);
}

/** A 0 % row of an invoice under the EU reverse charge (einvoicing writes it as category AE). */
const reverseCharged = (view: DocumentPdfView, tax: DocumentPdfView['totals']['taxes'][number]) =>
  Boolean(view.reverseCharge) && !tax.exempt && Number(tax.rate) === 0;

function terms(doc: Doc, view: DocumentPdfView, labels: PdfLabels, money: (a: string) => string): void {
  const paragraphs: [string | null, string][] = [];
  const due = view.totals.amountDue ?? view.totals.total;
  // A cancelled, refunded or paid invoice says so instead of asking for a payment.
  const settled = view.mark ? labels.settled[view.mark] : null;
  if (settled) {
    paragraphs.push([labels.paymentTerms, view.paymentTerms ? `${settled}\n${view.paymentTerms}` : settled]);
  } else if (view.kind === 'invoice' && view.dueDate && Number(due) > 0) {
    const sentence = labels.payBy(
      money(due),
      formatDate(view.dueDate, view.language),
      view.company.iban ?? null,
      view.number,
    );
    paragraphs.push([labels.paymentTerms, view.paymentTerms ? `${sentence}\n${view.paymentTerms}` : sentence]);
  } else if (view.paymentTerms) paragraphs.push([labels.paymentTerms, view.paymentTerms]);
  if (view.kind === 'quote' && view.validUntil) {
    paragraphs.push([null, labels.validity(formatDate(view.validUntil, view.language))]);
  }
  if (view.creditedInvoice) paragraphs.push([null, labels.creditsInFull(view.creditedInvoice.number)]);
  if (view.totals.taxes.some((tax) => reverseCharged(view, tax))) paragraphs.push([null, labels.reverseChargeNote]);
  for (const exemption of view.exemptions ?? []) paragraphs.push([null, `${exemption.text} (${exemption.code}).`]);
  if (view.notes) paragraphs.push([labels.notes, view.notes]);
  for (const [heading, text] of paragraphs) {
    ensureSpace(doc, 40);
    if (heading) doc.font(FONT.bold).fontSize(9).fillColor('black').text(printable(heading), MARGIN);
    flow(doc, wrapText(doc, text, BODY, width(doc)), BODY, MARGIN, 'black');
    doc.x = MARGIN;
    doc.moveDown(0.8);
  }
}

const DRAWABLE = new Set(['image/jpeg', 'image/png']);

function photos(doc: Doc, view: DocumentPdfView, labels: PdfLabels): void {
  const list = view.photos ?? [];
  if (list.length === 0) return;
  ensureSpace(doc, 60);
  doc.font(FONT.bold).fontSize(11).fillColor('black').text(printable(labels.photos), MARGIN);
  doc.moveDown(0.5);
  // Two photos side by side, each fitted into its box.
  const boxWidth = (width(doc) - 20) / 2;
  const boxHeight = 180;
  for (let i = 0; i < list.length; i += 2) {
    ensureSpace(doc, boxHeight + 30);
    const y = doc.y;
    let rowBottom = y;
    for (const [column, photo] of list.slice(i, i + 2).entries()) {
      const x = MARGIN + column * (boxWidth + 20);
      // A photo without bytes (no print version: pending or failed) is named, not drawn.
      if (DRAWABLE.has(photo.mimeType) && photo.image.byteLength > 0) {
        doc.image(Buffer.from(photo.image), x, y, { fit: [boxWidth, boxHeight], align: 'center', valign: 'center' });
      } else {
        doc.rect(x, y, boxWidth, boxHeight).lineWidth(0.5).strokeColor(LINE_GREY).stroke();
        doc.font(FONT.regular).fontSize(8).fillColor(GREY);
        doc.text(printable(labels.photoNotShown(photo.mimeType)), x + 10, y + boxHeight / 2 - 5, {
          width: boxWidth - 20,
        });
      }
      doc.font(FONT.regular).fontSize(8).fillColor(GREY);
      doc.text(printable(photo.caption ?? ''), x, y + boxHeight + 4, { width: boxWidth });
      rowBottom = Math.max(rowBottom, doc.y);
    }
    doc.x = MARGIN;
    doc.y = rowBottom + 12;
  }
}

function signature(doc: Doc, view: DocumentPdfView, labels: PdfLabels): void {
  ensureSpace(doc, 110);
  doc.moveDown(0.5);
  doc.font(FONT.bold).fontSize(11).fillColor('black').text(printable(labels.signature), MARGIN);
  const top = doc.y + 4;
  const boxHeight = 60;
  const signed = view.signature;
  if (signed?.image) {
    doc.image(Buffer.from(signed.image), MARGIN, top, { fit: [220, boxHeight] });
  }
  doc
    .moveTo(MARGIN, top + boxHeight)
    .lineTo(MARGIN + 220, top + boxHeight)
    .lineWidth(0.5)
    .strokeColor('black')
    .stroke();
  const caption = signed
    ? labels.signedBy(
        signed.signedBy,
        formatDateTime(signed.signedAt, view.language, view.timeZone ?? 'Europe/Amsterdam'),
      )
    : labels.notSigned;
  doc
    .font(FONT.regular)
    .fontSize(9)
    .fillColor(GREY)
    .text(printable(caption), MARGIN, top + boxHeight + 4, { width: 300 });
  doc.x = MARGIN;
}

/** Company identification and page numbers on every page, written once all pages exist. */
function footer(doc: Doc, view: DocumentPdfView, labels: PdfLabels): void {
  const { company } = view;
  const identity = [
    company.legalName ?? company.name,
    company.cocNumber ? `${labels.cocNumber} ${company.cocNumber}` : null,
    company.vatNumber ? `${labels.vatNumber} ${company.vatNumber}` : null,
    company.iban ? `${labels.iban} ${company.iban}` : null,
  ]
    .filter(Boolean)
    .join('  ·  ');
  const range = doc.bufferedPageRange();
  for (let i = range.start; i < range.start + range.count; i++) {
    doc.switchToPage(i);
    // Below the bottom margin: lift it while writing, or pdfkit would start a new page.
    const bottom = doc.page.margins.bottom;
    doc.page.margins.bottom = 0;
    const y = doc.page.height - 35;
    doc.font(FONT.regular).fontSize(7).fillColor(GREY);
    doc.text(printable(identity), MARGIN, y, { width: width(doc) - 80, lineBreak: false });
    doc.text(printable(labels.page(i - range.start + 1, range.count)), MARGIN + width(doc) - 80, y, {
      width: 80,
      align: 'right',
      lineBreak: false,
    });
    doc.page.margins.bottom = bottom;
  }
}
