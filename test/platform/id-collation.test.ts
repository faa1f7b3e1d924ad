// Prefixed ids (base62 over 0-9A-Za-z) sort by time only byte by byte. An operator's database may default to
// a locale collation (en_US.UTF-8, ICU en-US), where "…a" sorts before "…Z": migration 0015 gives every text id
// column the C collation, so the order of occurrence and cursors do not depend on how the database was made.
import { randomBytes } from 'node:crypto';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { runMigrations } from '../../src/db/migrate.ts';
import { createCompany, FEATURES } from '../../src/services/companies.ts';
import { createKey } from '../../src/services/keys.ts';
import { appOn } from '../harness/api.ts';
import { freshDatabase, withDatabase } from '../harness/db.ts';

describe('text id columns', () => {
  it('all compare byte by byte (collation C)', async () => {
    const database = await freshDatabase();
    const sql = postgres(database.url, { max: 1, onnotice: () => {} });
    try {
      const columns = await sql<{ name: string; collation: string | null }[]>`
        select c.relname || '.' || a.attname as name, co.collname as collation
        from pg_attribute a
        join pg_class c on c.oid = a.attrelid
        join pg_namespace n on n.oid = c.relnamespace
        left join pg_collation co on co.oid = a.attcollation
        where n.nspname = 'public' and c.relkind = 'r' and a.attnum > 0 and not a.attisdropped
          and a.atttypid = 'text'::regtype and (a.attname = 'id' or a.attname like '%\\_id')
        order by 1`;
      // The tables with prefixed ids today; a new one must be added to the migration's list (this test says so).
      expect(columns.map((c) => c.name)).toEqual(
        expect.arrayContaining(['events.id', 'webhook_deliveries.id', 'webhook_attempts.event_id', 'api_keys.id']),
      );
      // Identifiers of other systems (RFC 5322 Message-IDs, WhatsApp ids, payment providers' ids, public widget ids, Peppol addresses) and one reference to an
      // outbox email, only ever compared for equality, never sorted or paged by: no C collation needed.
      const equalityOnly = new Set([
        'channel_settings.whatsapp_phone_number_id',
        'channel_settings.widget_id',
        'companies.peppol_id',
        'conversation_messages.email_message_id',
        'conversation_messages.outbound_email_id',
        'conversation_messages.whatsapp_message_id',
        'customers.peppol_id',
        'invoice_payments.provider_payment_id',
        'invoice_payments.provider_refund_id',
        'outbound_emails.message_id',
        'provider_payments.provider_payment_id',
        'review_requests.whatsapp_message_id',
      ]);
      expect(columns.filter((c) => c.collation !== 'C' && !equalityOnly.has(c.name))).toEqual([]);
    } finally {
      await sql.end();
      await database.drop();
    }
  });
});

// On a database whose default collation is ICU en-US (what `initdb --locale-provider=icu` or a cloud default gives).
describe('on an ICU en-US database', () => {
  const adminUrl = inject('pgAdminUrl');
  const name = `crm_test_${inject('templateDatabase').split('_').at(-1)}_icu${randomBytes(3).toString('hex')}`;
  const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
  let app: Awaited<ReturnType<typeof appOn>> | undefined;
  let icu = false;

  beforeAll(async () => {
    [{ icu }] = await admin<
      { icu: boolean }[]
    >`select exists (select 1 from pg_collation where collprovider = 'i') as icu`;
    if (!icu) {
      console.log('[id-collation] skipped: this PostgreSQL server was built without ICU');
      return;
    }
    await admin.unsafe(
      `create database ${name} template template0 encoding 'UTF8' locale_provider icu icu_locale 'en-US' locale 'C'`,
    );
    const url = withDatabase(adminUrl, name);
    await runMigrations(url);
    app = await appOn(url);
  });

  afterAll(async () => {
    await app?.close();
    await admin.unsafe(`drop database if exists ${name} with (force)`);
    await admin.end();
  });

  it('the database itself orders "a" before "Z" (the premise)', async ({ skip }) => {
    if (!icu || !app) return skip();
    const [row] = await app.deps.sql<{ first: string }[]>`select min(v) as first from (values ('Z'), ('a')) t(v)`;
    expect(row?.first).toBe('a');
  });

  it('events of one transaction list in the order they happened, across "…Z" → "…a"', async ({ skip }) => {
    if (!icu || !app) return skip();
    const { deps, call } = app;
    const company = await createCompany(deps.db, { name: 'Collatie BV', features: [...FEATURES], language: 'en' });
    const { key } = await createKey(deps.db, {
      companyId: company.id,
      name: 'k',
      scopes: ['events.read', 'customers.write', 'customers.read'],
    });
    for (const email of ['eerste@example.nl', 'tweede@example.nl']) {
      expect((await call('createCustomer', { key, body: { email } })).status).toBe(201);
    }
    // As if both were recorded in one transaction within one millisecond: the same created_at, and ids that count
    // up across the Z → a step of base62 (consecutive ids do, see src/ids.ts).
    const [first, second] = (await call('listEvents', { key, query: { sort: 'created_at' } })).body.data as {
      id: string;
    }[];
    if (!first || !second) throw new Error('two events expected');
    const stem = first.id.slice(0, -1);
    await deps.sql`
      update events set id = case id when ${first.id} then ${`${stem}Z`} else ${`${stem}a`} end,
        created_at = (select min(created_at) from events where company_id = ${company.id})
      where company_id = ${company.id}`;

    const inOrder = await call('listEvents', { key, query: { sort: 'created_at' } });
    expect(inOrder.body.data.map((e: { id: string }) => e.id)).toEqual([`${stem}Z`, `${stem}a`]);
    expect(inOrder.body.data.map((e: { data: { object: { email: string } } }) => e.data.object.email)).toEqual([
      'eerste@example.nl',
      'tweede@example.nl',
    ]);
    const newest = await call('listEvents', { key });
    expect(newest.body.data.map((e: { id: string }) => e.id)).toEqual([`${stem}a`, `${stem}Z`]);

    // Cursors compare with the same collation: one at a time, nothing skipped or repeated.
    const p1 = await call('listEvents', { key, query: { sort: 'created_at', limit: 1 } });
    const p2 = await call('listEvents', {
      key,
      query: { sort: 'created_at', limit: 1, cursor: p1.body.meta.next_cursor },
    });
    expect([...p1.body.data, ...p2.body.data].map((e: { id: string }) => e.id)).toEqual([`${stem}Z`, `${stem}a`]);
    expect(p2.body.meta.next_cursor).toBeNull();
  });
});
