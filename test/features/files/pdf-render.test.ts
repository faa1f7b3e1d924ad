// PDFs render on worker threads within limits (src/pdf/render-pool.ts), with linear line wrapping, photos reduced
// to print size and work orders in sections. Checked as a reader sees the PDF: pdftotext and pdfimages (poppler).
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import type { DocumentPdfView } from '../../../src/pdf/document-view.ts';
import { MAX_PRINT_PIXELS, printablePhoto } from '../../../src/pdf/printable-photo.ts';
import { PdfRenderer, PdfRenderLimitError } from '../../../src/pdf/render-pool.ts';
import { setupApi, type TestApi } from '../../harness/api.ts';

const PDFTOTEXT = '/usr/bin/pdftotext';
const PDFIMAGES = '/usr/bin/pdfimages';
const OUT = join(process.cwd(), 'test-results', 'pdf');
const poppler = existsSync(PDFTOTEXT) && existsSync(PDFIMAGES);
if (!poppler) console.warn(`${PDFTOTEXT} or ${PDFIMAGES} missing (Debian poppler-utils): PDF contents are not checked`);

function fileOf(name: string, pdf: Buffer): string {
  mkdirSync(OUT, { recursive: true });
  const file = join(OUT, `${name}.pdf`);
  writeFileSync(file, pdf);
  return file;
}
const textOf = (file: string) => execFileSync(PDFTOTEXT, [file, '-'], { encoding: 'utf8' }).replace(/\u00A0/g, ' ');

const line = (description: string) => ({
  name: 'Schilderwerk',
  description,
  quantity: '1.00',
  unitPrice: '10.00',
  discount: '0.00',
  taxRate: '21.00',
  total: '10.00',
});

const view = (over: Partial<DocumentPdfView> = {}): DocumentPdfView => ({
  kind: 'invoice',
  number: 'F2026-0042',
  language: 'en',
  currency: 'EUR',
  issueDate: '2026-03-02',
  company: { name: 'Schildersbedrijf De Kwast' },
  customer: { name: 'Jan Jansen' },
  lines: [line('Ronde kwast')],
  totals: { subtotal: '10.00', taxes: [], total: '10.00' },
  ...over,
});

const prose = 'The window frames were sanded and given two coats of paint. '.repeat(80);
const bigInvoice = () => view({ lines: Array.from({ length: 60 }, () => line(prose)) });

const limits = { threads: 1, queue: 4, timeoutMs: 60_000, memoryMb: 512, maxPages: 1000 };

let api: TestApi;
let key: string;

beforeAll(async () => {
  api = await setupApi();
  ({ key } = await api.tenant({ language: 'en' }));
});

describe('rendering off the event loop', () => {
  it('answers a request while a large PDF renders, and the event loop keeps turning', async () => {
    const customer = await api.call('createCustomer', {
      key,
      body: { name: 'Bakkerij Jansen', email: `jan-${randomUUID()}@example.nl` },
    });
    expect(customer.status).toBe(201);
    const renderer = api.deps.pdfRenderer;
    await renderer.render(view()); // the thread is started and warm
    let ticks = 0;
    const timer = setInterval(() => ticks++, 5);
    let renderedAt = 0;
    const rendering = renderer.render(bigInvoice()).then((pdf) => {
      renderedAt = performance.now();
      return pdf;
    });
    const answer = await api.call('getCustomer', { key, params: { customer: customer.body.data.id } });
    const answeredAt = performance.now();
    expect(answer.status).toBe(200);
    const pdf = await rendering;
    clearInterval(timer);
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    // On the request's thread the render would finish before the request is even read.
    expect(answeredAt).toBeLessThan(renderedAt);
    expect(ticks).toBeGreaterThan(2);
  });

  it('a document past the time limit answers 503 pdf_render_limit_exceeded with Retry-After', async () => {
    const slow = await setupApi({ PDF_RENDER_TIMEOUT_MS: '1' });
    const tenant = await slow.tenant({ language: 'de' });
    const customer = await slow.call('createCustomer', {
      key: tenant.key,
      body: { name: 'Bäckerei Schmidt', email: `anna-${randomUUID()}@example.de` },
    });
    const invoice = await slow.call('createInvoice', {
      key: tenant.key,
      body: {
        customer_id: customer.body.data.id,
        title: 'Malerarbeiten',
        items: Array.from({ length: 60 }, () => ({
          name: 'Malerarbeiten',
          description: prose,
          quantity: 1,
          unit_price: 10,
        })),
      },
    });
    expect(invoice.status, JSON.stringify(invoice.body)).toBe(201);
    const answer = await slow.call('getInvoicePdf', { key: tenant.key, params: { invoice: invoice.body.data.id } });
    expect(answer.status).toBe(503);
    expect(answer.body.code).toBe('pdf_render_limit_exceeded');
    expect(answer.headers.get('retry-after')).toBe('5');
    expect(answer.body.detail).toContain('1 Sekunde');
    expect(answer.body.detail).not.toContain('1 Sekunden');
  });

  it('the page bound stops a document with a limit error, and the thread goes on rendering', async () => {
    const renderer = new PdfRenderer({ ...limits, maxPages: 2 });
    try {
      const error = await renderer.render(bigInvoice()).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(PdfRenderLimitError);
      expect(error).toMatchObject({ limit: 'pages', value: 2 });
      const pdf = await renderer.render(view());
      expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    } finally {
      await renderer.close();
    }
  });

  it('a thread past its memory limit ends with a limit error, not the process', async () => {
    const renderer = new PdfRenderer({ ...limits, memoryMb: 16 });
    try {
      const error = await renderer.render(bigInvoice()).catch((e: unknown) => e);
      expect(error).toMatchObject({ limit: 'memory', value: 16 });
    } finally {
      await renderer.close();
    }
  });
});

