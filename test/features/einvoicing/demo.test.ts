// The demo company's invoices as e-invoices: every invoice answers its Factur-X PDF and every invoice to a business
// customer its UBL (a cancelled or refunded one: its credit note's), and all of them pass the official rules with
// no fatal assertion (validated together, one Saxon run per rule set). Private customers are not on the Peppol
// network: their invoices' UBL answers 409 naming only the customer's Peppol id, never an invalid document.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDemo } from '../../../src/cli/demo.ts';
import { setupApi, type TestApi } from '../../harness/api.ts';
import { CII_RULES, fatalLines, rulesUnavailable, UBL_RULES, validate } from '../../harness/einvoicing-rules.ts';

const unavailable = rulesUnavailable();
if (unavailable) console.warn(unavailable);

let api: TestApi;
let key: string;
const dir = mkdtempSync(join(tmpdir(), 'demo-einvoices-'));
const ubl = new Map<string, string>();
const cii = new Map<string, string>();

beforeAll(async () => {
  api = await setupApi();
  ({ key } = await createDemo(api.db));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const download = (path: string) =>
  api.app.request(`http://api.test/api/v1${path}`, { headers: { authorization: `Bearer ${key}` } });

type Invoice = { id: string; number: string; status: string; customer_id: string };

describe.skipIf(unavailable !== null)('the demo invoices as e-invoices', () => {
  it('answer their UBL (business customers: 409 customer.peppol_id for private ones) and Factur-X, the credit note for cancelled and refunded ones', async () => {
    const invoices: Invoice[] = (await api.call('listInvoices', { key, query: { limit: 100 } })).body.data;
    expect(invoices.length).toBeGreaterThan(5);
    let businesses = 0;
    for (const invoice of invoices) {
      const customer = (await api.call('getCustomer', { key, params: { customer: invoice.customer_id } })).body.data;
      // A cancelled or refunded invoice's e-invoice is its credit note (sent before it was cancelled), else none.
      const credited = invoice.status === 'refunded' || invoice.status === 'cancelled';
      const query = credited ? '?document=credit_note' : '';
      const res = await download(`/invoices/${invoice.id}/ubl${query}`);
      const pdf = await download(
        `/invoices/${invoice.id}/pdf?format=facturx${credited ? '&document=credit_note' : ''}`,
      );
      if (credited && pdf.status === 409) {
        expect(invoice.status, invoice.number).toBe('cancelled');
        continue;
      }
      if (customer.type === 'individual') {
        expect(res.status, invoice.number).toBe(409);
        expect((await res.json()).missing.map((m: { field: string }) => m.field)).toEqual(['customer.peppol_id']);
      } else {
        businesses += 1;
        expect(res.status, invoice.number).toBe(200);
        ubl.set(`${invoice.number}.xml`, await res.text());
      }
      // Factur-X follows EN 16931, which needs no network address: private customers get one too.
      expect(pdf.status, invoice.number).toBe(200);
      const file = join(dir, `${invoice.number}.pdf`);
      writeFileSync(file, Buffer.from(await pdf.arrayBuffer()));
      const xml = join(dir, `${invoice.number}.xml`);
      execFileSync('/usr/bin/pdfdetach', ['-savefile', 'factur-x.xml', '-o', xml, file]);
      cii.set(`${invoice.number}.xml`, readFileSync(xml, 'utf8'));
    }
    expect(businesses, 'the demo has invoices to businesses').toBeGreaterThan(2);
  }, 120_000);

  it('pass EN 16931 and Peppol BIS 3.0 (UBL) and EN 16931 (CII) with no fatal assertion', async () => {
    const [ublReports, ciiReports] = await Promise.all([validate(ubl, UBL_RULES), validate(cii, CII_RULES)]);
    for (const name of ubl.keys()) expect(fatalLines(ublReports.get(name) ?? []), `UBL ${name}`).toEqual([]);
    for (const name of cii.keys()) expect(fatalLines(ciiReports.get(name) ?? []), `CII ${name}`).toEqual([]);
  }, 600_000);
});
