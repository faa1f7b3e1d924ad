// The PDF of a work order (src/pdf/document-pdf.ts renders it, on a rendering thread): the company, the customer
// copy, the lines as stored with the figures of the API's answer (workOrderFigures), what had to be done, what was
// done, the checklist and the customer's notes each as its own section, the photos in display order reduced to print
// size, and the signature; in the work order's language.
import type { Tenant } from '../../db/tenant.ts';
import { readFile, type StoredFile } from '../../files/records.ts';
import type { FileStorages } from '../../files/storages.ts';
import { renderPdf } from '../../http/pdf-render.ts';
import type { DocumentPdfView } from '../../pdf/document-pdf.ts';
import { printablePhoto } from '../../pdf/printable-photo.ts';
import type { PdfRenderer } from '../../pdf/render-pool.ts';
import type { CompanyDefaults } from '../quotes/documents.ts';
import { letterheadOf, pdfTotals } from '../quotes/pdf.ts';
import type { WorkOrderWithPhotos } from './queries.ts';
import { workOrderFigures } from './serialize.ts';

async function bytesOf(storages: FileStorages, tenant: Tenant, file: StoredFile): Promise<Buffer> {
  const chunks: Uint8Array[] = [];
  for await (const chunk of readFile(storages, tenant, file)) chunks.push(chunk);
  return Buffer.concat(chunks);
}

/** The calendar date of `at` in the company's time zone (YYYY-MM-DD). */
const dateIn = (at: Date, timeZone: string) => at.toLocaleDateString('en-CA', { timeZone });

export async function workOrderPdf(
  row: WorkOrderWithPhotos,
  company: CompanyDefaults,
  files: { storages: FileStorages; tenant: Tenant },
  renderer: PdfRenderer,
): Promise<Buffer> {
  // One photo at a time (a work order holds up to 30 photos of up to 10 MB each), reduced by sharp on its own
  // threads; only the reduced photos go to the rendering thread.
  const photos: NonNullable<DocumentPdfView['photos']> = [];
  for (const photo of row.photos) {
    const printable = await printablePhoto(await bytesOf(files.storages, files.tenant, photo.file));
    photos.push({
      image: printable?.image ?? new Uint8Array(0),
      mimeType: printable?.mimeType ?? photo.file.mimeType,
      caption: photo.caption,
    });
  }
  const c = row.customer;
  const view: DocumentPdfView = {
    kind: 'work_order',
    number: row.number,
    language: row.language,
    currency: row.currency,
    timeZone: company.timeZone,
    title: row.title,
    issueDate: dateIn(row.scheduledAt ?? row.createdAt, company.timeZone),
    company: letterheadOf(company),
    customer: {
      name: c.name,
      companyName: c.company_name,
      address: { line: c.address, postalCode: c.postal_code, city: c.city, country: c.country },
      email: c.email,
    },
    lines: row.items.map((line) => ({
      type: line.type === 'text' ? ('text' as const) : ('other' as const),
      name: line.name,
      description: line.description,
      quantity: line.quantity,
      unit: line.unit,
      unitPrice: line.unit_price,
      discount: line.discount_amount,
      taxRate: line.tax_rate,
      isTaxable: line.is_taxable,
      total: line.line_total,
    })),
    totals: pdfTotals({ ...workOrderFigures(row), discount_amount: '0.00' }),
    work: {
      description: row.description,
      workPerformed: row.workPerformed,
      customerNotes: row.customerNotes,
      checklist: row.checklist.map((point) => ({
        label: point.label,
        checked: point.checked,
        required: point.required,
        note: point.note,
      })),
    },
    photos,
    signature:
      row.signedAt && row.signedByName ? { signedBy: row.signedByName, signedAt: row.signedAt.toISOString() } : null,
  };
  return renderPdf(renderer, view);
}
