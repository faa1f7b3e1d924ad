// Prometheus metrics at /metrics (prom-client), for operators; served only when METRICS_TOKEN is set, to a
// request that sends it as a bearer token. Request figures are this process's; the queue, webhook and database
// figures are read from PostgreSQL when scraped, so one scrape of any API node shows the whole installation's
// (work that worker processes do, seen from where it is recorded).
import { timingSafeEqual } from 'node:crypto';
import type { Context, MiddlewareHandler } from 'hono';
import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { Sql } from '../db/client.ts';
import { asMaintenance } from '../db/maintenance.ts';
import { CONCURRENCY_KINDS } from '../domain/concurrency-kinds.ts';
import type { AppEnv } from './app-env.ts';

/** The window of the recent-webhook figures (attempts by outcome, event → delivery latency). */
const RECENT = '5 minutes';

export class Metrics {
  readonly registry = new Registry();
  private readonly requestDuration = new Histogram({
    name: 'crm_http_request_duration_seconds',
    help: 'Time to answer a request, by operationId (none outside the API) and status',
    labelNames: ['operation', 'status'],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [this.registry],
  });
  private readonly inFlight = new Gauge({
    name: 'crm_http_requests_in_flight',
    help: 'Requests being answered now',
    registers: [this.registry],
  });
  private readonly rateLimited = new Counter({
    name: 'crm_rate_limit_refusals_total',
    help: 'Requests refused with 429 rate_limited, by operationId',
    labelNames: ['operation'],
    registers: [this.registry],
  });
  private readonly concurrencyRefused = new Counter({
    name: 'crm_concurrency_refusals_total',
    help: 'Requests refused with 429 concurrency_limited, by kind of slot (uploads, pdf_renders, batches) or requests (too many waiting for a turn)',
    labelNames: ['kind'],
    registers: [this.registry],
  });
  private readonly slotsInUse = this.gauge(
    'crm_concurrency_slots_in_use',
    'Concurrency slots held now by requests in flight, all companies and API nodes together, by kind',
    ['kind'],
  );
  private readonly turns = this.gauge(
    'crm_request_turns',
    "This API process's request turns (src/http/request-turns.ts): requests running in a turn and waiting for one",
    ['state'],
  );
  private readonly queueDepth = this.gauge('crm_job_queue_depth', 'Jobs due and waiting for a worker');
  private readonly queueOldest = this.gauge(
    'crm_job_queue_oldest_age_seconds',
    'How long the oldest due job has waited (0 when none waits)',
  );
  private readonly jobsRunning = this.gauge('crm_jobs_running', 'Jobs locked by a worker now');
  private readonly attempts = this.gauge(
    'crm_webhook_attempts_recent',
    `Webhook delivery attempts in the last ${RECENT}, by outcome`,
    ['outcome'],
  );
  private readonly deliveryLatency = this.gauge(
    'crm_webhook_event_to_delivery_seconds',
    `Time from an event to the first attempt of its delivery, in the last ${RECENT}, by quantile`,
    ['quantile'],
  );
  private readonly connections = this.gauge(
    'crm_db_connections',
    "The service's connections to its database, by state (active, idle, idle in transaction)",
    ['state'],
  );
  private readonly waiting = this.gauge(
    'crm_db_connections_waiting',
    'Connections of the service waiting, by what they wait for (Lock, LWLock, IO, …)',
    ['wait_event_type'],
  );

  private gauge(name: string, help: string, labelNames: string[] = []): Gauge {
    return new Gauge({ name, help, labelNames, registers: [this.registry] });
  }

  /** Times every request of the app (registered right after the request context). */
  requests(): MiddlewareHandler<AppEnv> {
    return async (c, next) => {
      const started = performance.now();
      this.inFlight.inc();
      try {
        await next();
      } finally {
        this.inFlight.dec();
        const operation = c.get('operationId') ?? 'none';
        const status = c.res.status;
        this.requestDuration.observe({ operation, status }, (performance.now() - started) / 1000);
        // A concurrency refusal is counted by its kind (refusedConcurrency), not as a rate limit.
        if (status === 429 && !c.get('concurrencyLimited')) this.rateLimited.inc({ operation });
      }
    };
  }

  /** One request refused with 429 concurrency_limited (src/http/concurrency.ts). */
  refusedConcurrency(kind: string): void {
    this.concurrencyRefused.inc({ kind });
  }

