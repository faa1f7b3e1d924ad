// Child process of scripts/bench/api.ts: the bare stack the service is compared with. Each route is the twin of
// one API scenario: Hono on @hono/node-server and the same statements the API's queries send (the page query
// and its follow-ups), prepared by postgres.js, as the owner: no auth, no middleware, no row-level security (the
// connecting user owns the tables), the rows sent as they come. Writes are one statement each (the floor the
// issue judges API writes against: a bare single-statement write).
// 127.0.0.1:PORT for DATABASE_URL and COMPANY_ID. Prints `READY` when it listens.
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import postgres from 'postgres';

const url = process.env.DATABASE_URL;
const companyId = process.env.COMPANY_ID;
if (!url || !companyId) throw new Error('serve-baseline.ts needs DATABASE_URL and COMPANY_ID');

const sql = postgres(url, { max: 20, onnotice: () => {} });
const app = new Hono();

const CUSTOMER_COLUMNS = sql`company_id, id, type, status, name, email, phone, company_name, vat_number, coc_number,
  address, postal_code, city, country, email_unsubscribed, converted_at, last_activity_at, created_at, updated_at,
  metadata, version`;
const pageSize = (value: string | undefined) => Math.min(100, Math.max(1, Number(value ?? 25) || 25));
/** The keyset cursor of the API's default order (`-created_at`): base64url JSON `{v: [created_at, id]}`. */
const keyOf = (cursor: string | undefined): [string, string] | null =>
  cursor ? (JSON.parse(Buffer.from(cursor, 'base64url').toString()) as { v: [string, string] }).v : null;
/** The rows of a page as the API sends them: `{data, meta}`, one row more read to know whether a next exists. */
const page = <T>(rows: T[], limit: number) => ({
  data: rows.slice(0, limit),
  meta: { limit, has_more: rows.length > limit },
});

app.get('/customers/:id', async (c) => {
  const [row] = await sql`select ${CUSTOMER_COLUMNS} from customers
    where company_id = ${companyId} and id = ${c.req.param('id')}`;
  if (!row) return c.json({ error: 'not found' }, 404);
  return c.json({ data: row });
});

app.get('/customers', async (c) => {
  const limit = pageSize(c.req.query('limit'));
  const key = keyOf(c.req.query('cursor'));
  const q = c.req.query('q');
  // metadata[key]=value: containment, which the owner's statement answers through the GIN index directly.
  const pairs = Object.entries(c.req.query()).flatMap(([name, value]) => {
    const key = /^metadata\[(.+)\]$/.exec(name)?.[1];
    return key === undefined ? [] : [[key, value]];
  });
  const metadata = pairs.length ? JSON.stringify(Object.fromEntries(pairs)) : null;
  const fields = customFieldConditions(c.req.query());
  const rows = await sql`select ${CUSTOMER_COLUMNS} from customers
    where company_id = ${companyId}
      ${key ? sql`and (created_at, id) < (${key[0]}::timestamptz, ${key[1]}::uuid)` : sql``}
      ${
        q
          ? sql`and (search_text like ${`%${q.toLowerCase()}%`} or (custom_fields <> '{}'::jsonb
                and app_custom_field_text(custom_fields) like ${`%${q.toLowerCase()}%`}))`
          : sql``
      }
      ${metadata ? sql`and metadata @> ${metadata}::text::jsonb and metadata <> '{}'::jsonb` : sql``}
      ${fields}
    order by created_at desc, id desc limit ${limit + 1}`;
  return c.json(page(rows, limit));
});

/**
 * The bench's custom-field filters (scripts/bench/api.ts seedCustomFields) as the owner's conditions: `[gte]` on the
 * number, a comma list as any of its values, else containment of the text (the GIN index directly).
 */
function customFieldConditions(query: Record<string, string>) {
  return Object.entries(query).reduce((acc, [name, value]) => {
    const [, key, op] = /^filter\[custom_fields\.([a-z_]+)\](\[gte\])?$/.exec(name) ?? [];
    if (key === undefined) return acc;
    if (op) return sql`${acc} and (custom_fields ->> ${key}::text)::numeric >= ${value}::numeric`;
    const any = value.split(',').map((v) => JSON.stringify({ [key]: v }));
    return sql`${acc} and custom_fields @> any(${any}::text[]::jsonb[]) and custom_fields <> '{}'::jsonb`;
  }, sql``);
}

