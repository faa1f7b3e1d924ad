// Row-level security: a transaction running as app_api with app.company_id set sees and writes only its
// own company's rows in every tenant table, whatever its queries say, and sees nothing without a tenant.
import { randomBytes, randomUUID } from 'node:crypto';
import { sql as drizzleSql } from 'drizzle-orm';
import type postgres from 'postgres';
import { beforeAll, describe, expect, it } from 'vitest';
import { withTenant } from '../../src/db/tenant.ts';
import { setupApi, type TestApi } from '../harness/api.ts';

/** Every tenant table and the column that names its company. */
const TENANT_TABLES = {
  users: 'company_id',
  customers: 'company_id',
  notes: 'company_id',
  pipeline_stages: 'company_id',
  deals: 'company_id',
  task_boards: 'company_id',
  task_statuses: 'company_id',
  tasks: 'company_id',
  task_links: 'company_id',
  task_comments: 'company_id',
  task_checklist_items: 'company_id',
  events: 'company_id',
  idempotency_keys: 'company_id',
  webhook_endpoints: 'company_id',
  webhook_deliveries: 'company_id',
  webhook_attempts: 'company_id',
  outbound_emails: 'company_id',
  outbound_email_attachments: 'company_id',
  outgoing_message_counts: 'company_id',
  conversations: 'company_id',
  conversation_messages: 'company_id',
  channel_settings: 'company_id',
  orders: 'company_id',
  order_items: 'company_id',
  order_notes: 'company_id',
  reviews: 'company_id',
  review_requests: 'company_id',
  review_opt_outs: 'company_id',
  appointment_settings: 'company_id',
  appointment_working_hours: 'company_id',
  appointment_types: 'company_id',
  appointments: 'company_id',
  document_counters: 'company_id',
  quotes: 'company_id',
  invoices: 'company_id',
  invoice_payments: 'company_id',
  invoice_reminders: 'company_id',
  payment_providers: 'company_id',
  provider_payments: 'company_id',
  custom_fields: 'company_id',
  custom_field_values: 'company_id',
  files: 'company_id',
  file_chunks: 'company_id',
  quote_attachments: 'company_id',
  work_orders: 'company_id',
  work_order_photos: 'company_id',
  work_order_photo_prints: 'company_id',
  rendered_pdfs: 'company_id',
  api_keys: 'company_id',
  companies: 'id',
} as const;
type Table = keyof typeof TENANT_TABLES;
const TABLES = Object.keys(TENANT_TABLES) as Table[];
/** Read by authentication before a tenant is known, with the owner's rights: enabled but not forced. */
const NOT_FORCED = ['api_keys', 'companies', 'channel_settings'];

let api: TestApi;
let a: string;
let b: string;

