// Tasks linked to sales documents: a quote or an invoice of the company is accepted and shown on the task (also
// when read back and listed); another company's quote or invoice answers 422 invalid_reference at its pointer,
// and nothing is stored.
import { beforeAll, describe, expect, it } from 'vitest';
import { setupApi, type TestApi } from '../../harness/api.ts';
import { customerOf, taskOf } from './fixtures.ts';

let api: TestApi;
let mine: { key: string; companyId: string };
let other: { key: string; companyId: string };

beforeAll(async () => {
  api = await setupApi();
  mine = await api.tenant();
  other = await api.tenant();
});

const lines = [{ name: 'Schilderwerk', quantity: 1, unit_price: 100, tax_rate: 21 }];

async function quoteOf(key: string): Promise<string> {
  const res = await api.call('createQuote', {
    key,
    body: { customer_id: await customerOf(api, key), title: 'Schilderwerk', items: lines },
  });
  expect(res.status).toBe(201);
  return res.body.data.id;
}

async function invoiceOf(key: string): Promise<string> {
  const res = await api.call('createInvoice', {
    key,
    body: { customer_id: await customerOf(api, key), title: 'Schilderwerk', items: lines },
  });
  expect(res.status).toBe(201);
  return res.body.data.id;
}

const taskCount = async (companyId: string) =>
  (await api.sql<{ count: number }[]>`select count(*)::int as count from tasks where company_id = ${companyId}`)[0]
    .count;

describe('task links to quotes and invoices', () => {
  it('accepts a quote and an invoice of the company and shows them on the task', async () => {
    const quote = await quoteOf(mine.key);
    const invoice = await invoiceOf(mine.key);
    const task = await taskOf(api, mine.key, {
      links: [
        { object: 'quote', id: quote },
        { object: 'invoice', id: invoice },
      ],
    });
    expect(task.links).toEqual([
      { object: 'quote', id: quote },
      { object: 'invoice', id: invoice },
    ]);
    const read = await api.call('getTask', { key: mine.key, params: { task: task.id } });
    expect(read.status).toBe(200);
    expect(read.body.data.links).toEqual(task.links);
  });

  it("refuses another company's quote and invoice with 422 invalid_reference, storing nothing", async () => {
    const foreignQuote = await quoteOf(other.key);
    const foreignInvoice = await invoiceOf(other.key);
    const ownQuote = await quoteOf(mine.key);
    const before = await taskCount(mine.companyId);
    const res = await api.call('createTask', {
      key: mine.key,
      body: {
        title: 'Offerte nabellen',
        links: [
          { object: 'quote', id: ownQuote },
          { object: 'quote', id: foreignQuote },
          { object: 'invoice', id: foreignInvoice },
        ],
      },
    });
    expect(res.status).toBe(422);
    expect(res.body.code).toBe('validation_failed');
    expect(res.body.errors.map((e: { pointer: string; code: string }) => [e.pointer, e.code])).toEqual([
      ['/links/1/id', 'invalid_reference'],
      ['/links/2/id', 'invalid_reference'],
    ]);
    expect(await taskCount(mine.companyId)).toBe(before);

    // Moving an existing task onto another company's quote is refused the same way.
    const task = await taskOf(api, mine.key, { links: [{ object: 'quote', id: ownQuote }] });
    const moved = await api.call('updateTask', {
      key: mine.key,
      params: { task: task.id },
      body: { links: [{ object: 'quote', id: foreignQuote }] },
    });
    expect(moved.status).toBe(422);
    expect(moved.body.errors[0]).toMatchObject({ pointer: '/links/0/id', code: 'invalid_reference' });
  });
});
