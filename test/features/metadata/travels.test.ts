// `metadata` travels where its record does (issue 51): in the record's events (GET /events, whose data is what
// webhooks send), as `{}` in the events recorded before records had it, and through the company export and import
// into another installation, where the filter finds the record again.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb } from '../../../src/db/client.ts';
import { exportCompany, importCompany } from '../../../src/services/company-archive.ts';
import { appOn, setupApi, type TestApi } from '../../harness/api.ts';
import { freshDatabase } from '../../harness/db.ts';

let api: TestApi;
let key: string;
let companyId: string;

beforeAll(async () => {
  api = await setupApi();
  ({ key, companyId } = await api.tenant());
});

describe('events', () => {
  it('carry the record’s metadata in their data, and `{}` for events stored before records had it', async () => {
    // A company of its own: its events are this record's.
    const { key, companyId } = await api.tenant();
    const created = await api.call<'createCustomer'>('createCustomer', {
      key,
      body: { email: 'events@metadata.example.nl', metadata: { crm_id: '42' } },
    });
    const id = created.body.data.id;
    await api.call('updateCustomer', { key, params: { customer: id }, body: { metadata: { crm_id: '43' } } });
    const events = await api.call<'listEvents'>('listEvents', { key });
    expect(events.status).toBe(200);
    const byType = Object.fromEntries(
      events.body.data.map((e) => [e.type, (e.data.object as { metadata: unknown }).metadata]),
    );
    expect(byType).toEqual({ 'customer.created': { crm_id: '42' }, 'customer.updated': { crm_id: '43' } });

    // An event as the release before this one stored it: its object without metadata.
    await api.sql`update events set data = jsonb_set(data, '{object}', (data->'object') - 'metadata')
                  where company_id = ${companyId} and customer_id = ${id}`;
    const older = await api.call<'listEvents'>('listEvents', { key });
    expect(older.body.data.map((e) => (e.data.object as { metadata: unknown }).metadata)).toEqual([{}, {}]);
  });
});

describe('company export and import', () => {
  let target: { url: string; drop: () => Promise<void> };
  let pools: ReturnType<typeof createDb>;
  beforeAll(async () => {
    target = await freshDatabase();
    pools = createDb(target.url, 2);
  });
  afterAll(async () => {
    await pools.sql.end({ timeout: 5 });
    await target.drop();
  });

  it('carries metadata in the archive, and the imported records answer the filter', async () => {
    const customer = await api.call<'createCustomer'>('createCustomer', {
      key,
      body: { email: 'archive@metadata.example.nl', metadata: { shop_id: '991' } },
    });
    const deal = await api.call<'createDeal'>('createDeal', {
      key,
      body: { customer_id: customer.body.data.id, metadata: { pd: '7' } },
    });
    const lines: string[] = [];
    await exportCompany(api.sql, companyId, async (line) => void lines.push(line), api.deps.fileStorages);
    const rows = lines.slice(1).map((line) => JSON.parse(line) as { table: string; row: Record<string, unknown> });
    expect(rows.find((r) => r.table === 'customers' && r.row.id === customer.body.data.id)?.row.metadata).toEqual({
      shop_id: '991',
    });
    expect(rows.find((r) => r.table === 'deals' && r.row.id === deal.body.data.id)?.row.metadata).toEqual({ pd: '7' });

    await importCompany(
      pools.sql,
      (async function* () {
        yield* lines;
      })(),
    );
    const there = await appOn(target.url);
    const found = await there.call<'listCustomers'>('listCustomers', { key, query: { 'metadata[shop_id]': '991' } });
    expect(found.body.data.map((c) => [c.id, c.metadata])).toEqual([[customer.body.data.id, { shop_id: '991' }]]);
    const deals = await there.call<'listDeals'>('listDeals', { key, query: { 'metadata[pd]': '7' } });
    expect(deals.body.data.map((d) => d.id)).toEqual([deal.body.data.id]);
  });
});
