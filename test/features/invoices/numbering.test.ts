// Document numbers: per company, kind and year, consecutive and unique under concurrent creation (the counter
// row is locked in the creating transaction), and a rolled-back creation gives its number back.
import { beforeAll, describe, expect, it } from 'vitest';
import { nextDocumentNumber } from '../../../src/db/document-numbers.ts';
import { withTenant } from '../../../src/db/tenant.ts';
import { setupApi, type TestApi } from '../../harness/api.ts';
import { customerOf } from '../deals/fixtures.ts';

let api: TestApi;
let key: string;
let companyId: string;
let customer: string;

beforeAll(async () => {
  api = await setupApi();
  ({ key, companyId } = await api.tenant());
  customer = await customerOf(api, key);
});

const counterOf = (number: string) => Number(number.split('-')[1]);

describe('numbering', () => {
  it('50 concurrent creations get 50 distinct consecutive numbers', async () => {
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        api.call<'createInvoice'>('createInvoice', {
          key,
          body: { customer_id: customer, title: `Factuur ${i}`, items: [{ name: 'A', unit_price: 1 }] },
        }),
      ),
    );
    expect(results.map((r) => r.status)).toEqual(Array(50).fill(201));
    const numbers = results.map((r) => r.body.data.number);
    expect(new Set(numbers).size).toBe(50);
    const year = new Date().getUTCFullYear();
    for (const n of numbers) expect(n).toMatch(new RegExp(`^F(${year}|${year + 1})-\\d{4}$`));
    expect(numbers.map(counterOf).sort((a, b) => a - b)).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
  });

  it('quotes count on their own; a rolled-back creation leaves no gap; another company starts at 1', async () => {
    const first = await api.call('createQuote', {
      key,
      body: { customer_id: customer, title: 'Q', items: [{ name: 'A', unit_price: 1 }] },
    });
    expect(counterOf(first.body.data.number)).toBe(1);
    // A creation that took a number and then rolled back gives it back.
    const rolledBack = withTenant(api.db, companyId, async (tx) => {
      expect(counterOf(await nextDocumentNumber(tx, companyId, 'quote'))).toBe(2);
      throw new Error('rolled back');
    });
    await expect(rolledBack).rejects.toThrow('rolled back');
    const next = await api.call('createQuote', {
      key,
      body: { customer_id: customer, title: 'Q', items: [{ name: 'A', unit_price: 1 }] },
    });
    expect(counterOf(next.body.data.number)).toBe(2);
    const other = await api.tenant();
    const theirs = await api.call('createQuote', {
      key: other.key,
      body: { customer_id: await customerOf(api, other.key), title: 'Q', items: [{ name: 'A' }] },
    });
    expect(counterOf(theirs.body.data.number)).toBe(1);
  });
});
