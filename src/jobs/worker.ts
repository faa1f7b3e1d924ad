// Graphile Worker: background jobs and cron in Postgres, so a job queued in a transaction exists exactly
// when that transaction commits. Tuned for throughput: a local queue of locked jobs and batched
// completion (about 10k noop jobs/s here, against about 1.6k with the defaults).
import { EventEmitter } from 'node:events';
import { Logger, type Runner, run, type TaskList, type WorkerEvents } from 'graphile-worker';
import type postgres from 'postgres';
import { z } from 'zod';
import type { Config } from '../config.ts';
import type { Db, Sql } from '../db/client.ts';
import { purgeOldEvents } from '../events/retention.ts';
import { IDEMPOTENCY_HOURS } from '../http/idempotency.ts';
import { deliverJob } from '../webhooks/deliver-job.ts';
import { DELIVERIES_PER_JOB } from '../webhooks/delivery-jobs.ts';
import { fanoutEvents } from '../webhooks/fanout.ts';
import { Coalescer } from './coalescer.ts';
import { keepAlive, type Liveness } from './liveness.ts';
import { queueStatistics, watchFetches } from './queue-statistics.ts';

/**
 * Deletes rows past their retention, across companies, as the maintenance role; without the sessions'
 * statement limit (a large backlog may take longer, see SESSION_LIMITS).
 */
async function purge(sql: Sql, statement: (tx: postgres.TransactionSql) => Promise<unknown>) {
  await sql.begin(async (tx) => {
    await tx`select set_config('role', 'app_maintenance', true), set_config('statement_timeout', '0', true)`;
    await statement(tx);
  });
}

// Job payloads are JSON from the queue: checked, not trusted. A delivery job carries one delivery (a retry,
// resend, recovery or safety job) or first attempts a fan-out queued for one endpoint (see delivery-jobs.ts).
const fanoutPayload = z.object({ companyId: z.uuid(), eventId: z.string() });
const trigger = z.enum(['scheduled', 'manual_resend', 'recovery']);
const admission = { endpointId: z.string().optional(), postponed: z.int().min(0).optional() };
const deliverPayload = z.union([
  z.object({ companyId: z.uuid(), deliveryId: z.string(), trigger, ...admission }),
  z.object({
    companyId: z.uuid(),
    deliveryIds: z.array(z.string()).min(1).max(DELIVERIES_PER_JOB),
    // Only a fan-out queues several deliveries in one job: their first attempts.
    trigger: z.literal('scheduled'),
    ...admission,
  }),
]);

/** `stop`: aborts when the worker starts to stop; webhook tasks then start no further requests. */
export function taskList(deps: { sql: Sql; db: Db; config: Config }, stop?: AbortSignal): TaskList {
  const sending = { policy: { allowPrivate: deps.config.WEBHOOK_ALLOW_PRIVATE_URLS === 'true' }, stop };
  // The fan-outs running at the same time are sent and written together, per company.
  // A batch lets the company's next one start once its sends are over: one sends while the other writes.
  const fanouts = new Coalescer<string, number>(
    (companyId, eventIds, release) => fanoutEvents(deps.db, companyId, eventIds, sending, release),
    FANOUT_BATCH_MAX,
  );
  return {
    webhook_fanout: async (payload) => {
      const { companyId, eventId } = fanoutPayload.parse(payload);
      await fanouts.add(companyId, eventId);
    },
    webhook_deliver: async (payload, helpers) => {
      await deliverJob(deps.db, deliverPayload.parse(payload), helpers.job.id, sending);
    },
    // Idempotency keys are kept 24 hours (see the contract's Idempotency section; a lookup ignores older ones).
    purge_idempotency_keys: async () => {
      await purge(
        deps.sql,
        (tx) =>
          tx`delete from idempotency_keys where created_at < now() - make_interval(hours => ${IDEMPOTENCY_HOURS})`,
      );
    },
    // The delivery log is kept 30 days, and events as long as a timeline shows them (see retention.ts). A
    // delivery's event may outlive it: nothing reads an event's deliveries past 30 days.
    purge_events: async () => {
      await purgeOldEvents(deps.sql);
      await purge(deps.sql, async (tx) => {
        await tx`delete from webhook_attempts where created_at < now() - interval '30 days'`;
        await tx`delete from webhook_deliveries where created_at < now() - interval '30 days'`;
      });
    },
  };
}