/** Inserts one row of every tenant table for the company, as the superuser (past row-level security). */
async function seed(sql: postgres.Sql, companyId: string) {
  const customer = randomUUID();
  const board = randomUUID();
  await sql`insert into users (company_id, name, email) values (${companyId}, 'Anna', ${`anna-${companyId}@example.nl`})`;
  await sql`insert into customers (company_id, id, email) values (${companyId}, ${customer}, 'jan@example.nl')`;
  await sql`insert into notes (company_id, id, parent_type, customer_id, content)
            values (${companyId}, ${randomUUID()}, 'customer', ${customer}, 'Called back')`;
  const [stage] = await sql`insert into pipeline_stages (company_id, name_en, position) values (${companyId}, 'New', 1)
                            returning id`;
  await sql`insert into deals (company_id, id, customer_id, stage_id, currency, source)
            values (${companyId}, ${randomUUID()}, ${customer}, ${stage.id}, 'EUR', 'api')`;
  await sql`insert into task_boards (company_id, id, name) values (${companyId}, ${board}, 'Work')`;
  const column = randomUUID();
  const task = randomUUID();
  await sql`insert into task_statuses (company_id, id, board_id, name, category, position)
            values (${companyId}, ${column}, ${board}, 'To do', 'open', 1)`;
  await sql`insert into tasks (company_id, id, board_id, status_id, status, title)
            values (${companyId}, ${task}, ${board}, ${column}, 'open', 'Call back')`;
  await sql`insert into task_links (company_id, task_id, object, target_id, position)
            values (${companyId}, ${task}, 'customer', ${customer}, 0)`;
  await sql`insert into task_comments (company_id, id, task_id, body) values (${companyId}, ${randomUUID()}, ${task}, 'Done?')`;
  await sql`insert into task_checklist_items (company_id, id, task_id, text, position)
            values (${companyId}, ${randomUUID()}, ${task}, 'Photo', 0)`;
  await sql`insert into events (company_id, id, type, scope, data)
            values (${companyId}, ${`evt_${randomBytes(8).toString('hex')}`}, 'customer.created', 'customers.read', '{}')`;
  await sql`insert into idempotency_keys (company_id, key, request_hash, response_status, response_body, response_headers)
            values (${companyId}, ${randomUUID()}, 'x', 201, '{}', '{}')`;
  const suffix = randomBytes(6).toString('hex');
  await sql`insert into webhook_endpoints (company_id, id, url, events, scopes, secret)
            values (${companyId}, ${`we_${suffix}`}, 'https://hooks.example.nl/crm', '{*}', '{customers.read}', 'whsec_x')`;
  await sql`insert into webhook_deliveries (company_id, id, endpoint_id, event_id, event_type)
            values (${companyId}, ${`wd_${suffix}`}, ${`we_${suffix}`}, 'evt_x', 'customer.created')`;
  await sql`insert into webhook_attempts (company_id, id, delivery_id, endpoint_id, event_id, attempt_number, trigger,
            url, status, duration_ms)
            values (${companyId}, ${`wa_${suffix}`}, ${`wd_${suffix}`}, ${`we_${suffix}`}, 'evt_x', 1, 'scheduled',
            'https://hooks.example.nl/crm', 'failed', 12)`;
  await sql`insert into outbound_emails (company_id, id, "to", subject, body, kind)
            values (${companyId}, ${`em_${suffix}`}, '{admin@example.nl}', 'Hi', 'Body', 'test')`;
  await sql`insert into outbound_email_attachments (company_id, email_id, position, filename, content_type, content)
            values (${companyId}, ${`em_${suffix}`}, 0, 'a.pdf', 'application/pdf', '\\x25504446')`;
  await sql`insert into outgoing_message_counts (company_id, scope, hour_start, count)
            values (${companyId}, 'company', date_trunc('hour', now()), 1)`;
  const conversation = randomUUID();
  await sql`insert into conversations (company_id, id, customer_id, channel) values (${companyId}, ${conversation}, ${customer}, 'web')`;
  await sql`insert into conversation_messages (company_id, id, conversation_id, sender, body)
            values (${companyId}, ${randomUUID()}, ${conversation}, 'customer', 'Hallo')`;
  await sql`insert into channel_settings (company_id, widget_id) values (${companyId}, ${`wid_${suffix}`})`;
  const order = randomUUID();
  const address = JSON.stringify({ address: null, postal_code: null, city: null, country: null });
  await sql`insert into orders (company_id, id, number, status, customer_id, buyer_email, billing_address,
            shipping_address, language, currency, subtotal, discount_amount, shipping_cost, tax_amount, total)
            values (${companyId}, ${order}, 'WS-1', 'paid', ${customer}, 'jan@example.nl', ${address}::jsonb, ${address}::jsonb,
            'nl', 'EUR', 0, 0, 0, 0, 0)`;
  await sql`insert into order_items (company_id, order_id, position, type, name, quantity, unit_price,
            discount_percentage, discount_amount, line_total, is_taxable, tax_rate)
            values (${companyId}, ${order}, 0, 'product', 'Bonen', 1, 1, 0, 0, 1, true, 21)`;
  await sql`insert into order_notes (company_id, id, order_id, type, content)
            values (${companyId}, ${randomUUID()}, ${order}, 'note', 'Bel eerst')`;
  const review = randomUUID();
  await sql`insert into reviews (company_id, id, source, rating, author_name)
            values (${companyId}, ${review}, 'manual', 5, 'Jan')`;
  await sql`insert into review_requests (company_id, id, status, channel, trigger, language, token, review_id)
            values (${companyId}, ${randomUUID()}, 'completed', 'link', 'api', 'nl', ${randomUUID()}, ${review})`;
  await sql`insert into review_opt_outs (company_id, address) values (${companyId}, 'jan@example.nl')`;
  const appointmentType = randomUUID();
  await sql`insert into appointment_settings (company_id) values (${companyId})`;
  await sql`insert into appointment_working_hours (company_id, id, weekday, start_minute, end_minute)
            values (${companyId}, ${randomUUID()}, 1, 540, 1020)`;
  await sql`insert into appointment_types (company_id, id, name, duration_minutes)
            values (${companyId}, ${appointmentType}, 'Onderhoud', 60)`;
  await sql`insert into appointments (company_id, id, title, status, customer_id, appointment_type_id)
            values (${companyId}, ${randomUUID()}, 'Adviesgesprek', 'pending', ${customer}, ${appointmentType})`;
  await sql`insert into document_counters (company_id, kind, year, last_number) values (${companyId}, 'quote', 2026, 1)`;
  const quote = randomUUID();
  const invoice = randomUUID();
  await sql`insert into quotes (company_id, id, number, title, customer_id, customer, language, currency, subtotal,
            tax_amount, total, items, quote_date, valid_until)
            values (${companyId}, ${quote}, 'O2026-0001', 'Quote', ${customer}, '{}', 'nl', 'EUR', 0, 0, 0, '[]',
            '2026-03-02', '2026-04-01')`;
  await sql`insert into invoices (company_id, id, number, title, customer_id, customer, language, currency, subtotal,
            tax_amount, total, items, quote_id, invoice_date, due_date, payment_term_days)
            values (${companyId}, ${invoice}, 'F2026-0001', 'Invoice', ${customer}, '{}', 'nl', 'EUR', 10, 0, 10, '[]',
            ${quote}, '2026-03-14', '2026-03-28', 14)`;
  await sql`insert into invoice_payments (company_id, id, invoice_id, amount, type, payment_method, paid_at)
            values (${companyId}, ${randomUUID()}, ${invoice}, 5, 'partial', 'bank_transfer', now())`;
  await sql`insert into invoice_reminders (company_id, id, invoice_id, days_after_due, kind)
            values (${companyId}, ${randomUUID()}, ${invoice}, 7, 'friendly')`;
  await sql`insert into payment_providers (company_id, provider, api_key_sealed, api_key_mode, webhook_token)
            values (${companyId}, 'mollie', 'v1.sealed', 'test', ${`token-${companyId}`})`;
  await sql`insert into provider_payments (company_id, id, invoice_id, provider, provider_payment_id, amount, currency,
            status) values (${companyId}, ${randomUUID()}, ${invoice}, 'mollie', ${`tr_${companyId.slice(0, 8)}`}, 5,
            'EUR', 'open')`;
  await sql`insert into custom_fields (company_id, id, resource, key, type, labels, position)
            values (${companyId}, ${randomUUID()}, 'customers', 'employees', 'text', '{"en": "Employees"}', 1)`;
  await sql`insert into custom_field_values (company_id, resource, record_id, key, num)
            values (${companyId}, 'customers', ${customer}, 'employees', 12)`;
  const file = randomUUID();
  await sql`insert into files (company_id, id, name, mime_type, size)
            values (${companyId}, ${file}, 'a.pdf', 'application/pdf', 4)`;
  await sql`insert into file_chunks (company_id, file_id, seq, data) values (${companyId}, ${file}, 0, '\\x25504446')`;
  await sql`insert into quote_attachments (company_id, id, quote_id, file_id)
            values (${companyId}, ${randomUUID()}, ${quote}, ${file})`;
  const workOrder = randomUUID();
  await sql`insert into work_orders (company_id, id, number, customer_id, customer, language, currency, subtotal,
            tax_amount, total, items, checklist)
            values (${companyId}, ${workOrder}, 'W2026-0001', ${customer}, '{}', 'nl', 'EUR', 0, 0, 0, '[]', '[]')`;
  const photo = randomUUID();
  await sql`insert into work_order_photos (company_id, id, work_order_id, file_id, kind, position)
            values (${companyId}, ${photo}, ${workOrder}, ${file}, 'before', 1)`;
  await sql`insert into work_order_photo_prints (company_id, photo_id, image, width, height, size)
            values (${companyId}, ${photo}, '\\xffd8ff', 1, 1, 3)`;
  await sql`insert into rendered_pdfs (company_id, document_id, variant, content_key, pdf, size)
            values (${companyId}, ${quote}, 'pdf', 'key', '\\x25504446', 4)`;
}

