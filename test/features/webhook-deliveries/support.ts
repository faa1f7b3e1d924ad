// Shared by the webhook delivery tests: a real receiver on 127.0.0.1, endpoints written straight into the
// database (independent of the endpoints API), and a deterministic stand-in for the worker that runs the
// queued webhook jobs that are due at a given (test) time, in the order Graphile Worker would.
import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import { withTenant } from '../../../src/db/tenant.ts';
import { recordEvent } from '../../../src/events/record.ts';
import { type DeliverOptions, deliverBatch } from '../../../src/webhooks/delivery-attempts.ts';
import { DELIVER_TASK } from '../../../src/webhooks/delivery-job-key.ts';
import { DeliveryState } from '../../../src/webhooks/delivery-state.ts';
import { fanout } from '../../../src/webhooks/fanout.ts';
import { FANOUT_TASK } from '../../../src/webhooks/jobs/webhook-fanout.ts';
import type { Trigger } from '../../../src/webhooks/record-attempts.ts';
import { newSecret } from '../../../src/webhooks/sign.ts';
import type { TestApi } from '../../harness/api.ts';
import { atFileEnd } from '../../harness/file-end.ts';

/** Sending options for the receivers of the tests, on 127.0.0.1 (WEBHOOK_ALLOW_PRIVATE_URLS). */
export const LOCAL_SENDING: DeliverOptions = { policy: { allowPrivate: true } };

export type Received = { headers: IncomingHttpHeaders; body: string; at: number };
/** How the receiver answers one request: status, body, extra headers, and a delay before answering. */
/** `heldUntil`: the answer waits for it (a step of the test, never a guess of how long that step takes). */
export type Answer = {
  status?: number;
  body?: string;
  headers?: Record<string, string>;
  delayMs?: number;
  heldUntil?: Promise<unknown>;
};

/** An HTTP receiver on 127.0.0.1 recording every request (raw body); answers 200 unless told otherwise. */
export async function receiver(answer: (n: number, request: Received) => Answer = () => ({})) {
  const requests: Received[] = [];
  const server = createServer((req, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const request = { headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), at: Date.now() };
      requests.push(request);
      const a = answer(requests.length, request);
      const reply = () => {
        if (res.destroyed) return;
        res.writeHead(a.status ?? 200, { 'content-type': 'text/plain', ...a.headers });
        res.end(a.body ?? 'ok');
      };
      if (a.heldUntil) void a.heldUntil.then(reply);
      else if (a.delayMs) setTimeout(reply, a.delayMs);
      else reply();
    });
  });
  return { ...(await listenForTests(server)), requests };
}

/** A receiver that answers nothing until release() (then 200 to everything held and everything after). */
export async function hangingReceiver() {
  let released = false;
  const held: (() => void)[] = [];
  let received = 0;
  const server = createServer((req, res) => {
    received++;
    req.resume();
    const answer = () => res.writeHead(200).end('ok');
    if (released) answer();
    else held.push(answer);
  });
  const { url } = await listenForTests(server);
  return {
    url,
    received: () => received,
    release: () => {
      released = true;
      for (const answer of held.splice(0)) answer();
    },
  };
}

/**
 * A receiver that holds every request `holdMs` before answering 200, counting the requests it has not yet
 * answered; every arrival is appended to `log` (shared between receivers, to compare their order).
 */
export async function holdingReceiver(
  name: string,
  hold: number | Promise<unknown>,
  log: { name: string; id: string }[] = [],
) {
  let inFlight = 0;
  const stats = { maxInFlight: 0, ids: [] as string[] };
  const server = createServer((req, res) => {
    inFlight++;
    stats.maxInFlight = Math.max(stats.maxInFlight, inFlight);
    const id = String(req.headers['webhook-id']);
    stats.ids.push(id);
    log.push({ name, id });
    req.resume();
    // Counted as answered before the answer leaves: the next request cannot be counted on top of it.
    const answer = () => {
      inFlight--;
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end('ok');
    };
    req.on('end', () => (typeof hold === 'number' ? setTimeout(answer, hold) : void hold.then(answer)));
  });
  const { url } = await listenForTests(server);
  return { url, stats };
}