export const CRONTAB = ['17 * * * * purge_idempotency_keys', '23 * * * * purge_events'].join('\n');

/**
 * Jobs running at once. Most wait on the network or on a batch of their company (fan-outs, recorded
 * successes): more of them make bigger batches (webhooks bench: 20 → 60 took 2 400–2 650 → 3 300–3 400
 * deliveries/s). With a fan-out batch that lets the next one send while it writes, a company's fan-outs in
 * flight are bounded by this number (Little's law): 60 → 120 took 2 470–2 530 → 2 870–3 360, 120 → 240
 * 2 350–2 850 → 3 070–3 450 in alternating runs; 480 gave 2 390–3 080. (Without that release, 120 alone
 * gained nothing: the batches only grew.)
 */
export const WORKER_CONCURRENCY = 240;

/**
 * Events in one fan-out batch: a third of the jobs running at once, so that while batches write, the jobs of
 * the next one are running (read, sent) instead of all waiting for a write to end. Uncapped, a burst filled
 * every slot with one batch and read → send → write ran one after the other (webhooks bench, a trace of the
 * batches: 240 events each, ~10 + 50 + 31 ms back to back); at half, alternating runs: 6 790–6 860 → 7 520–7 940
 * deliveries/s. A third (80) was a little ahead of a half in two sessions' alternating runs (7 770–8 180 vs
 * 7 520–7 940; later, on a slower machine, burst ÷ noop median 38% vs 36% in six pairs), 60 and 40 behind.
 */
export const FANOUT_BATCH_MAX = WORKER_CONCURRENCY / 3;

/** Jobs the worker fetches at once and holds locked in its local queue: not fewer than run at once, which
 * Graphile Worker warns about. */
export const LOCAL_QUEUE_SIZE = WORKER_CONCURRENCY;

/** A runner that ended on its own is replaced after RESTART_MIN_MS, doubling up to RESTART_MAX_MS; back to the
 * minimum once a runner has run RESTART_RESET_AFTER_MS. */
const RESTART_MIN_MS = 1_000;
const RESTART_MAX_MS = 30_000;
const RESTART_RESET_AFTER_MS = 60_000;

export type Worker = { stop(): Promise<void> };

/**
 * Runs the jobs until `stop`. Graphile Worker's runner ends on its own when its pool gives up (`Failed to
 * complete jobs` after its connection was terminated, and the like): the process would keep running with no
 * worker. A new runner (a new pool, with its own liveness lock) then starts after a backoff.
 */
export async function startWorker(
  connectionString: string,
  deps: { sql: Sql; db: Db; config: Config },
  restartMinMs = RESTART_MIN_MS,
): Promise<Worker> {
  const log = (line: string) => console.error(`[worker] ${line}`);
  let stopping = false;
  let delay = restartMinMs;
  let restart: NodeJS.Timeout | undefined;
  const watch = async ({ poolId, startedAt, ended }: Running) => {
    const reason = await ended;
    if (stopping) return;
    // Its pool died in this process and is done (its tasks ended, or were failed by a forceful shutdown, which
    // queues them again anyway): the jobs it still holds locked (the ones it could not complete) run again now,
    // not after the sweep's minute, which is for pools of processes that may still be alive.
    let unlocked = '';
    if (poolId)
      unlocked = await deps.sql`select graphile_worker.force_unlock_workers(${deps.sql.array([poolId])})`.then(
        () => '; its jobs were unlocked',
        (error: unknown) => `; could not unlock its jobs: ${String(error)}`,
      );
    again(`the runner ended (${reason})${unlocked}`, Date.now() - startedAt);
  };
  const again = (why: string, ranMs: number) => {
    if (stopping) return; // `stop` came while the jobs were unlocked
    if (ranMs >= RESTART_RESET_AFTER_MS) delay = restartMinMs;
    log(`${why}; a new runner starts in ${delay} ms`);
    restart = setTimeout(() => {
      current = runOnce(connectionString, deps, log);
      current.then(watch, (error: unknown) => again(`could not start a runner (${String(error)})`, 0));
    }, delay);
    delay = Math.min(delay * 2, RESTART_MAX_MS);
  };
  let current = runOnce(connectionString, deps, log);
  void watch(await current);
  return {
    async stop() {
      stopping = true;
      clearTimeout(restart);
      const running = await current.catch(() => undefined);
      if (!running) return;
      // Rejects only when the runner is stopping already (on its own): its end is awaited all the same.
      await running.runner.stop().catch(() => {});
      await running.ended;
    },
  };
}

