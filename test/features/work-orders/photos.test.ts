// Work order photos: images only, decided from the bytes (a renamed PDF is refused, GIF and WebP are taken), at most
// 10 MB (413, nothing stored), 30 per work order (the 31st: 403 limit_reached), display order, the kind filter,
// deletion (row, file and link gone), and no changes once the work order is invoiced.
import { randomBytes } from 'node:crypto';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { MAX_FILE_BYTES } from '../../../src/http/upload.ts';
import { setupApi, type TestApi } from '../../harness/api.ts';
import { fileBytesKept } from '../../harness/s3.ts';

let api: TestApi;
let key: string;
let customerId: string;
let images: Record<'jpeg' | 'png' | 'gif' | 'webp', Buffer>;

async function newWorkOrder(status: 'draft' | 'planned' = 'planned'): Promise<string> {
  const created = await api.call('createWorkOrder', { key, body: { customer_id: customerId, status } });
  expect(created.status).toBe(201);
  return created.body.data.id;
}

function form(name: string, bytes: Uint8Array, fields: Record<string, string> = {}, type = 'image/jpeg') {
  const data = new FormData();
  data.set('file', new Blob([new Uint8Array(bytes)], { type }), name);
  for (const [field, value] of Object.entries(fields)) data.set(field, value);
  return data;
}

const upload = (work_order: string, body: FormData) =>
  api.call('createWorkOrderPhoto', { key, params: { work_order }, rawBody: body });

const fileRows = async () => Number((await api.sql`select count(*) from files`)[0].count);

beforeAll(async () => {
  api = await setupApi();
  ({ key } = await api.tenant());
  const customer = await api.call('createCustomer', {
    key,
    body: { type: 'business', name: 'Jan Jansen', email: `jan-${randomBytes(4).toString('hex')}@example.nl` },
  });
  customerId = customer.body.data.id;
  const base = sharp({ create: { width: 64, height: 48, channels: 3, background: { r: 200, g: 80, b: 40 } } });
  images = {
    jpeg: await base.clone().jpeg().toBuffer(),
    png: await base.clone().png().toBuffer(),
    gif: await base.clone().gif().toBuffer(),
    webp: await base.clone().webp().toBuffer(),
  };
});

