// Work-order photos' print versions: made once, by the work_order_photo_print job queued in the upload's
// transaction, within sharp's pixel limit (a PNG claiming 16000 × 16000 pixels fails as `too_many_pixels` before a
// byte of it is decoded) and a byte limit; a photo that cannot be read fails as `unreadable`. The PDF embeds print
// versions only: before the job it names the photo, after it draws the print version. Photos left pending are
// queued again by the hourly sweep.
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { JobHelpers } from 'graphile-worker';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { taskList } from '../../../src/jobs/worker.ts';
import { MAX_PRINT_BYTES, MAX_PRINT_PIXELS, printablePhoto } from '../../../src/pdf/printable-photo.ts';
import { setupApi, type TestApi } from '../../harness/api.ts';
import { makePhotoPrints, queuedJobsOf } from '../../harness/jobs.ts';

const OUT = join(import.meta.dirname, '../../../test-results/pdf');

let api: TestApi;
let key: string;
let companyId: string;
let customerId: string;

async function newWorkOrder(): Promise<string> {
  const created = await api.call('createWorkOrder', { key, body: { customer_id: customerId, status: 'planned' } });
  expect(created.status).toBe(201);
  return created.body.data.id;
}

async function upload(workOrder: string, bytes: Uint8Array, caption: string) {
  const data = new FormData();
  data.set('file', new Blob([new Uint8Array(bytes)]), 'foto');
  data.set('caption', caption);
  const created = await api.call('createWorkOrderPhoto', { key, params: { work_order: workOrder }, rawBody: data });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return created.body.data;
}

async function photosOf(workOrder: string) {
  const listed = await api.call('listWorkOrderPhotos', { key, params: { work_order: workOrder } });
  expect(listed.status).toBe(200);
  return listed.body.data as { id: string; caption: string; print_status: string; print_failure: string | null }[];
}

