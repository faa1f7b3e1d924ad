// Graphile Worker's runner, kept running. The runner ends on its own when its pool gives up (`Failed to complete
// jobs` after its connection was terminated, and the like): the process would keep running with no worker. A new
// runner (a new pool, with its own liveness lock) then starts after a backoff. Each runner holds a liveness lock
// (liveness.ts), keeps the job table's statistics true (queue-statistics.ts) and unlocks the jobs whose fetch it
// lost (lost-fetches.ts).
import { EventEmitter } from 'node:events';
import { type Runner, type RunnerOptions, run, type WorkerEvents } from 'graphile-worker';
import type { Sql } from '../db/client.ts';
import { keepAlive, type Liveness } from './liveness.ts';
import { unlockLostFetches } from './lost-fetches.ts';
import { queueStatistics, watchFetches } from './queue-statistics.ts';

/** A runner that ended on its own is replaced after RESTART_MIN_MS, doubling up to RESTART_MAX_MS; back to the
 * minimum once a runner has run RESTART_RESET_AFTER_MS. */
export const RESTART_MIN_MS = 1_000;
const RESTART_MAX_MS = 30_000;
const RESTART_RESET_AFTER_MS = 60_000;

export type SupervisedRunners = { stop(): Promise<void> };

export type RunnerSetup = {
  connectionString: string;
  /** The service's pool: liveness sweeps, statistics, unlocking the jobs of a runner that ended. */
  sql: Sql;
  /** The runner's fetch size (its local queue size): a full fetch means a backlog. */
  fetchSize: number;
  /** A new runner's options; `stop` aborts when that runner starts to stop (its tasks then start no new work). */
  options(events: WorkerEvents, stop: AbortSignal): RunnerOptions;
};

/** Runs the jobs until `stop`, replacing a runner that ended on its own. */
export async function superviseRunners(setup: RunnerSetup, restartMinMs = RESTART_MIN_MS): Promise<SupervisedRunners> {
  const log = (line: string) => console.error(`[worker] ${line}`);
  let stopping = false;
  let delay = restartMinMs;
  let restart: NodeJS.Timeout | undefined;
  // Pools of this process that ended with jobs perhaps still locked: unlocked as soon as the database answers.
  // When it is down (the pool ended because of that), they are unlocked once a new runner has started, not
  // after the liveness sweep's minute and a half.
  const dead = new Set<string>();
  const unlockDead = async (): Promise<string> => {
    const pools = [...dead];
    if (pools.length === 0) return '';
    return setup.sql`select graphile_worker.force_unlock_workers(${setup.sql.array(pools)})`.then(
      () => {
        for (const pool of pools) dead.delete(pool);
        return `the jobs of ${pools.length === 1 ? 'its pool' : `${pools.length} ended pools`} were unlocked`;
      },
      (error: unknown) => `could not unlock the jobs of ended pools yet: ${String(error)}`,
    );
  };
  const watch = async ({ poolId, startedAt, ended }: Running) => {
    const reason = await ended;
    if (stopping) return;
    // Its pool died in this process and is done (its tasks ended, or were failed by a forceful shutdown, which
    // queues them again anyway): the jobs it still holds locked (the ones it could not complete) run again now,
    // not after the sweep's minute, which is for pools of processes that may still be alive.
    if (poolId) dead.add(poolId);
    const unlocked = await unlockDead();
    again(`the runner ended (${reason})${unlocked && `; ${unlocked}`}`, Date.now() - startedAt);
  };
  const started = async (running: Running) => {
    if (dead.size > 0) log(`a new runner started; ${await unlockDead()}`);
    return watch(running);
  };
  const again = (why: string, ranMs: number) => {
    if (stopping) return; // `stop` came while the jobs were unlocked
    if (ranMs >= RESTART_RESET_AFTER_MS) delay = restartMinMs;
    log(`${why}; a new runner starts in ${delay} ms`);
    restart = setTimeout(() => {
      current = runOnce(setup, log);
      current.then(started, (error: unknown) => again(`could not start a runner (${String(error)})`, 0));
    }, delay);
    delay = Math.min(delay * 2, RESTART_MAX_MS);
  };
  let current = runOnce(setup, log);
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

async function runOnce(setup: RunnerSetup, log: (line: string) => void): Promise<Running> {
  const { connectionString, sql } = setup;
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
    liveness = keepAlive(connectionString, sql, workerPool.id, log).catch((error: unknown) => {
      log(`could not take the liveness lock: ${String(error)}`);
      return undefined;
    });
  });
  let runner: Runner;
  try {
    runner = await run(setup.options(events, stopSending.signal));
  } catch (error) {
    // A runner that could not start (the database out of reach) holds no liveness connection either.
    await (await liveness)?.stop().catch(() => {});
    throw error;
  }
  watchFetches(runner, queueStatistics(sql, setup.fetchSize, log));
  const lost = poolId ? unlockLostFetches(runner, sql, poolId, log) : undefined;
  const ended = runner.promise
    .then(
      () => reason ?? 'no reason given',
      (error: unknown) => reason ?? String(error),
    )
    .then(async (why) => {
      lost?.stop();
      await (await liveness)
        ?.stop()
        .catch((error: unknown) => log(`could not end the liveness lock: ${String(error)}`));
      return why;
    });
  return { runner, poolId, startedAt, ended };
}
