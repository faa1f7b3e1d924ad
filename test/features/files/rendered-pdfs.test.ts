// Rendered PDFs are kept per content (src/pdf/rendered-pdfs.ts): a second download of the same document version
// renders nothing (the renders are counted), downloads at once share one render, a changed document or company
// detail renders again, the kept rows go a week after their render. Public links: a kept PDF is answered freely, a
// render counts against the document and the client's address (429 page with Retry-After past either).
import type { JobHelpers } from 'graphile-worker';
import { beforeAll, describe, expect, it } from 'vitest';
import { taskList } from '../../../src/jobs/worker.ts';
import { setupApi, type TestApi } from '../../harness/api.ts';

let api: TestApi;
let key: string;
let companyId: string;

const renders = () => api.deps.pdfRenderer.renders;

async function invoice(title = 'Schilderwerk'): Promise<string> {
  const customer = await api.call('createCustomer', {
    key,
    body: { name: 'Jan Jansen', email: `${crypto.randomUUID()}@example.nl` },
  });
  const created = await api.call('createInvoice', {
    key,
    body: { customer_id: customer.body.data.id, title, items: [{ name: 'Verf', quantity: 2, unit_price: 40 }] },
  });
  expect(created.status).toBe(201);
  return created.body.data.id;
}

const download = async (id: string) => {
  const answer = await api.call('getInvoicePdf', { key, params: { invoice: id } });
  expect(answer.status).toBe(200);
  return answer;
};

beforeAll(async () => {
  api = await setupApi({
    TRUSTED_PROXIES: '127.0.0.1',
    PUBLIC_PDF_RENDERS_PER_DOCUMENT: '2',
    PUBLIC_PDF_RENDERS_PER_ADDRESS: '3',
  });
  ({ key, companyId } = await api.tenant({ language: 'nl' }));
});

describe('kept PDFs', () => {
  it('a second download of the same version renders nothing; a new version or company detail renders again', async () => {
    const id = await invoice();
    const before = renders();
    const first = await download(id);
    expect(renders()).toBe(before + 1);
    const second = await download(id);
    expect(renders()).toBe(before + 1);
    expect(second.text).toBe(first.text);

    const changed = await api.call('updateInvoice', {
      key,
      params: { invoice: id },
      body: { title: 'Schilderwerk II' },
    });
    expect(changed.status).toBe(200);
    await download(id);
    expect(renders()).toBe(before + 2);
    await api.sql`update companies set phone = '+31201234567' where id = ${companyId}`;
    await download(id);
    await download(id);
    expect(renders()).toBe(before + 3);
    // One row per document and variant, the latest content's.
    const rows = await api.sql`select variant from rendered_pdfs where document_id = ${id}`;
    expect(rows.map((r) => r.variant)).toEqual(['pdf']);
  }, 120_000);

  it('downloads of the same content at once share one render', async () => {
    const id = await invoice('Tegelijk');
    const before = renders();
    await Promise.all(Array.from({ length: 4 }, () => download(id)));
    expect(renders()).toBe(before + 1);
  }, 120_000);

  it('are purged a week after their render', async () => {
    const id = await invoice('Oud');
    await download(id);
    await api.sql`update rendered_pdfs set rendered_at = now() - interval '8 days' where document_id = ${id}`;
    await taskList({ ...api.deps, config: api.config }).purge_rendered_pdfs({}, {} as JobHelpers);
    expect(await api.sql`select 1 from rendered_pdfs where document_id = ${id}`).toHaveLength(0);
    const before = renders();
    await download(id);
    expect(renders()).toBe(before + 1);
  }, 120_000);
});

describe('public links', () => {
  let visitor = 0;
  const visit = (url: string, from = `203.0.113.${++visitor}`) =>
    api.app.request(new URL(url).pathname, { headers: { 'x-forwarded-for': from, 'accept-language': 'en' } });

  async function sentInvoice(title: string): Promise<string> {
    const id = await invoice(title);
    const sent = await api.call('sendInvoice', { key, params: { invoice: id } });
    expect(sent.status).toBe(200);
    return sent.body.data.public_url;
  }

  /** A company detail changed: every document's PDF must be rendered again. */
  let detail = 0;
  const changeCompany = () => api.sql`update companies set phone = ${`+3120${String(++detail).padStart(7, '0')}`}
    where id = ${companyId}`;

  it('answer a kept PDF without counting it, and refuse a document rendered too often with 429 and Retry-After', async () => {
    const url = await sentInvoice('Per document');
    // Sending rendered and kept it: the link answers that PDF, as often as asked.
    const before = renders();
    for (let i = 0; i < 4; i++) expect((await visit(`${url}/pdf`)).status).toBe(200);
    expect(renders()).toBe(before);

    // Two renders of this document (each from another address) are allowed in 10 minutes, the third is not.
    await changeCompany();
    expect((await visit(`${url}/pdf`)).status).toBe(200);
    await changeCompany();
    expect((await visit(`${url}/pdf`)).status).toBe(200);
    await changeCompany();
    const refused = await visit(`${url}/pdf`);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(refused.headers.get('ratelimit')).toMatch(/^"pdf_renders";r=0;t=\d+$/);
    expect(refused.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await refused.text()).toContain('asked for too often');
    expect(renders()).toBe(before + 2);
  }, 180_000);

  it('refuse an address that causes too many renders, other addresses still served', async () => {
    const from = '198.51.100.77';
    const urls = [await sentInvoice('A'), await sentInvoice('B'), await sentInvoice('C'), await sentInvoice('D')];
    await changeCompany();
    for (const url of urls.slice(0, 3)) expect((await visit(`${url}/pdf`, from)).status).toBe(200);
    const refused = await visit(`${urls[3]}/pdf`, from);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    // The same PDF for another address: rendered (its document has renders left).
    expect((await visit(`${urls[3]}/pdf`, '198.51.100.78')).status).toBe(200);
    // And once kept, the refused address gets it too: a kept PDF costs no render.
    expect((await visit(`${urls[3]}/pdf`, from)).status).toBe(200);
  }, 180_000);
});