/** Starts a receiver's server on 127.0.0.1 (a free port), closed after the file's tests. */
export async function listenForTests(server: Server) {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('receiver has no TCP address');
  const { port } = address;
  const close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  atFileEnd(close);
  return { url: `http://127.0.0.1:${port}/hook`, port, close };
}

/** The three Standard Webhooks headers of a received request, for `Webhook.verify`. */
export function signatureHeaders(r: Received) {
  const one = (name: string) => {
    const value = r.headers[name];
    if (typeof value !== 'string') throw new Error(`header ${name} missing or repeated`);
    return value;
  };
  return {
    'webhook-id': one('webhook-id'),
    'webhook-timestamp': one('webhook-timestamp'),
    'webhook-signature': one('webhook-signature'),
  };
}

let endpointCount = 0;

/** A webhook endpoint row as the endpoints API would write it (scopes: the creating key's read scopes). */
export async function insertEndpoint(
  api: TestApi,
  companyId: string,
  opts: { url: string; events?: string[]; scopes?: string[]; status?: 'active' | 'disabled' },
) {
  const id = `we_test${Date.now()}x${endpointCount++}`;
  const secret = newSecret();
  await api.sql`
    insert into webhook_endpoints (company_id, id, url, events, scopes, secret, status)
    values (${companyId}, ${id}, ${opts.url}, ${opts.events ?? ['*']}, ${opts.scopes ?? ['customers.read', 'deals.read']},
      ${secret}, ${opts.status ?? 'active'})`;
  return { id, secret };
}

export type Job = { id: string; task: string; payload: Record<string, unknown>; runAt: Date; key: string | null };

/** The webhook jobs waiting in Graphile Worker's queue (not locked), in the worker's order. */
export async function queuedJobs(api: TestApi): Promise<Job[]> {
  const rows = await api.sql<
    { id: string; task: string; payload: Record<string, unknown>; run_at: Date; key: string | null }[]
  >`
    select j.id::text as id, t.identifier as task, j.payload, j.run_at, j.key
    from graphile_worker._private_jobs j join graphile_worker._private_tasks t on t.id = j.task_id
    where t.identifier in (${FANOUT_TASK}, ${DELIVER_TASK}) and j.locked_at is null
    order by j.priority, j.run_at, j.id`;
  return rows.map((r) => ({ id: r.id, task: r.task, payload: r.payload, runAt: new Date(r.run_at), key: r.key }));
}

/** The queued jobs of one company. */
export const jobsOf = async (api: TestApi, companyId: string) =>
  (await queuedJobs(api)).filter((j) => j.payload.companyId === companyId);

/** The delivery jobs that carry this delivery (alone, or among a fan-out's first attempts). */
export const deliverJobsOf = async (api: TestApi, deliveryId: string) =>
  (await queuedJobs(api)).filter((j) => j.task === DELIVER_TASK && idsOf(j.payload).includes(deliveryId));

const idsOf = (payload: Record<string, unknown>): string[] =>
  Array.isArray(payload.deliveryIds) ? payload.deliveryIds.map(String) : [String(payload.deliveryId)];

/** The delivery state of the worker runDueJobs plays: one per test file's API, as a process has one worker. */
const workers = new WeakMap<TestApi, DeliveryState>();

/**
 * Runs the queued webhook jobs of one company due at `now` (default: the real time at each step) again and
 * again, as jobs queue jobs, the way the worker does: lock the job, run its task, delete it. Jobs due later
 * stay queued. Answers what the delivery tasks said.
 */