/** Runs `work` as the API does: app_api, with app.company_id set for this transaction only. */
function asTenant<T>(companyId: string | null, work: (tx: postgres.TransactionSql) => Promise<T>): Promise<T> {
  return api.sql.begin(async (tx) => {
    await tx`select set_config('role', 'app_api', true)`;
    if (companyId) await tx`select set_config('app.company_id', ${companyId}, true)`;
    return work(tx);
  }) as Promise<T>;
}

const companiesIn = async (tx: postgres.TransactionSql, table: Table) => {
  const column = TENANT_TABLES[table];
  const rows = await tx.unsafe(`select ${column}::text as company from ${table}`);
  return rows.map((r) => r.company as string);
};

/** The columns an INSERT may name: not generated, not `GENERATED ALWAYS AS IDENTITY`. */
async function insertableColumns(table: string): Promise<string[]> {
  const rows = await api.sql<{ name: string }[]>`
    select a.attname as name from pg_attribute a
    where a.attrelid = ${table}::regclass and a.attnum > 0 and not a.attisdropped
      and a.attgenerated = '' and a.attidentity <> 'a'
    order by a.attnum`;
  return rows.map((r) => r.name);
}

beforeAll(async () => {
  api = await setupApi();
  a = (await api.company({ name: 'A' })).id;
  b = (await api.company({ name: 'B' })).id;
  for (const id of [a, b]) {
    await seed(api.sql, id);
    await api.key(id);
  }
});