/** A runner; `ended` says why once it has ended and given up its liveness lock. */
type Running = { runner: Runner; poolId: string | undefined; startedAt: number; ended: Promise<string> };

async function runOnce(
  connectionString: string,
  deps: { sql: Sql; db: Db; config: Config },
  log: (line: string) => void,
): Promise<Running> {
  const startedAt = Date.now();
  const events = new EventEmitter() as WorkerEvents;
  // A stopping worker sends nothing new: it waits only for the requests in flight (at most the 10-second
  // limit), not for every message of its running jobs (up to DELIVERIES_PER_JOB to a slow endpoint, 16 at a
  // time); the rest is queued again for the next worker.
  const stopSending = new AbortController();
  // Why the pool stopped: the runner's promise resolves all the same (Graphile Worker logs the error).
  let reason: string | undefined;
  events.on('pool:fatalError', ({ action, error }) => {
    reason ??= `${action} failed: ${String(error)}`;
  });
  events.on('pool:gracefulShutdown', ({ message }) => {
    reason ??= message;
    stopSending.abort();
  });
  // The pool's liveness lock is taken as soon as the pool exists (see liveness.ts). Without it (no connection)
  // the worker still runs; only the jobs of a crash of this process would wait for Graphile's lock timeout.
  let liveness: Promise<Liveness | undefined> = Promise.resolve(undefined);
  let poolId: string | undefined;
  events.on('pool:create', ({ workerPool }) => {
    poolId = workerPool.id;
    liveness = keepAlive(connectionString, deps.sql, workerPool.id, log).catch((error: unknown) => {
      log(`could not take the liveness lock: ${String(error)}`);
      return undefined;
    });
  });
  const runner = await run({
    events,
    connectionString,
    concurrency: WORKER_CONCURRENCY,
    // Graphile Worker's own pool (fetching and completing jobs, the cron; the tasks use the service's pools),
    // opened as needed — with the local queue and batched completion a few connections at a time (0.25 busy
    // on average in the bench's burst) — and not below the concurrency, which Graphile Worker warns about.
    maxPoolSize: WORKER_CONCURRENCY + 4,
    noHandleSignals: true,
    pollInterval: 1000,
    taskList: taskList(deps, stopSending.signal),
    crontab: CRONTAB,
    logger: new Logger((scope) => (level, message) => {
      if (level === 'error' || level === 'warning')
        console.error(`[worker${scope.taskIdentifier ? `:${scope.taskIdentifier}` : ''}] ${message}`);
    }),
    preset: { worker: { localQueue: { size: LOCAL_QUEUE_SIZE }, completeJobBatchDelay: 0, failJobBatchDelay: 0 } },
  });
  watchFetches(runner, queueStatistics(deps.sql, LOCAL_QUEUE_SIZE, log));
  const ended = runner.promise
    .then(
      () => reason ?? 'no reason given',
      (error: unknown) => reason ?? String(error),
    )
    .then(async (why) => {
      await (await liveness)
        ?.stop()
        .catch((error: unknown) => log(`could not end the liveness lock: ${String(error)}`));
      return why;
    });
  return { runner, poolId, startedAt, ended };
}
