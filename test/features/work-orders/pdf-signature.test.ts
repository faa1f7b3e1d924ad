// The customer's signature (recorded once, for work under way or done; cleared by reopening) and the work order
// PDF as a reader sees it: rendered to PNG by poppler's pdftoppm (kept in test-results/pdf/) and read back with
// pdftotext, with its photos embedded — GIF and WebP converted, a large photo scaled down (pdfimages lists them).
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { MAX_PRINT_PIXELS } from '../../../src/pdf/printable-photo.ts';
import { setupApi, type TestApi } from '../../harness/api.ts';
import { makePhotoPrints } from '../../harness/jobs.ts';

const OUT = join(import.meta.dirname, '../../../test-results/pdf');
// The rerun on S3 (pdf-signature-s3.test.ts) may run beside this file: each writes its own PDFs.
const NAME = process.env.FILE_STORAGE === 's3' ? 'work-order-api-s3' : 'work-order-api';

let api: TestApi;
let key: string;
let companyId: string;
let customerId: string;

const move = (id: string, status: string) =>
  api.call('changeWorkOrderStatus', { key, params: { work_order: id }, body: { status } });
const sign = (id: string, body: Record<string, unknown>) =>
  api.call('signWorkOrder', { key, params: { work_order: id }, body });

async function newWorkOrder(body: Record<string, unknown> = {}): Promise<string> {
  const created = await api.call('createWorkOrder', {
    key,
    body: { customer_id: customerId, status: 'planned', ...body },
  });
  expect(created.status).toBe(201);
  return created.body.data.id;
}

async function uploadPhoto(id: string, bytes: Buffer, fields: Record<string, string>) {
  const data = new FormData();
  data.set('file', new Blob([new Uint8Array(bytes)]), 'foto');
  for (const [k, v] of Object.entries(fields)) data.set(k, v);
  const created = await api.call('createWorkOrderPhoto', { key, params: { work_order: id }, rawBody: data });
  expect(created.status).toBe(201);
}

/** The PDF's bytes, after the same request was checked against the contract. */
async function downloadPdf(id: string, k = key) {
  const checked = await api.call('getWorkOrderPdf', { key: k, params: { work_order: id } });
  const response = await api.app.request(`http://api.test/api/v1/work-orders/${id}/pdf`, {
    headers: { authorization: `Bearer ${k}` },
  });
  return { checked, response, pdf: Buffer.from(await response.arrayBuffer()) };
}

beforeAll(async () => {
  api = await setupApi();
  ({ key, companyId } = await api.tenant({ language: 'nl' }));
  const customer = await api.call('createCustomer', {
    key,
    body: {
      type: 'business',
      name: 'Jan Jansen',
      email: `jan-${randomBytes(4).toString('hex')}@bakkerijjansen.nl`,
      address: 'Prinsengracht 263',
      postal_code: '1016 GV',
      city: 'Amsterdam',
    },
  });
  customerId = customer.body.data.id;
});

describe('signature', () => {
  it('records name and time once, for work in progress or completed; reopening clears it', async () => {
    const id = await newWorkOrder();
    expect((await sign(id, { signed_by_name: 'Jan Jansen' })).status).toBe(409); // planned
    await move(id, 'in_progress');
    const future = await sign(id, { signed_by_name: 'Jan Jansen', signed_at: '2099-01-01T00:00:00Z' });
    expect(future.status).toBe(422);
    const signed = await sign(id, { signed_by_name: 'Jan Jansen', signed_at: '2026-03-16T11:42:00+01:00' });
    expect(signed.status).toBe(200);
    expect(signed.body.data.signature).toEqual({
      is_signed: true,
      signed_by_name: 'Jan Jansen',
      signed_at: '2026-03-16T10:42:00.000Z',
    });
    const twice = await sign(id, { signed_by_name: 'Piet' });
    expect(twice.status).toBe(409);
    await move(id, 'completed');
    const reopened = await move(id, 'in_progress');
    expect(reopened.body.data.signature).toEqual({ is_signed: false, signed_by_name: null, signed_at: null });
    const now = await sign(id, { signed_by_name: 'Piet de Vries' });
    expect(now.status).toBe(200);
    expect(Date.now() - Date.parse(now.body.data.signature.signed_at)).toBeLessThan(60_000);
    const cancelled = await newWorkOrder();
    await move(cancelled, 'cancelled');
    expect((await sign(cancelled, { signed_by_name: 'X' })).status).toBe(409);
  });
});

