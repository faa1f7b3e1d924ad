// `orders import FILE.json`: the file is checked against the contract's Order shape and its totals before the
// database is touched; an order number already there is skipped, so importing the same file twice adds nothing.
import { mkdtempSync, writeFileSync } from 'node:fs';
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

function fileOf(content: unknown): string {
  const path = join(dir, `${crypto.randomUUID()}.json`);
  writeFileSync(path, JSON.stringify(content));
  return path;
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
    const first = await runCommand({ db: api.db, sql: api.sql }, command, async () => {});
    expect(first?.json).toMatchObject({ imported: 2, existing: 0 });
    const again = await runCommand({ db: api.db, sql: api.sql }, command, async () => {});
    expect(again?.json).toMatchObject({ imported: 0, existing: 2 });
    const list = await api.call('listOrders', { key, query: { sort: 'created_at' } });
    expect(list.body.data).toHaveLength(2);
    const ws1 = list.body.data.find((o: { number: string }) => o.number === 'WS-1');
    expect(ws1.customer_id).toBe(existing.body.data.id);
    expect(ws1.items).toHaveLength(2);
  });

  it('refuses a file that does not match the Order shape or whose totals do not add up', () => {
    const company = '01900000-0000-7000-8000-000000000001';
    const bad = { ...orderInput(), status: 'lost' };
    expect(() => parseCommand(['orders', 'import', fileOf([bad]), '--company', company])).toThrow(UsageError);
    expect(() => parseCommand(['orders', 'import', fileOf([bad]), '--company', company])).toThrow(/\/0\/status/);
    const wrongTotal = orderInput({ total: '99.99' });
    expect(() => parseCommand(['orders', 'import', fileOf([wrongTotal]), '--company', company])).toThrow(/total 99.99/);
    const twice = orderInput({ number: 'WS-9' });
    expect(() => parseCommand(['orders', 'import', fileOf([twice, twice]), '--company', company])).toThrow(/twice/);
  });
});
