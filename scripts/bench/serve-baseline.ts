// Child process of scripts/bench/api.ts: the bare stack the service is compared with — Hono on
// @hono/node-server and one prepared postgres.js SELECT of one customer by key, as the owner: no auth, no
// middleware, no row-level security (the connecting user owns the table), the row sent as it comes.
// GET /customers/:id on 127.0.0.1:PORT for DATABASE_URL and COMPANY_ID. Prints `READY` when it listens.
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import postgres from 'postgres';

const url = process.env.DATABASE_URL;
const companyId = process.env.COMPANY_ID;
if (!url || !companyId) throw new Error('serve-baseline.ts needs DATABASE_URL and COMPANY_ID');

const sql = postgres(url, { max: 20, onnotice: () => {} });
const app = new Hono();
app.get('/customers/:id', async (c) => {
  const [row] = await sql`
    select company_id, id, type, status, name, email, phone, company_name, vat_number, coc_number, address,
           postal_code, city, country, email_unsubscribed, converted_at, last_activity_at, created_at, updated_at,
           version
    from customers where company_id = ${companyId} and id = ${c.req.param('id')}`;
  if (!row) return c.json({ error: 'not found' }, 404);
  return c.json({ data: row });
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
