// `orders import FILE.json|FILE.jsonl`: each order is checked as the API would (shape, totals, storable text, the
// buyer as a customer, an http(s) tracking link, the company's own invoice and quote); a bad row is reported with
// its line and reason while the good ones import, or nothing does with --all-or-nothing; an order number already
// there is skipped, so importing the same file twice adds nothing.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { parseCommand, UsageError } from '../../../src/cli/args.ts';
import { runCommand } from '../../../src/cli/commands.ts';
import { setupApi, type TestApi } from '../../harness/api.ts';
import { orderInput } from './fixtures.ts';

let api: TestApi;
const dir = mkdtempSync(join(tmpdir(), 'orders-import-'));

beforeAll(async () => {
  api = await setupApi();
});

function fileOf(content: unknown, indent?: number): string {
  const path = join(dir, `${crypto.randomUUID()}.json`);
  writeFileSync(path, JSON.stringify(content, null, indent));
  return path;
}

/** A customer, and a quote for them; an invoice from that quote's lines. */
async function quoteOf(key: string): Promise<string> {
  const customer = await api.call('createCustomer', {
    key,
    body: { name: 'Jan', email: `${crypto.randomUUID()}@example.nl` },
  });
  const quote = await api.call('createQuote', {
    key,
    body: {
      customer_id: customer.body.data.id,
      title: 'Koffie',
      items: [{ name: 'Bonen', quantity: 1, unit_price: 10, tax_rate: 21 }],
    },
  });
  expect(quote.status).toBe(201);
  return quote.body.data.id;
}

async function invoiceOf(key: string): Promise<string> {
  const customer = await api.call('createCustomer', {
    key,
    body: { name: 'Jan', email: `${crypto.randomUUID()}@example.nl` },
  });
  const invoice = await api.call('createInvoice', {
    key,
    body: {
      customer_id: customer.body.data.id,
      title: 'Koffie',
      items: [{ name: 'Bonen', quantity: 1, unit_price: 10, tax_rate: 21 }],
    },
  });
  expect(invoice.status, JSON.stringify(invoice.body)).toBe(201);
  return invoice.body.data.id;
}

