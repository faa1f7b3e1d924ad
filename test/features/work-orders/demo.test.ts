// The demo company has work orders in the usual states, with lines, checklists, photos that download as real
// JPEGs, a signed one, and a PDF that renders.
import { beforeAll, expect, it } from 'vitest';
import { createDemo } from '../../../src/cli/demo.ts';
import { setupApi, type TestApi } from '../../harness/api.ts';

let api: TestApi;

beforeAll(async () => {
  api = await setupApi();
});

it('fills the demo company with work orders, photos and a signed one', async () => {
  const { key } = await createDemo(api.db);
  const list = await api.call('listWorkOrders', { key });
  expect(list.status).toBe(200);
  const orders = list.body.data as {
    id: string;
    status: string;
    items: { minutes: number | null }[];
    checklist: unknown[];
    photos: { download_url: string }[];
    signature: { is_signed: boolean; signed_by_name: string | null };
    appointment_id: string | null;
    total: string;
  }[];
  expect(new Set(orders.map((w) => w.status))).toEqual(
    new Set(['draft', 'planned', 'in_progress', 'completed', 'cancelled']),
  );
  for (const w of orders) {
    expect(w.items.some((i) => i.minutes === 90)).toBe(true);
    expect(w.checklist).toHaveLength(3);
    expect(w.total).toBe('190.51'); // 97.50 + 24.95 + 35.00 = 157.45, + 21 % (33.06)
  }
  const signed = orders.filter((w) => w.signature.is_signed);
  expect(signed).toHaveLength(1);
  expect(signed[0].status).toBe('completed');
  expect(signed[0].appointment_id).not.toBeNull();
  const photos = orders.flatMap((w) => w.photos);
  expect(photos.length).toBeGreaterThanOrEqual(3);
  const download = await api.app.request(`http://api.test${new URL(photos[0].download_url).pathname}`);
  expect(download.headers.get('content-type')).toBe('image/jpeg');
  const bytes = Buffer.from(await download.arrayBuffer());
  expect(bytes.subarray(0, 3).equals(Buffer.from([0xff, 0xd8, 0xff]))).toBe(true);
  const pdf = await api.call('getWorkOrderPdf', { key, params: { work_order: signed[0].id } });
  expect(pdf.status).toBe(200);
  expect(pdf.text.startsWith('%PDF-')).toBe(true);
});