app.post('/customers', async (c) => {
  const body = await c.req.json<{ email: string; name: string; phone: string }>();
  const [row] = await sql`insert into customers (company_id, id, type, status, name, email, phone)
    values (${companyId}, gen_random_uuid(), 'individual', 'lead', ${body.name}, ${body.email}, ${body.phone})
    returning ${CUSTOMER_COLUMNS}`;
  return c.json({ data: row }, 201);
});

app.patch('/customers/:id', async (c) => {
  const body = await c.req.json<{ name: string }>();
  const version = Number((c.req.header('if-match') ?? '').replace(/"/g, ''));
  const [row] = await sql`update customers set name = ${body.name}, version = version + 1, updated_at = now()
    where company_id = ${companyId} and id = ${c.req.param('id')} and version = ${version}
    returning ${CUSTOMER_COLUMNS}`;
  if (!row) return c.json({ error: 'precondition failed' }, 412);
  c.header('ETag', `"${row.version}"`);
  return c.json({ data: row });
});

// The API's default order of conversations is `-last_message_at` (last_message_sort), then the customers'
// contact details of the page.
app.get('/conversations', async (c) => {
  const limit = pageSize(c.req.query('limit'));
  const rows = await sql`select * from conversations where company_id = ${companyId}
    order by last_message_sort desc, id desc limit ${limit + 1}`;
  const customerIds = [...new Set(rows.slice(0, limit).map((r) => r.customer_id as string))];
  const contacts = await sql`select id, name, email, phone from customers
    where company_id = ${companyId} and id = any(${customerIds}::uuid[])`;
  const byId = new Map(contacts.map((r) => [r.id as string, r]));
  return c.json(
    page(
      rows.map((r) => ({ ...r, customer: byId.get(r.customer_id) ?? null })),
      limit,
    ),
  );
});

// Tasks: the page, then the page's links and which of its tasks have open checklist points.
app.get('/tasks', async (c) => {
  const limit = pageSize(c.req.query('limit'));
  const rows = await sql`select * from tasks where company_id = ${companyId}
    order by created_at desc, id desc limit ${limit + 1}`;
  const ids = rows.slice(0, limit).map((r) => r.id as string);
  const links = await sql`select task_id, object, target_id from task_links
    where company_id = ${companyId} and task_id = any(${ids}::uuid[])
      and object in ('customer', 'deal', 'appointment', 'quote', 'invoice', 'work_order')
    order by position`;
  const open = await sql`select distinct task_id from task_checklist_items
    where company_id = ${companyId} and task_id = any(${ids}::uuid[]) and not is_done`;
  const withOpen = new Set(open.map((r) => r.task_id as string));
  return c.json(
    page(
      rows.map((r) => ({
        ...r,
        links: links.filter((l) => l.task_id === r.id),
        has_open_actions: withOpen.has(r.id),
      })),
      limit,
    ),
  );
});

// Invoices (their lines are JSON on the row), then the page's payments.
app.get('/invoices', async (c) => {
  const limit = pageSize(c.req.query('limit'));
  const rows = await sql`select * from invoices where company_id = ${companyId}
    order by created_at desc, id desc limit ${limit + 1}`;
  const ids = rows.slice(0, limit).map((r) => r.id as string);
  const payments = await sql`select * from invoice_payments
    where company_id = ${companyId} and invoice_id = any(${ids}::uuid[]) order by created_at, id`;
  return c.json(
    page(
      rows.map((r) => ({ ...r, payments: payments.filter((p) => p.invoice_id === r.id) })),
      limit,
    ),
  );
});

const server = serve({ fetch: app.fetch, port: Number(process.env.PORT), hostname: '127.0.0.1' }, () =>
  console.log('READY'),
);

async function stop() {
  (server as import('node:http').Server).closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await sql.end({ timeout: 5 });
  process.exit(0);
}
process.on('SIGTERM', () => void stop());
process.on('SIGINT', () => void stop());
