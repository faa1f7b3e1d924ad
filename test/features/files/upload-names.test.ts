// The name an upload is stored and downloaded under: its extension follows the type decided from the bytes (a PNG
// sent as `x.html` downloads as `x.html.png`), control and bidirectional characters are removed (a right-to-left
// override cannot make `exe.pdf` look like `fdp.exe`), and it is bounded to 255 characters, extension kept.
import { randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { MAX_FILE_NAME, storedFileName } from '../../../src/files/file-name.ts';
import { setupApi, type TestApi } from '../../harness/api.ts';
import { fixtureFiles } from './fixtures.ts';

let api: TestApi;
let key: string;
let quoteId: string;

beforeAll(async () => {
  api = await setupApi();
  ({ key } = await api.tenant());
  const customer = await api.call('createCustomer', {
    key,
    body: { type: 'business', name: 'Jan Jansen', email: `jan-${randomBytes(4).toString('hex')}@example.nl` },
  });
  const quote = await api.call('createQuote', {
    key,
    body: {
      customer_id: customer.body.data.id,
      title: 'Schilderwerk',
      items: [{ name: 'Kozijn', quantity: 1, unit_price: 10, tax_rate: 21 }],
    },
  });
  expect(quote.status).toBe(201);
  quoteId = quote.body.data.id;
});

/** A multipart body built by hand, so that the file name reaches the service exactly (RFC 5987 `filename*`). */
function multipart(name: string, bytes: Buffer, type: string) {
  const boundary = `----names${randomBytes(8).toString('hex')}`;
  const head =
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename*=UTF-8''${encodeURIComponent(name)}\r\n` +
    `Content-Type: ${type}\r\n\r\n`;
  const body = Buffer.concat([Buffer.from(head), bytes, Buffer.from(`\r\n--${boundary}--\r\n`)]);
  return { rawBody: new Uint8Array(body), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

async function uploadAs(name: string, bytes: Buffer, type = 'application/octet-stream') {
  const res = await api.call('createQuoteAttachment', {
    key,
    params: { quote: quoteId },
    ...multipart(name, bytes, type),
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  const download = await api.app.request(`http://api.test${new URL(res.body.data.download_url).pathname}`);
  expect(download.status).toBe(200);
  return { name: res.body.data.name as string, download };
}

const PDF = Buffer.from('%PDF-1.7\n1 0 obj<<>>endobj\n%%EOF\n');

describe('an uploaded file name', () => {
  it('gets the extension of the detected type: a PNG sent as x.html downloads as x.html.png', async () => {
    const { name, download } = await uploadAs('x.html', fixtureFiles.png, 'text/html');
    expect(name).toBe('x.html.png');
    expect(download.headers.get('content-type')).toBe('image/png');
    expect(download.headers.get('content-disposition')).toBe('attachment; filename="x.html.png"');
  });

  it('keeps an extension that names the type, in any case or spelling', async () => {
    expect((await uploadAs('Foto keuken.JPEG', fixtureFiles.jpeg)).name).toBe('Foto keuken.JPEG');
    expect((await uploadAs('offerte.pdf', PDF)).name).toBe('offerte.pdf');
    expect((await uploadAs('zonder-extensie', PDF)).name).toBe('zonder-extensie.pdf');
  });

  it('loses control and bidirectional characters: a right-to-left override cannot disguise the extension', async () => {
    // Shown as "factuurexe.pdf" by a right-to-left override; a bell, a NUL-free C1 control and isolates around it.
    const { name, download } = await uploadAs('factuur\u202Efdp.exe\u0007\u0085\u2066x\u2069', PDF);
    expect(name).toBe('factuurfdp.exex.pdf');
    expect(download.headers.get('content-disposition')).toBe('attachment; filename="factuurfdp.exex.pdf"');
  });

  it('is bounded to 255 characters with its extension, never splitting a character', async () => {
    const { name } = await uploadAs(`${'a'.repeat(8000)}.pdf`, PDF);
    expect(name).toBe(`${'a'.repeat(251)}.pdf`);
    expect(MAX_FILE_NAME).toBe(255);
    const emoji = storedFileName(`${'😀'.repeat(300)}.html`, { ext: 'png', mime: 'image/png' });
    expect(Array.from(emoji)).toHaveLength(255);
    expect(emoji).toBe(`${'😀'.repeat(251)}.png`);
    // No lone surrogate: UTF-8 round-trips it unchanged.
    expect(Buffer.from(emoji).toString()).toBe(emoji);
  });
});