describe('work order PDF', () => {
  it('prints the work order in its language with its lines, totals, photos and signature', async () => {
    const id = await newWorkOrder({
      title: 'Onderhoud cv-ketel',
      description: 'Jaarlijks onderhoud van de cv-ketel.',
      language: 'nl',
      items: [
        {
          type: 'labor',
          name: 'Arbeid monteur',
          quantity: 1.5,
          unit: 'uur',
          unit_price: 65,
          tax_rate: 21,
          minutes: 90,
        },
        { type: 'product', name: 'Filter cv-ketel', quantity: 1, unit_price: 24.95, tax_rate: 21 },
      ],
    });
    // A large noisy JPEG (scaled down for print), and one photo of each other type.
    const noise = randomBytes(3000 * 2000 * 3);
    const large = await sharp(noise, { raw: { width: 3000, height: 2000, channels: 3 } })
      .jpeg({ quality: 90 })
      .toBuffer();
    const tile = sharp({ create: { width: 120, height: 80, channels: 3, background: { r: 30, g: 120, b: 200 } } });
    await uploadPhoto(id, large, { kind: 'before', caption: 'Ketel voor onderhoud' });
    await uploadPhoto(id, await tile.clone().png().toBuffer(), { kind: 'after', caption: 'Ketel na reiniging' });
    await uploadPhoto(id, await tile.clone().gif().toBuffer(), { kind: 'other', caption: 'Typeplaatje GIF' });
    await uploadPhoto(id, await tile.clone().webp().toBuffer(), { kind: 'other', caption: 'Rookgasafvoer WebP' });
    await move(id, 'in_progress');
    await sign(id, { signed_by_name: 'Jan Jansen', signed_at: '2026-03-16T11:42:00+01:00' });
    // The photos are read back from the storage the app keeps files in (S3 in pdf-signature-s3.test.ts).
    const storages = await api.sql`select distinct storage from files`;
    expect(storages.map((r) => r.storage)).toEqual([api.deps.fileStorages.current.name]);

    // The PDF embeds the photos' print versions, made by their jobs after the uploads.
    expect(await makePhotoPrints(api, companyId)).toBe(4);
    const { checked, response, pdf } = await downloadPdf(id);
    expect(checked.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/pdf');
    expect(response.headers.get('cache-control')).toBe('private, no-store');
    const number = (await api.call('getWorkOrder', { key, params: { work_order: id } })).body.data.number;
    expect(response.headers.get('content-disposition')).toBe(`attachment; filename="${number}.pdf"`);
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    // The 9 MB of noise photo is scaled down: the whole document stays small.
    expect(large.byteLength).toBeGreaterThan(3_000_000);
    expect(pdf.byteLength).toBeLessThan(2_500_000);

    mkdirSync(OUT, { recursive: true });
    const file = join(OUT, `${NAME}-nl.pdf`);
    writeFileSync(file, pdf);
    execFileSync('/usr/bin/pdftoppm', ['-png', '-r', '72', file, join(OUT, `${NAME}-nl`)]);
    const png = readFileSync(join(OUT, `${NAME}-nl-1.png`));
    expect(png.subarray(0, 8).equals(Buffer.from('89504e470d0a1a0a', 'hex'))).toBe(true);
    const text = execFileSync('/usr/bin/pdftotext', ['-layout', file, '-'], { encoding: 'utf8' }).replace(
      /\u00A0/g,
      ' ',
    );
    expect(text).toContain(`Werkbon ${number}`);
    expect(text).toContain('Arbeid monteur');
    expect(text).toContain('Filter cv-ketel');
    expect(text).toContain('€ 148,16'); // 122.45 + 21 %
    expect(text).toContain('Jaarlijks onderhoud van de cv-ketel.');
    expect(text).toContain("Foto's");
    for (const caption of ['Ketel voor onderhoud', 'Ketel na reiniging', 'Typeplaatje GIF', 'Rookgasafvoer WebP'])
      expect(text).toContain(caption);
    expect(text).not.toContain('niet weergegeven'); // every photo drawn, GIF and WebP included
    expect(text).toContain('Getekend door Jan Jansen op 16 maart 2026 om 11:42');

    // Four images embedded, none wider or taller than print needs.
    const list = execFileSync('/usr/bin/pdfimages', ['-list', file], { encoding: 'utf8' });
    const images = list
      .split('\n')
      .slice(2)
      .filter((l) => l.trim())
      .map((l) => l.trim().split(/\s+/))
      .filter((cols) => cols[2] === 'image');
    expect(images).toHaveLength(4);
    for (const cols of images) expect(Math.max(Number(cols[3]), Number(cols[4]))).toBeLessThanOrEqual(MAX_PRINT_PIXELS);
    expect(images.map((cols) => Number(cols[3]))).toContain(MAX_PRINT_PIXELS);
  });

  it('prints an unsigned work order in German with an empty signature line', async () => {
    const id = await newWorkOrder({ language: 'de', items: [{ name: 'Arbeitszeit', quantity: 2, unit_price: 50 }] });
    const { pdf } = await downloadPdf(id);
    const file = join(OUT, `${NAME}-de.pdf`);
    mkdirSync(OUT, { recursive: true });
    writeFileSync(file, pdf);
    execFileSync('/usr/bin/pdftoppm', ['-png', '-r', '72', '-f', '1', '-l', '1', file, join(OUT, `${NAME}-de`)]);
    const text = execFileSync('/usr/bin/pdftotext', ['-layout', file, '-'], { encoding: 'utf8' });
    expect(text).toContain('Arbeitsauftrag');
    expect(text).toContain('Noch nicht unterschrieben');
  });

  it('is 404 for another tenant', async () => {
    const id = await newWorkOrder();
    const other = await api.tenant();
    const { checked } = await downloadPdf(id, other.key);
    expect(checked.status).toBe(404);
  });
});
