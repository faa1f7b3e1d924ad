// `npm run worker` stopped on SIGTERM while a first attempt it handed over (src/webhooks/fanout.ts: still in
// flight after INLINE_WAIT_MS, its delivery written pending) waits for its answer: the process records the
// answer before it closes its pools and exits 0, so the delivery is not left for its safety job to send
// again. Runs the real entry point as a child process against a real receiver on 127.0.0.1.
import { createServer } from 'node:http';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createDb } from '../../src/db/client.ts';
import { withTenant } from '../../src/db/tenant.ts';
import { recordEvent } from '../../src/events/record.ts';
import { createCompany } from '../../src/services/companies.ts';
import { INLINE_WAIT_MS } from '../../src/webhooks/fanout.ts';
import { newSecret } from '../../src/webhooks/sign.ts';
import { customerObject } from '../features/webhook-deliveries/support.ts';
import { freshDatabase } from '../harness/db.ts';
import { runService } from '../harness/processes.ts';

let database: Awaited<ReturnType<typeof freshDatabase>>;
let client: ReturnType<typeof createDb>;

beforeAll(async () => {
  database = await freshDatabase();
  client = createDb(database.url, 2);
});

afterAll(async () => {
  await client?.sql.end({ timeout: 5 });
  await database?.drop();
});

/** Answers 204 after `holdMs`; says when the first request came. */
async function slowReceiver(holdMs: number) {
  let arrived: () => void = () => {};
  const firstRequest = new Promise<void>((resolve) => {
    arrived = resolve;
  });
  const server = createServer((req, res) => {
    req.resume();
    arrived();
    setTimeout(() => res.writeHead(204).end(), holdMs);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('receiver has no TCP address');
  return {
    url: `http://127.0.0.1:${address.port}/hook`,
    firstRequest,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

it('records the answer of a handed-over first attempt before it exits', async () => {
  const hold = INLINE_WAIT_MS + 2_500;
  const slow = await slowReceiver(hold);
  const company = await createCompany(client.db, { name: 'Shutdown BV' });
  await client.sql`
    insert into webhook_endpoints (company_id, id, url, events, scopes, secret)
    values (${company.id}, 'we_shutdown1', ${slow.url}, ${['*']}, ${['customers.read']}, ${newSecret()})`;

  const { child, output, exited } = runService('worker', {
    DATABASE_URL: database.url,
    WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
    LOG_LEVEL: 'info',
  });
  try {
    const eventId = await withTenant(client.db, company.id, (tx) =>
      recordEvent(tx, company.id, {
        type: 'customer.created',
        scope: 'customers.read',
        customerId: null,
        object: customerObject('shutdown@example.nl'),
      }),
    );
    await slow.firstRequest;
    const sentAt = Date.now();
    // The fan-out waits INLINE_WAIT_MS, then writes the delivery pending (handed over) and completes its job.
    let status: string | undefined;
    for (let i = 0; i < 100 && status !== 'pending'; i++) {
      await new Promise((r) => setTimeout(r, 50));
      [{ status } = { status: undefined }] = await client.sql<{ status: string }[]>`
        select status from webhook_deliveries where company_id = ${company.id} and event_id = ${eventId}`;
    }
    expect(status).toBe('pending');

    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    // It waited for the answer (the receiver holds the request `hold` ms) and recorded it.
    expect(Date.now() - sentAt).toBeGreaterThanOrEqual(hold - 100);
    const [delivery] = await client.sql<{ status: string; attempt_count: number; last_status_code: number }[]>`
      select status, attempt_count, last_status_code from webhook_deliveries
      where company_id = ${company.id} and event_id = ${eventId}`;
    expect(delivery).toEqual({ status: 'succeeded', attempt_count: 1, last_status_code: 204 });
    expect(output()).toContain('shutting down');
  } finally {
    if (child.exitCode === null) child.kill('SIGKILL');
    await slow.close();
  }
}, 60_000);