describe('orders import', () => {
  it('imports orders, links customers by email, and skips numbers already there', async () => {
    const { key, companyId } = await api.tenant();
    const existing = await api.call('createCustomer', { key, body: { name: 'Jan', email: 'Jan@Bakkerij.example' } });
    const orders = [
      orderInput({ number: 'WS-1', customer: { ...orderInput().customer, email: 'jan@bakkerij.example' } }),
      orderInput({ number: 'WS-2', status: 'shipped', tracking_code: 'ABC' }),
    ];
    const command = parseCommand(['orders', 'import', fileOf({ orders }), '--company', companyId, '--json']);
    if (command.name !== 'orders import') throw new Error('unexpected');
    const first = await runCommand(api.deps, command, async () => {});
    expect(first?.json).toMatchObject({ imported: 2, existing: 0 });
    const again = await runCommand(api.deps, command, async () => {});
    expect(again?.json).toMatchObject({ imported: 0, existing: 2 });
    const list = await api.call('listOrders', { key, query: { sort: 'created_at' } });
    expect(list.body.data).toHaveLength(2);
    const ws1 = list.body.data.find((o: { number: string }) => o.number === 'WS-1');
    expect(ws1.customer_id).toBe(existing.body.data.id);
    expect(ws1.items).toHaveLength(2);
  });

  it('reports each bad row with its line and reason, and imports the good ones', async () => {
    const { key, companyId } = await api.tenant();
    const other = await api.tenant();
    const otherInvoice = await invoiceOf(other.key);
    const ownInvoice = await invoiceOf(key);
    const rows = [
      orderInput({ number: 'OK-1', invoice_id: ownInvoice }),
      { ...orderInput({ number: 'BAD-STATUS' }), status: 'lost' },
      orderInput({ number: 'BAD-TOTAL', total: '99.99' }),
      orderInput({ number: 'BAD-URL', status: 'shipped', tracking_url: 'javascript:alert(document.cookie)' }),
      orderInput({ number: 'BAD-INVOICE', invoice_id: otherInvoice }),
      orderInput({ number: 'BAD-NUL', form_title: 'Koffie\u0000bestelling' }),
      orderInput({
        number: 'BAD-EMAIL',
        customer: { ...orderInput().customer, email: `${'a'.repeat(4000)}@example.nl` },
      }),
      orderInput({ number: 'OK-2' }),
      orderInput({ number: 'OK-2' }),
    ];
    // Pretty-printed: each order starts on its own line, which the report names.
    const path = fileOf({ orders: rows }, 2);
    const lines = readFileSync(path, 'utf8').split('\n');
    // An order's `{` is the line before its number (the last one: the second OK-2 is the refused one); lines count
    // from 1, indexes from 0.
    const lineOf = (number: string) => {
      for (let i = lines.length - 1; i >= 0; i--) if (lines[i].includes(`"number": "${number}"`)) return i;
      return -1;
    };
    const command = parseCommand(['orders', 'import', path, '--company', companyId, '--json']);
    if (command.name !== 'orders import') throw new Error('unexpected');
    const out = await runCommand(api.deps, command, async () => {});
    expect(out?.exitCode).toBe(1);
    expect(out?.json).toMatchObject({ imported: 2, existing: 0 });
    const bad = (out?.json.bad_rows ?? []) as { line: number; number: string; reason: string }[];
    expect(bad.map((b) => b.number)).toEqual([
      'BAD-STATUS',
      'BAD-TOTAL',
      'BAD-URL',
      'BAD-INVOICE',
      'BAD-NUL',
      'BAD-EMAIL',
      'OK-2',
    ]);
    for (const row of bad) expect(row.line, row.number).toBe(lineOf(row.number));
    const reasons = Object.fromEntries(bad.map((b) => [b.number, b.reason]));
    expect(reasons['BAD-STATUS']).toMatch(/^\/status/);
    expect(reasons['BAD-TOTAL']).toMatch(/^\/total/);
    expect(reasons['BAD-URL']).toMatch(/^\/tracking_url: .*https?/);
    expect(reasons['BAD-INVOICE']).toMatch(/^\/invoice_id: no invoice/);
    expect(reasons['BAD-NUL']).toMatch(/^\/form_title: .*U\+0000/);
    expect(reasons['BAD-EMAIL']).toMatch(/^\/customer\/email/);
    expect(reasons['OK-2']).toMatch(/twice/);
    expect(out?.text).toContain(`line ${lineOf('BAD-URL')} (order BAD-URL): /tracking_url`);
    const stored = await api.sql`select number, invoice_id from orders where company_id = ${companyId} order by number`;
    expect(stored).toEqual([
      { number: 'OK-1', invoice_id: ownInvoice },
      { number: 'OK-2', invoice_id: null },
    ]);
  });

  it('imports nothing with --all-or-nothing when a row is bad, also one found while importing', async () => {
    const { companyId } = await api.tenant();
    const other = await api.tenant();
    const otherQuote = await quoteOf(other.key);
    for (const bad of [orderInput({ total: '1.00' }), orderInput({ quote_id: otherQuote })]) {
      const path = fileOf([orderInput({ number: 'FIRST' }), bad]);
      const command = parseCommand(['orders', 'import', path, '--company', companyId, '--all-or-nothing']);
      if (command.name !== 'orders import') throw new Error('unexpected');
      const out = await runCommand(api.deps, command, async () => {});
      expect(out?.exitCode).toBe(1);
      expect(out?.text).toMatch(/^Imported nothing/);
      expect(out?.json).toMatchObject({ imported: 0, bad_rows: [{ line: 1, number: bad.number }] });
      const [{ count }] = await api.sql`select count(*)::int as count from orders where company_id = ${companyId}`;
      expect(count).toBe(0);
    }
  });

  it('keeps the reference inside the company in the database too (foreign keys with company_id)', async () => {
    const { companyId } = await api.tenant();
    const other = await api.tenant();
    const otherInvoice = await invoiceOf(other.key);
    const path = fileOf([orderInput({ number: 'FK-1' })]);
    const command = parseCommand(['orders', 'import', path, '--company', companyId]);
    if (command.name !== 'orders import') throw new Error('unexpected');
    await runCommand(api.deps, command, async () => {});
    await expect(
      api.sql`update orders set invoice_id = ${otherInvoice} where company_id = ${companyId} and number = 'FK-1'`,
    ).rejects.toMatchObject({ code: '23503' });
    const otherQuote = await quoteOf(other.key);
    await expect(
      api.sql`update orders set quote_id = ${otherQuote} where company_id = ${companyId} and number = 'FK-1'`,
    ).rejects.toMatchObject({ code: '23503' });
  });

  it('refuses a file that is no list of orders, before touching the database', () => {
    const company = '01900000-0000-7000-8000-000000000001';
    expect(() => parseCommand(['orders', 'import', fileOf({ order: [] }), '--company', company])).toThrow(UsageError);
    const path = join(dir, 'broken.json');
    writeFileSync(path, '[{"number": ');
    expect(() => parseCommand(['orders', 'import', path, '--company', company])).toThrow(/not JSON/);
  });

  it('reads JSON Lines, one order a line', async () => {
    const { companyId } = await api.tenant();
    const path = join(dir, `${crypto.randomUUID()}.jsonl`);
    writeFileSync(
      path,
      [orderInput({ number: 'L-1' }), '{oops', orderInput({ number: 'L-3' })]
        .map((r) => (typeof r === 'string' ? r : JSON.stringify(r)))
        .join('\n'),
    );
    const command = parseCommand(['orders', 'import', path, '--company', companyId, '--json']);
    if (command.name !== 'orders import') throw new Error('unexpected');
    const out = await runCommand(api.deps, command, async () => {});
    expect(out?.json).toMatchObject({ imported: 2, bad_rows: [{ line: 2, number: null, reason: 'not JSON' }] });
  });
});