describe('a tenant transaction', () => {
  it.each(TABLES)('sees only its own rows of %s, without any company filter', async (table) => {
    // The superuser sees both companies, so the table really holds B's rows.
    const all = await api.sql.unsafe(`select distinct ${TENANT_TABLES[table]}::text as company from ${table}`);
    expect(all.map((r) => r.company).sort()).toEqual([a, b].sort());

    const seen = await asTenant(a, (tx) => companiesIn(tx, table));
    expect(seen.length).toBeGreaterThan(0);
    expect(new Set(seen)).toEqual(new Set([a]));
    const asB = await asTenant(b, (tx) => companiesIn(tx, table));
    expect(new Set(asB)).toEqual(new Set([b]));
  });

  it.each(TABLES)('finds nothing of the other company in %s even when asking for it', async (table) => {
    const column = TENANT_TABLES[table];
    const rows = await asTenant(a, (tx) => tx.unsafe(`select 1 from ${table} where ${column} = $1`, [b]));
    expect(rows).toHaveLength(0);
  });

  it('cannot insert a row into another company', async () => {
    await expect(
      asTenant(
        a,
        (tx) => tx`insert into customers (company_id, id, email) values (${b}, ${randomUUID()}, 'x@example.nl')`,
      ),
    ).rejects.toThrow(/new row violates row-level security policy/);
    // Its own company works with the same statement.
    await asTenant(
      a,
      (tx) => tx`insert into customers (company_id, id, email) values (${a}, ${randomUUID()}, 'y@example.nl')`,
    );
  });

  it('cannot move a row into another company, nor change or delete the other company’s rows', async () => {
    await expect(
      asTenant(a, (tx) => tx`update customers set company_id = ${b} where company_id = ${a}`),
    ).rejects.toThrow(/new row violates row-level security policy/);
    const updated = await asTenant(a, (tx) => tx`update customers set name = 'taken' where company_id = ${b}`);
    expect(updated.count).toBe(0);
    const deleted = await asTenant(a, (tx) => tx`delete from notes where company_id = ${b}`);
    expect(deleted.count).toBe(0);
    const [{ count }] = await api.sql`select count(*)::int as count from notes where company_id = ${b}`;
    expect(count).toBe(1);
  });

  // Generic over the catalog, not only customers: a policy whose WITH CHECK lets rows through on one table (e.g.
  // `WITH CHECK (true)` on work_orders) lets a tenant write rows into another company. The error must be row-level
  // security's own; a foreign-key or unique violation, or success, means the policy let the row through.
  it('cannot insert a row into another company, nor move one there, in any table with a company_id', async () => {
    const tables = await api.sql<{ table: string; insert: boolean; update: boolean }[]>`
      select c.relname as table, has_table_privilege('app_api', c.oid, 'INSERT') as insert,
             has_table_privilege('app_api', c.oid, 'UPDATE') as update
      from pg_class c join pg_namespace n on n.oid = c.relnamespace and n.nspname = 'public'
      join pg_attribute a on a.attrelid = c.oid and a.attname = 'company_id' and not a.attisdropped
      where c.relkind in ('r', 'p') order by 1`;
    expect(tables.length).toBeGreaterThanOrEqual(TABLES.length - 1);
    const letThrough: string[] = [];
    const attempt = async (what: string, statement: string, params: string[]) => {
      const error = await asTenant(a, (tx) => tx.unsafe(statement, params)).then(
        () => undefined,
        (e: Error) => e,
      );
      if (!/new row violates row-level security policy/.test(error?.message ?? '')) {
        letThrough.push(`${what}: ${error ? error.message : 'accepted'}`);
      }
    };
    for (const { table, insert, update } of tables) {
      expect(insert || update, `app_api can neither insert into nor update ${table}`).toBe(true);
      const columns = await insertableColumns(table);
      const [{ count }] = await api.sql.unsafe(`select count(*)::int as count from ${table} where company_id = $1`, [
        a,
      ]);
      expect(count, `no row of ${table} to copy: seed() needs one`).toBeGreaterThan(0);
      if (insert) {
        // A copy of one of its own rows with the other company's id: every other column is valid as it is.
        const list = columns.map((c) => `"${c}"`).join(', ');
        const values = columns.map((c) => (c === 'company_id' ? '$1::uuid' : `"${c}"`)).join(', ');
        await attempt(
          `insert into ${table}`,
          `insert into ${table} (${list}) select ${values} from ${table} where company_id = $2 limit 1`,
          [b, a],
        );
      }
      if (update) {
        await attempt(`move a row of ${table}`, `update ${table} set company_id = $1 where company_id = $2`, [b, a]);
      }
    }
    expect(letThrough).toEqual([]);
  });

  it('queues jobs only for its own company (migration 0018), one at a time or many at once', async () => {
    const job = (company: string) => JSON.stringify({ companyId: company, deliveryId: 'wd_x', trigger: 'recovery' });
    const later = "now() + interval '1 year'";
    await expect(
      asTenant(a, (tx) => tx.unsafe(`select app_queue_job('webhook_deliver', $1::json, ${later})`, [job(b)])),
    ).rejects.toMatchObject({ code: '42501' });
    await expect(
      asTenant(a, (tx) =>
        tx.unsafe(
          `select app_queue_jobs(array['webhook_deliver', 'webhook_deliver'], array[$1, $2]::json[],
          array[${later}, ${later}])`,
          [job(a), job(b)],
        ),
      ),
    ).rejects.toMatchObject({ code: '42501' });
    // A payload without a company is no job of this company either.
    await expect(
      asTenant(a, (tx) => tx.unsafe(`select app_queue_job('webhook_deliver', '{}'::json, ${later})`)),
    ).rejects.toMatchObject({ code: '42501' });
    // Its own company works with the same statements.
    await asTenant(a, async (tx) => {
      await tx.unsafe(`select app_queue_job('webhook_deliver', $1::json, ${later})`, [job(a)]);
      await tx.unsafe(`select app_queue_jobs(array['webhook_deliver'], array[$1]::json[], array[${later}])`, [job(a)]);
    });
    const queued = await api.sql<{ company: string }[]>`
      select payload->>'companyId' as company from graphile_worker._private_jobs
      where payload->>'deliveryId' = 'wd_x'`;
    expect(queued.map((r) => r.company)).toEqual([a, a]);
    await api.sql`delete from graphile_worker._private_jobs where payload->>'deliveryId' = 'wd_x'`;
  });

  it('cannot create or delete companies', async () => {
    await expect(
      asTenant(a, (tx) => tx`insert into companies (id, name) values (${randomUUID()}, 'X')`),
    ).rejects.toThrow(/permission denied/);
    await expect(asTenant(a, (tx) => tx`delete from companies where id = ${a}`)).rejects.toThrow(/permission denied/);
  });

  it('fails closed without app.company_id: every tenant table looks empty', async () => {
    for (const table of TABLES) {
      const rows = await asTenant(null, (tx) => companiesIn(tx, table));
      expect(rows, table).toHaveLength(0);
    }
    await expect(
      asTenant(
        null,
        (tx) => tx`insert into customers (company_id, id, email) values (${a}, ${randomUUID()}, 'z@example.nl')`,
      ),
    ).rejects.toThrow(/row-level security/);
  });

  it('leaves nothing behind for the next transaction on the same connection', async () => {
    const reserved = await api.sql.reserve();
    try {
      await reserved`begin`;
      await reserved`select set_config('role', 'app_api', true), set_config('app.company_id', ${a}, true)`;
      const [inside] = await reserved`select current_user as role`;
      expect(inside.role).toBe('app_api');
      await reserved`commit`;
      const [row] =
        await reserved`select current_user as role, coalesce(current_setting('app.company_id', true), '') as company`;
      expect(row.company).toBe('');
      expect(row.role).not.toBe('app_api');
    } finally {
      reserved.release();
    }
  });

  it('is what withTenant gives the handlers', async () => {
    const rows = await withTenant(api.db, a, (tx) =>
      tx.execute<{ company_id: string; role: string }>(
        drizzleSql`select company_id::text, current_user as role from customers`,
      ),
    );
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) expect(row).toEqual({ company_id: a, role: 'app_api' });
  });
});

