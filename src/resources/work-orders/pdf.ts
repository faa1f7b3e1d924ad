// The PDF of a work order (src/pdf/document-pdf.ts renders it, on a rendering thread): the company, the customer
// copy, the lines as stored with the figures of the API's answer (workOrderFigures), what had to be done, what was
// done, the checklist and the customer's notes each as its own section, the photos' print versions in display
// order, and the signature; in the work order's language.
import type { Tenant } from '../../db/tenant.ts';
import { documentPdf } from '../../http/pdf-render.ts';
import type { DocumentPdfView } from '../../pdf/document-view.ts';
import type { PdfRenderer } from '../../pdf/render-pool.ts';
import type { CompanyDefaults } from '../quotes/documents.ts';
import { letterheadOf, pdfLines, pdfTotals } from '../quotes/pdf.ts';
import { printsOf } from './photo-prints.ts';
import type { WorkOrderWithPhotos } from './queries.ts';
import { workOrderFigures } from './serialize.ts';

/** The calendar date of `at` in the company's time zone (YYYY-MM-DD). */
const dateIn = (at: Date, timeZone: string) => at.toLocaleDateString('en-CA', { timeZone });

export async function workOrderPdf(
  row: WorkOrderWithPhotos,
  company: CompanyDefaults,
  tenant: Tenant,
  renderer: PdfRenderer,
): Promise<Buffer> {
  // Only print versions are embedded (made once after each upload: jobs/photo-print.ts), read only when the PDF is
  // rendered; the key names each photo's print state, so a print version made later gives a new PDF.
  const photos = {
    key: row.photos.map((p) => `${p.id}:${p.printStatus}`).join(','),
    load: async (): Promise<NonNullable<DocumentPdfView['photos']>> => {
      const ready = row.photos.filter((p) => p.printStatus === 'ready').map((p) => p.id);
      const prints = await tenant.transaction((tx) => printsOf(tx, tenant.companyId, ready));
      return row.photos.map((photo) => {
        const image = prints.get(photo.id);
        return image
          ? { image, mimeType: 'image/jpeg', caption: photo.caption }
          : { image: new Uint8Array(0), mimeType: photo.file.mimeType, caption: photo.caption };
      });
    },
  };
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
    lines: pdfLines(row.items),
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
    signature:
      row.signedAt && row.signedByName ? { signedBy: row.signedByName, signedAt: row.signedAt.toISOString() } : null,
  };
  return (await documentPdf(renderer, { tenant }, { documentId: row.id, variant: 'pdf', view, photos })).pdf;
}