/** The images embedded in the work order's PDF (pdfimages), and its text. */
async function pdfOf(workOrder: string, name: string) {
  const answer = await api.call('getWorkOrderPdf', { key, params: { work_order: workOrder } });
  expect(answer.status).toBe(200);
  const response = await api.app.request(`http://api.test/api/v1/work-orders/${workOrder}/pdf`, {
    headers: { authorization: `Bearer ${key}` },
  });
  mkdirSync(OUT, { recursive: true });
  const file = join(OUT, `${name}.pdf`);
  writeFileSync(file, Buffer.from(await response.arrayBuffer()));
  const images = execFileSync('/usr/bin/pdfimages', ['-list', file], { encoding: 'utf8' })
    .split('\n')
    .slice(2)
    .filter((l) => l.trim())
    .map((l) => l.trim().split(/\s+/));
  const text = execFileSync('/usr/bin/pdftotext', [file, '-'], { encoding: 'utf8' }).replace(/\u00A0/g, ' ');
  return { images, text };
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
const crc32 = (bytes: Uint8Array) => {
  let c = 0xffffffff;
  for (const b of bytes) c = (CRC_TABLE[(c ^ b) & 0xff] ?? 0) ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
};

/** A small PNG whose header claims `width` × `height` pixels (the decompression-bomb shape). */
async function pngClaiming(width: number, height: number): Promise<Buffer> {
  const png = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#336699' } })
    .png()
    .toBuffer();
  // IHDR: length (4) at 8, type at 12, width at 16, height at 20, … its CRC over type and data at 29.
  png.writeUInt32BE(width, 16);
  png.writeUInt32BE(height, 20);
  png.writeUInt32BE(crc32(png.subarray(12, 29)), 29);
  return png;
}

beforeAll(async () => {
  api = await setupApi();
  ({ key, companyId } = await api.tenant({ language: 'en' }));
  const customer = await api.call('createCustomer', {
    key,
    body: { name: 'Jan Jansen', email: `jan-${randomBytes(4).toString('hex')}@example.nl` },
  });
  customerId = customer.body.data.id;
});

describe('print versions of photos', () => {
  it('are queued with the upload, made once by the job, and the only photos a PDF embeds', async () => {
    const workOrder = await newWorkOrder();
    const photo = await sharp({
      create: {
        width: 2000,
        height: 1500,
        channels: 3,
        background: '#808080',
        noise: { type: 'gaussian', mean: 128, sigma: 40 },
      },
    })
      .jpeg({ quality: 90 })
      .toBuffer();
    const created = await upload(workOrder, photo, 'Boiler before');
    expect(created.print_status).toBe('pending');
    expect(created.print_failure).toBeNull();
    const jobs = await queuedJobsOf(api, 'work_order_photo_print', companyId);
    expect(jobs.map((j) => j.payload)).toEqual([{ companyId, photoId: created.id }]);

    // Before the job: the PDF names the photo and embeds nothing (no original is reduced while rendering).
    const before = await pdfOf(workOrder, 'photo-print-pending');
    expect(before.images).toHaveLength(0);
    expect(before.text).toContain('Boiler before');

    expect(await makePhotoPrints(api, companyId)).toBe(1);
    const [made] = await photosOf(workOrder);
    expect(made).toMatchObject({ id: created.id, print_status: 'ready', print_failure: null });
    const [print] =
      await api.sql`select width, height, size from work_order_photo_prints where photo_id = ${created.id}`;
    expect(Math.max(print.width, print.height)).toBe(MAX_PRINT_PIXELS);
    expect(print.size).toBeLessThanOrEqual(MAX_PRINT_BYTES);

    // After it: the print version is drawn, at print size.
    const after = await pdfOf(workOrder, 'photo-print-ready');
    const drawn = after.images.filter((cols) => cols[2] === 'image');
    expect(drawn).toHaveLength(1);
    expect(Math.max(Number(drawn[0]?.[3]), Number(drawn[0]?.[4]))).toBe(MAX_PRINT_PIXELS);

    // A second run of the job (queued again by the sweep) leaves the print version as it is.
    const task = taskList({ ...api.deps, config: api.config }).work_order_photo_print;
    await task({ companyId, photoId: created.id }, {} as JobHelpers);
    const [again] =
      await api.sql`select count(*)::int as n from work_order_photo_prints where photo_id = ${created.id}`;
    expect(again.n).toBe(1);
  }, 180_000);

  it('fail as too_many_pixels for a PNG claiming 16000 × 16000 pixels, and as unreadable for broken bytes', async () => {
    const workOrder = await newWorkOrder();
    const bomb = await upload(workOrder, await pngClaiming(16_000, 16_000), 'Bomb');
    const broken = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), randomBytes(2048)]);
    const garbled = await upload(workOrder, broken, 'Garbled');
    await makePhotoPrints(api, companyId);
    const photos = await photosOf(workOrder);
    expect(photos.find((p) => p.id === bomb.id)).toMatchObject({
      print_status: 'failed',
      print_failure: 'too_many_pixels',
    });
    expect(photos.find((p) => p.id === garbled.id)).toMatchObject({
      print_status: 'failed',
      print_failure: 'unreadable',
    });
    const [prints] = await api.sql`select count(*)::int as n from work_order_photo_prints
      where photo_id in (${bomb.id}, ${garbled.id})`;
    expect(prints.n).toBe(0);
    // The PDF still renders, naming both.
    const pdf = await pdfOf(workOrder, 'photo-print-failed');
    expect(pdf.images).toHaveLength(0);
    expect(pdf.text).toContain('Bomb');
  }, 180_000);

  it('keep within the byte limit, trying lower qualities, or fail as too_large', async () => {
    const noise = await sharp({
      create: {
        width: 1600,
        height: 1600,
        channels: 3,
        background: '#808080',
        noise: { type: 'gaussian', mean: 128, sigma: 90 },
      },
    })
      .png()
      .toBuffer();
    const limits = { maxInputPixels: 100_000_000, timeoutSeconds: 20 };
    const roomy = await printablePhoto(noise, { ...limits, maxBytes: MAX_PRINT_BYTES });
    expect(roomy.ok && roomy.image.byteLength).toBeLessThanOrEqual(MAX_PRINT_BYTES);
    expect(await printablePhoto(noise, { ...limits, maxBytes: 10_000 })).toEqual({ ok: false, failure: 'too_large' });
    expect(await printablePhoto(noise, { ...limits, maxInputPixels: 1_000_000, maxBytes: MAX_PRINT_BYTES })).toEqual({
      ok: false,
      failure: 'too_many_pixels',
    });
  }, 120_000);

  it('left pending (a lost job, photos of before) are queued again by the sweep', async () => {
    const workOrder = await newWorkOrder();
    const tile = await sharp({ create: { width: 40, height: 30, channels: 3, background: '#aa3300' } })
      .jpeg()
      .toBuffer();
    const photo = await upload(workOrder, tile, 'Lost job');
    await api.sql`delete from graphile_worker._private_jobs where key = ${`work_order_photo_print:${photo.id}`}`;
    const sweep = taskList({ ...api.deps, config: api.config }).sweep_photo_prints;
    await sweep({}, {} as JobHelpers);
    // Not yet: the photo's own job may still be on its way.
    expect((await queuedJobsOf(api, 'work_order_photo_print', companyId)).map((j) => j.payload.photoId)).not.toContain(
      photo.id,
    );
    await api.sql`update work_order_photos set created_at = created_at - interval '1 hour' where id = ${photo.id}`;
    await sweep({}, {} as JobHelpers);
    expect((await queuedJobsOf(api, 'work_order_photo_print', companyId)).map((j) => j.payload.photoId)).toContain(
      photo.id,
    );
    await makePhotoPrints(api, companyId);
    expect((await photosOf(workOrder))[0]?.print_status).toBe('ready');
  });
});