describe.skipIf(!poppler)('what the PDF prints', () => {
  it('a 5 000-character word wraps inside the page instead of running off it', async () => {
    const word = 'x'.repeat(5000);
    const pdf = await api.deps.pdfRenderer.render(view({ lines: [line(word)], notes: `Reference ${word}` }));
    const text = textOf(fileOf('long-word', pdf));
    const xs = text.split('\n').filter((l) => /^x+$/.test(l.trim()) || /x{20,}/.test(l));
    expect(xs.join('').replace(/[^x]/g, '').length).toBe(10_000);
    // A description line is at most about 60 characters wide, a note line about 120.
    for (const l of xs) expect(l.length).toBeLessThan(140);
    expect(xs.length).toBeGreaterThan(80);
  });

  it('embeds photos at print size whatever their size uploaded', async () => {
    const noise = Buffer.alloc(3000 * 2000 * 3);
    for (let i = 0; i < noise.length; i++) noise[i] = (i * 7919) % 251;
    const photo = await sharp(noise, { raw: { width: 3000, height: 2000, channels: 3 } })
      .png()
      .toBuffer();
    const printable = await printablePhoto(photo);
    if (!printable.ok) throw new Error(`no print version: ${printable.failure}`);
    const pdf = await api.deps.pdfRenderer.render(
      view({
        kind: 'work_order',
        photos: [{ image: printable.image, mimeType: 'image/jpeg', caption: 'Voor' }],
      }),
    );
    const list = execFileSync(PDFIMAGES, ['-list', fileOf('photo-size', pdf)], { encoding: 'utf8' });
    const images = list
      .split('\n')
      .slice(2)
      .filter((l) => l.trim());
    expect(images.length).toBe(1);
    const [, , , width, height] = images[0].trim().split(/\s+/);
    expect(Math.max(Number(width), Number(height))).toBe(MAX_PRINT_PIXELS);
  });

  it('a work order prints the work to be done, the work performed, the checklist and the notes as sections', async () => {
    const pdf = await api.deps.pdfRenderer.render(
      view({
        kind: 'work_order',
        number: 'W2026-0042',
        work: {
          description: 'Replace the boiler in the attic.',
          workPerformed: 'Boiler replaced, flue checked.',
          customerNotes: 'Please ring twice.',
          checklist: [
            { label: 'Gas shut off', checked: true, required: true, note: 'Main tap closed' },
            { label: 'Flue gas measured', checked: true, required: false },
            { label: 'Old boiler removed', checked: false, required: false },
          ],
        },
      }),
    );
    const text = textOf(fileOf(`work-order-sections-${randomUUID()}`, pdf));
    const order = [
      'Work to be done',
      'Replace the boiler in the attic.',
      'Work performed',
      'Boiler replaced, flue checked.',
      'Checklist',
      '2 of 3 done',
      'Gas shut off (required)',
      'Main tap closed',
      'Flue gas measured',
      'Old boiler removed',
      "Customer's notes",
      'Please ring twice.',
    ];
    const positions = order.map((s) => text.indexOf(s));
    expect(
      positions.every((p) => p >= 0),
      JSON.stringify(positions),
    ).toBe(true);
    expect([...positions].sort((a, b) => a - b)).toEqual(positions);
  });
});