describe('the schema', () => {
  it('forces row-level security on every table with a company_id (a new table without it fails here)', async () => {
    const tables = await api.sql<{ table: string; enabled: boolean; forced: boolean; policies: number }[]>`
      select c.relname as table, c.relrowsecurity as enabled, c.relforcerowsecurity as forced,
             (select count(*)::int from pg_policy p where p.polrelid = c.oid and p.polname = 'tenant_isolation') as policies
      from information_schema.columns col
      join pg_class c on c.relname = col.table_name
      join pg_namespace n on n.oid = c.relnamespace and n.nspname = col.table_schema
      where col.table_schema = 'public' and col.column_name = 'company_id' and c.relkind in ('r', 'p')
      order by 1`;
    expect(tables.map((t) => t.table).sort()).toEqual(TABLES.filter((t) => t !== 'companies').sort());
    for (const t of tables) {
      expect({ table: t.table, enabled: t.enabled, policies: t.policies }).toEqual({
        table: t.table,
        enabled: true,
        policies: 1,
      });
      expect({ table: t.table, forced: t.forced }).toEqual({ table: t.table, forced: !NOT_FORCED.includes(t.table) });
    }
    const [companies] =
      await api.sql`select relrowsecurity, relforcerowsecurity from pg_class where relname = 'companies'`;
    expect(companies).toEqual({ relrowsecurity: true, relforcerowsecurity: false });
  });

  it('runs the API as a role that is neither superuser nor exempt from row-level security, and not the owner', async () => {
    const [role] = await api.sql`select rolsuper, rolbypassrls from pg_roles where rolname = 'app_api'`;
    expect(role).toEqual({ rolsuper: false, rolbypassrls: false });
    const owners = await api.sql`select distinct tableowner from pg_tables where schemaname = 'public'`;
    expect(owners.map((o) => o.tableowner)).not.toContain('app_api');
  });
});