  /** The request turns as they stand now. */
  readTurns(turns: { running: number; waiting: number }): void {
    this.turns.set({ state: 'running' }, turns.running);
    this.turns.set({ state: 'waiting' }, turns.waiting);
  }

  /** The figures read from PostgreSQL (bounded: each statement stops after 2 s). */
  async readDatabase(sql: Sql): Promise<void> {
    const [queue] = await sql<{ due: number; oldest: number; running: number }[]>`
      select count(*) filter (where locked_at is null and run_at <= now())::int as due,
             coalesce(extract(epoch from now() - min(run_at) filter (where locked_at is null and run_at <= now())), 0)::float8 as oldest,
             count(*) filter (where locked_at is not null)::int as running
      from graphile_worker._private_jobs`;
    this.queueDepth.set(queue?.due ?? 0);
    this.queueOldest.set(queue?.oldest ?? 0);
    this.jobsRunning.set(queue?.running ?? 0);

    const slots = await sql<{ kind: string; n: number }[]>`
      select kind, count(*)::int as n from concurrency_leases where expires_at > clock_timestamp() group by kind`;
    this.slotsInUse.reset();
    for (const kind of CONCURRENCY_KINDS) this.slotsInUse.set({ kind }, slots.find((s) => s.kind === kind)?.n ?? 0);

    const sessions = await sql<{ state: string | null; wait: string | null; n: number }[]>`
      select state, wait_event_type as wait, count(*)::int as n from pg_stat_activity
      where datname = current_database() and usename = current_user and pid <> pg_backend_pid()
      group by 1, 2`;
    this.connections.reset();
    this.waiting.reset();
    for (const s of sessions) {
      if (s.state) this.connections.inc({ state: s.state }, s.n);
      if (s.wait && s.state === 'active') this.waiting.inc({ wait_event_type: s.wait }, s.n);
    }

    // Across companies, as the maintenance role: it may read the webhook log and events, nothing else.
    await asMaintenance(sql, async (tx) => {
      await tx`select set_config('statement_timeout', '2000', true)`;
      const outcomes = await tx<{ status: string; n: number }[]>`
        select status, count(*)::int as n from webhook_attempts
        where created_at > now() - ${RECENT}::interval group by 1`;
      this.attempts.reset();
      for (const outcome of ['succeeded', 'failed'])
        this.attempts.set({ outcome }, outcomes.find((o) => o.status === outcome)?.n ?? 0);
      const [latency] = await tx<{ p50: number | null; p90: number | null; p99: number | null }[]>`
        select percentile_cont(0.5) within group (order by s) as p50, percentile_cont(0.9) within group (order by s) as p90,
               percentile_cont(0.99) within group (order by s) as p99
        from (select extract(epoch from a.created_at - e.created_at)::float8 as s
              from webhook_attempts a join events e on e.company_id = a.company_id and e.id = a.event_id
              where a.created_at > now() - ${RECENT}::interval and a.attempt_number = 1) d`;
      this.deliveryLatency.reset();
      for (const q of ['p50', 'p90', 'p99'] as const) {
        const value = latency?.[q];
        if (value !== null && value !== undefined) this.deliveryLatency.set({ quantile: `0.${q.slice(1)}` }, value);
      }
    });
  }
}

/** GET /metrics: the bearer token of METRICS_TOKEN, else 401 (and 404 without METRICS_TOKEN: not mounted). */
export function serveMetrics(token: string) {
  const expected = Buffer.from(`Bearer ${token}`);
  return async (c: Context<AppEnv>) => {
    const sent = Buffer.from(c.req.header('authorization') ?? '');
    if (sent.length !== expected.length || !timingSafeEqual(sent, expected)) {
      return c.text('A bearer token (METRICS_TOKEN) is needed.\n', 401, { 'WWW-Authenticate': 'Bearer' });
    }
    const { metrics, sql, log, requestTurns } = c.get('deps');
    metrics.readTurns(requestTurns);
    try {
      await metrics.readDatabase(sql);
    } catch (error) {
      // The request figures are still worth a scrape; the stale database ones say when they were read.
      log.warn({ err: error }, 'metrics: the database figures could not be read');
    }
    return c.text(await metrics.registry.metrics(), 200, { 'Content-Type': metrics.registry.contentType });
  };
}