describe('work order photos', () => {
  it('takes JPEG, PNG, GIF and WebP, whatever their names, in display order with signed links', async () => {
    const id = await newWorkOrder();
    const kinds = ['before', 'after', 'other', 'before'] as const;
    const sent = (['jpeg', 'png', 'gif', 'webp'] as const).map((type, i) => ({ type, kind: kinds[i] }));
    const ids: string[] = [];
    for (const { type, kind } of sent) {
      const created = await upload(
        id,
        form(`foto.${type === 'jpeg' ? 'txt' : 'bin'}`, images[type], { kind, caption: `Foto ${type}` }),
      );
      expect(created.status).toBe(201);
      expect(created.body.data).toMatchObject({
        object: 'work_order_photo',
        work_order_id: id,
        kind,
        caption: `Foto ${type}`,
      });
      ids.push(created.body.data.id);
    }
    const [{ mime_types }] = await api.sql`
      select array_agg(f.mime_type order by p.position) as mime_types
        from work_order_photos p join files f on f.company_id = p.company_id and f.id = p.file_id
       where p.work_order_id = ${id}`;
    expect(mime_types).toEqual(['image/jpeg', 'image/png', 'image/gif', 'image/webp']);
    const workOrder = await api.call('getWorkOrder', { key, params: { work_order: id } });
    expect(workOrder.body.data.photos.map((p: { id: string }) => p.id)).toEqual(ids);
    const list = await api.call('listWorkOrderPhotos', { key, params: { work_order: id } });
    expect(list.body.data.map((p: { id: string }) => p.id)).toEqual(ids);
    const newest = await api.call('listWorkOrderPhotos', {
      key,
      params: { work_order: id },
      query: { sort: '-created_at' },
    });
    expect(newest.body.data.map((p: { id: string }) => p.id)).toEqual([...ids].reverse());
    const before = await api.call('listWorkOrderPhotos', {
      key,
      params: { work_order: id },
      query: { 'filter[kind]': 'before' },
    });
    expect(before.body.data.map((p: { id: string }) => p.id)).toEqual([ids[0], ids[3]]);
    const link = new URL(list.body.data[3].download_url);
    const download = await api.app.request(`http://api.test${link.pathname}`);
    expect(download.status).toBe(200);
    expect(download.headers.get('content-type')).toBe('image/webp');
    expect(Buffer.from(await download.arrayBuffer()).equals(images.webp)).toBe(true);
  });

  it('refuses a renamed non-image (a PDF called foto.jpg) with 422 invalid_format, and an unknown kind', async () => {
    const id = await newWorkOrder();
    const before = await fileRows();
    const pdf = Buffer.from('%PDF-1.7\n1 0 obj <<>> endobj\n%%EOF\n');
    const refused = await upload(id, form('foto.jpg', pdf));
    expect(refused.status).toBe(422);
    expect(refused.body.errors[0]).toMatchObject({ pointer: '/file', code: 'invalid_format' });
    expect(refused.body.errors[0].detail).toContain('application/pdf');
    const kind = await upload(id, form('foto.jpg', images.jpeg, { kind: 'tijdens' }));
    expect(kind.status).toBe(422);
    expect(kind.body.errors[0]).toMatchObject({ pointer: '/kind', code: 'invalid_enum' });
    expect(await fileRows()).toBe(before);
  });

  it('refuses 11 MB (and one byte over 10 MB) with 413 and stores nothing', async () => {
    const id = await newWorkOrder();
    const before = await fileRows();
    for (const size of [MAX_FILE_BYTES + 1, 11 * 1024 * 1024]) {
      const big = Buffer.concat([images.jpeg, randomBytes(size - images.jpeg.byteLength)]);
      const refused = await upload(id, form('groot.jpg', big));
      expect(refused.status).toBe(413);
      expect(refused.body.code).toBe('payload_too_large');
    }
    expect(await fileRows()).toBe(before);
  });

  it('holds 30 photos: the 31st answers 403 limit_reached', async () => {
    const id = await newWorkOrder();
    for (let i = 0; i < 30; i++) expect((await upload(id, form(`${i}.png`, images.png))).status).toBe(201);
    const refused = await upload(id, form('31.png', images.png));
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('limit_reached');
    const got = await api.call('getWorkOrder', { key, params: { work_order: id } });
    expect(got.body.data.photos).toHaveLength(30);
  });

  it('deletes a photo: row, file and link gone; another work order’s photo is 404', async () => {
    const id = await newWorkOrder();
    const created = await upload(id, form('weg.jpg', images.jpeg));
    const { id: photo, download_url } = created.body.data;
    const other = await newWorkOrder();
    expect((await api.call('deleteWorkOrderPhoto', { key, params: { work_order: other, photo } })).status).toBe(404);
    const [{ file_id, company_id }] =
      await api.sql`select file_id, company_id from work_order_photos where id = ${photo}`;
    const deleted = await api.call('deleteWorkOrderPhoto', { key, params: { work_order: id, photo } });
    expect(deleted.status).toBe(200);
    expect(deleted.body).toEqual({ data: { object: 'work_order_photo', id: photo, deleted: true } });
    expect(await api.sql`select 1 from files where id = ${file_id}`).toHaveLength(0);
    expect(await fileBytesKept(api, company_id, file_id)).toBe(false);
    expect((await api.app.request(`http://api.test${new URL(download_url).pathname}`)).status).toBe(404);
  });

  it('deleting a work order deletes its photos’ files', async () => {
    const id = await newWorkOrder('draft');
    await upload(id, form('a.jpg', images.jpeg));
    const [{ file_id }] = await api.sql`select file_id from work_order_photos where work_order_id = ${id}`;
    expect((await api.call('deleteWorkOrder', { key, params: { work_order: id } })).status).toBe(200);
    expect(await api.sql`select 1 from files where id = ${file_id}`).toHaveLength(0);
  });

  it('refuses photo changes once the work order is cancelled (409), and 404 for an unknown work order', async () => {
    const id = await newWorkOrder();
    const kept = await upload(id, form('a.jpg', images.jpeg));
    await api.call('changeWorkOrderStatus', { key, params: { work_order: id }, body: { status: 'cancelled' } });
    expect((await upload(id, form('b.jpg', images.jpeg))).status).toBe(409);
    const del = await api.call('deleteWorkOrderPhoto', { key, params: { work_order: id, photo: kept.body.data.id } });
    expect(del.status).toBe(409);
    const unknown = '0195a1b0-2c3d-7e4f-8a5b-6c7d8e9f0a1b';
    expect((await upload(unknown, form('a.jpg', images.jpeg))).status).toBe(404);
    expect((await api.call('listWorkOrderPhotos', { key, params: { work_order: unknown } })).status).toBe(404);
  });

  it('keeps tenants apart', async () => {
    const id = await newWorkOrder();
    const photo = await upload(id, form('a.jpg', images.jpeg));
    const other = await api.tenant();
    const list = await api.call('listWorkOrderPhotos', { key: other.key, params: { work_order: id } });
    expect(list.status).toBe(404);
    const del = await api.call('deleteWorkOrderPhoto', {
      key: other.key,
      params: { work_order: id, photo: photo.body.data.id },
    });
    expect(del.status).toBe(404);
  });
});
