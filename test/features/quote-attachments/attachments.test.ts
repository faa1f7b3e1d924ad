// Quote attachments through the API: upload (multipart, streamed), list with signed links, download, delete (file
// and row gone), the limit of 20, types decided from the bytes, the size limit with nothing stored.
import { randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { MAX_FILE_BYTES } from '../../../src/http/upload.ts';
import { setupApi, type TestApi } from '../../harness/api.ts';
import { fileBytesKept } from '../../harness/s3.ts';
import { fixtureFiles } from '../files/fixtures.ts';

let api: TestApi;
let key: string;
let quoteId: string;

async function newQuote(): Promise<string> {
  const customer = await api.call('createCustomer', {
    key,
    body: { type: 'business', name: 'Jan Jansen', email: `jan-${randomBytes(4).toString('hex')}@bakkerijjansen.nl` },
  });
  expect(customer.status).toBe(201);
  const quote = await api.call('createQuote', {
    key,
    body: {
      customer_id: customer.body.data.id,
      title: 'Schilderwerk kozijnen',
      items: [{ name: 'Kozijn schilderen', quantity: 2, unit_price: 10, tax_rate: 21 }],
    },
  });
  expect(quote.status).toBe(201);
  return quote.body.data.id;
}

function form(name: string, bytes: Uint8Array, fields: Record<string, string> = {}, type = 'application/pdf') {
  const data = new FormData();
  data.set('file', new Blob([new Uint8Array(bytes)], { type }), name);
  for (const [field, value] of Object.entries(fields)) data.set(field, value);
  return data;
}

const upload = (quote: string, body: FormData, headers: Record<string, string> = {}) =>
  api.call('createQuoteAttachment', { key, params: { quote }, rawBody: body, headers });

const fileRows = async () => Number((await api.sql`select count(*) from files`)[0].count);

beforeAll(async () => {
  api = await setupApi();
  ({ key } = await api.tenant());
  quoteId = await newQuote();
});

describe('quote attachments', () => {
  it('uploads a PDF with its description and visibility, lists it with a link that downloads it', async () => {
    const pdf = Buffer.concat([Buffer.from('%PDF-1.7\n'), randomBytes(300_000)]);
    const created = await upload(
      quoteId,
      form('kleurenkaart-sikkens.pdf', pdf, { description: 'Kleurenkaart', visible_to_customer: 'true' }),
    );
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({
      object: 'attachment',
      quote_id: quoteId,
      name: 'kleurenkaart-sikkens.pdf',
      mime_type: 'application/pdf',
      size: pdf.byteLength,
      description: 'Kleurenkaart',
      visible_to_customer: true,
    });
    const list = await api.call('listQuoteAttachments', { key, params: { quote: quoteId } });
    expect(list.status).toBe(200);
    expect(list.body.data.map((a: { id: string }) => a.id)).toContain(created.body.data.id);
    const link = new URL(list.body.data[0].download_url);
    const download = await api.app.request(`http://api.test${link.pathname}`);
    expect(download.status).toBe(200);
    expect(download.headers.get('content-type')).toBe('application/pdf');
    expect(Buffer.from(await download.arrayBuffer()).equals(pdf)).toBe(true);
  });

  it('decides the type from the bytes: a renamed executable sent as .pdf is refused with 422, nothing stored', async () => {
    const before = await fileRows();
    const refused = await upload(quoteId, form('offerte.pdf', fixtureFiles.exe));
    expect(refused.status).toBe(422);
    expect(refused.body.errors[0]).toMatchObject({ pointer: '/file', code: 'invalid_format' });
    const png = await upload(quoteId, form('scan.pdf', fixtureFiles.png));
    expect(png.status).toBe(201);
    expect(png.body.data.mime_type).toBe('image/png');
    expect(await fileRows()).toBe(before + 1);
  });

  it('refuses a file over 10 MB with 413 and stores nothing (one byte over, and 11 MB)', async () => {
    const before = await fileRows();
    for (const size of [MAX_FILE_BYTES + 1, 11 * 1024 * 1024]) {
      const big = Buffer.concat([Buffer.from('%PDF-1.7\n'), randomBytes(size - 9)]);
      const refused = await upload(quoteId, form('groot.pdf', big));
      expect(refused.status).toBe(413);
      expect(refused.body.code).toBe('payload_too_large');
    }
    expect(await fileRows()).toBe(before);
  });

  it('holds 20 attachments: the 21st answers 403 limit_reached', async () => {
    const quote = await newQuote();
    for (let i = 0; i < 20; i++) expect((await upload(quote, form(`${i}.png`, fixtureFiles.png))).status).toBe(201);
    const refused = await upload(quote, form('21.png', fixtureFiles.png));
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('limit_reached');
    const page = await api.call('listQuoteAttachments', { key, params: { quote }, query: { limit: 50 } });
    expect(page.body.data).toHaveLength(20);
  });

  it('deletes an attachment: its row and its file are gone, its link answers 404', async () => {
    const created = await upload(quoteId, form('weg.pdf', Buffer.from('%PDF-1.7\nweg')));
    const { id, download_url } = created.body.data;
    const [{ file_id, company_id }] = await api.sql`select file_id, company_id from quote_attachments where id = ${id}`;
    const deleted = await api.call('deleteQuoteAttachment', { key, params: { quote: quoteId, attachment: id } });
    expect(deleted.status).toBe(200);
    expect(deleted.body).toEqual({ data: { object: 'attachment', id, deleted: true } });
    expect(await api.sql`select 1 from quote_attachments where id = ${id}`).toHaveLength(0);
    expect(await api.sql`select 1 from files where id = ${file_id}`).toHaveLength(0);
    expect(await fileBytesKept(api, company_id, file_id)).toBe(false);
    expect((await api.app.request(`http://api.test${new URL(download_url).pathname}`)).status).toBe(404);
    const again = await api.call('deleteQuoteAttachment', { key, params: { quote: quoteId, attachment: id } });
    expect(again.status).toBe(404);
  });

  it('answers 404 for an unknown quote, and for an attachment of another quote', async () => {
    const unknown = '0195a1b0-2c3d-7e4f-8a5b-6c7d8e9f0a1b';
    expect((await api.call('listQuoteAttachments', { key, params: { quote: unknown } })).status).toBe(404);
    expect((await upload(unknown, form('a.png', fixtureFiles.png))).status).toBe(404);
    const other = await newQuote();
    const mine = await upload(quoteId, form('mine.png', fixtureFiles.png));
    const wrong = await api.call('deleteQuoteAttachment', {
      key,
      params: { quote: other, attachment: mine.body.data.id },
    });
    expect(wrong.status).toBe(404);
  });

  it('replays an upload with the same Idempotency-Key (another boundary, same form) without a second file', async () => {
    const before = await fileRows();
    const headers = { 'Idempotency-Key': `upload-${randomBytes(4).toString('hex')}` };
    const first = await upload(quoteId, form('idem.png', fixtureFiles.png), headers);
    const second = await upload(quoteId, form('idem.png', fixtureFiles.png), headers);
    expect(first.status).toBe(201);
    expect(second.status).toBe(201);
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    expect(second.body.data.id).toBe(first.body.data.id);
    expect(await fileRows()).toBe(before + 1);
    const reused = await upload(quoteId, form('other.png', fixtureFiles.png), headers);
    expect(reused.status).toBe(422);
    expect(reused.body.code).toBe('idempotency_key_reused');
  });

  it('a body that is not multipart/form-data answers 415', async () => {
    const sent = await api.call('createQuoteAttachment', {
      key,
      params: { quote: quoteId },
      body: { file: 'x' },
    });
    expect(sent.status).toBe(415);
  });
});