export async function runDueJobs(
  api: TestApi,
  companyId: string,
  opts: Partial<Omit<DeliverOptions, 'now'>> & { now?: Date } = {},
): Promise<string[]> {
  const outcomes: string[] = [];
  const state = workers.get(api) ?? new DeliveryState(api.db, api.config.publicUrl);
  workers.set(api, state);
  for (;;) {
    const real = new Date();
    const now = opts.now ?? real;
    // A simulated clock only runs ahead: a job queued for the real present (a fan-out, a first attempt) is due.
    const due = (await queuedJobs(api)).filter(
      (j) => j.payload.companyId === companyId && (j.runAt <= now || j.runAt <= real),
    );
    const job = due[0];
    if (!job) return outcomes;
    await api.sql`update graphile_worker._private_jobs set locked_at = now(), locked_by = 'test' where id = ${job.id}`;
    const send = {
      policy: opts.policy ?? LOCAL_SENDING.policy,
      now: () => now,
      lookup: opts.lookup,
      timeoutMs: opts.timeoutMs,
    };
    if (job.task === FANOUT_TASK) {
      // As the worker does: the fan-out sends the first attempts itself.
      const sent = await fanout(state, { companyId, eventId: String(job.payload.eventId) }, send);
      outcomes.push(...sent.filter((o) => o !== 'queued'));
    } else {
      const payload = { companyId, deliveryIds: idsOf(job.payload), trigger: triggerOf(job.payload.trigger) };
      outcomes.push(...(await deliverBatch(state, payload, send)));
    }
    await api.sql`delete from graphile_worker._private_jobs where id = ${job.id}`;
  }
}

function triggerOf(value: unknown): Trigger {
  if (value === 'scheduled' || value === 'manual_resend' || value === 'recovery') return value;
  throw new Error(`unexpected trigger ${String(value)}`);
}

/** The delivery rows of an endpoint, oldest first (as superuser). */
export const deliveriesOf = async (api: TestApi, endpointId: string) =>
  api.sql<{ id: string; event_id: string; status: string; attempt_count: number; next_attempt_at: string | null }[]>`
    select id, event_id, status, attempt_count, next_attempt_at from webhook_deliveries
    where endpoint_id = ${endpointId} order by created_at, id`;

let customerCount = 0;

/** Creates a customer through the API (its customer.created event queues the fan-out). */
export async function createCustomer(api: TestApi, key: string, body: Record<string, unknown> = {}) {
  const res = await api.call('createCustomer', {
    key,
    body: { email: `hook${Date.now()}x${customerCount++}@example.nl`, ...body },
  });
  if (res.status !== 201) throw new Error(`createCustomer answered ${res.status}`);
  return res.body.data as { id: string; email: string };
}

/** The id of the latest event of a customer. */
export async function latestEventId(api: TestApi, customerId: string): Promise<string> {
  const [row] = await api.sql<{ id: string }[]>`
    select id from events where customer_id = ${customerId} order by created_at desc, id desc limit 1`;
  if (!row) throw new Error(`no event for ${customerId}`);
  return row.id;
}

/** A customer as the REST API shows it: the object of the test events recorded directly. */
export const customerObject = (email: string) => ({
  object: 'customer',
  id: '0192f4a2-6c1e-7b3a-9d4f-2a8e5c7b1f30',
  type: 'individual',
  status: 'lead',
  name: null,
  email,
  phone: null,
  company_name: null,
  vat_number: null,
  coc_number: null,
  peppol_id: null,
  address: null,
  postal_code: null,
  city: null,
  country: null,
  email_unsubscribed: false,
  converted_at: null,
  last_activity_at: null,
  created_at: '2026-03-14T08:30:05Z',
  updated_at: '2026-03-14T08:30:05Z',
});

/** `n` customer.created events of the company, recorded in one transaction (as a change would). */
export async function recordCustomerEvents(api: TestApi, companyId: string, n: number, email: string) {
  return withTenant(api.db, companyId, async (tx) => {
    const ids: string[] = [];
    for (let i = 0; i < n; i++) {
      const object = customerObject(email);
      ids.push(
        await recordEvent(tx, companyId, {
          type: 'customer.created',
          scope: 'customers.read',
          customerId: null,
          object,
        }),
      );
    }
    return ids;
  });
}
