// One postgres.js pool per process and the drizzle instance on it.
import { drizzle } from 'drizzle-orm/postgres-js';
import postgres from 'postgres';
import { CommitOutcomeUnknown, hasErrorCode, isConnectionLost } from './errors.ts';

/** The SQLSTATE of a statement refused because an earlier one aborted its transaction. */
const IN_FAILED_TRANSACTION = new Set(['25P02']);

export type Sql = postgres.Sql;
export type Db = ReturnType<typeof createDb>['db'];

/**
 * Limits of the service's sessions, so that nothing holds a connection of a pool (or the locks it took) for
 * ever: a statement stuck behind a lock or a runaway query fails after `statementTimeoutMs` (the request answers
 * 503 service_unavailable and the connection is free again), a transaction a bug left open ends after
 * `idleInTransactionMs`. The slowest statements of the API benchmark (a customer search over 200 000 rows) take about 2 s. Maintenance
 * that may take longer (the retention purges) lifts the statement limit for its own transaction.
 */
export type SessionLimits = { statementTimeoutMs: number; idleInTransactionMs: number };
export const SESSION_LIMITS: SessionLimits = { statementTimeoutMs: 30_000, idleInTransactionMs: 60_000 };

const limitParameters = (limits: SessionLimits) => ({
  statement_timeout: limits.statementTimeoutMs,
  idle_in_transaction_session_timeout: limits.idleInTransactionMs,
});

/**
 * drizzle sends every statement unprepared (postgres.js `unsafe` with `prepare: false`), so PostgreSQL parses
 * and plans it again on every request. Its texts are few (built by code), so each connection prepares each
 * once. PostgreSQL re-plans a prepared statement by itself when the tables or the role it was planned for
 * change (row-level security is among a plan's dependencies), and postgres.js prepares again after a schema
 * change invalidated one.
 */
const preparedUnsafe =
  (client: postgres.Sql | postgres.TransactionSql) =>
  (text: string, params?: postgres.ParameterOrJSON<never>[], options?: postgres.UnsafeQueryOptions) =>
    client.unsafe(text, params, { ...options, prepare: true });

/** A transaction's client that prepares, and so do its savepoints' (drizzle's nested transactions). */
function preparingTransaction(tx: postgres.TransactionSql): postgres.TransactionSql {
  return new Proxy(tx, {
    get(target, property, receiver) {
      if (property === 'unsafe') return preparedUnsafe(target);
      if (property === 'savepoint') {
        return (work: (savepoint: postgres.TransactionSql) => unknown) =>
          target.savepoint((savepoint) => work(preparingTransaction(savepoint)));
      }
      return Reflect.get(target, property, receiver);
    },
  });
}

type Work = (tx: postgres.TransactionSql) => unknown;

/** Set on a pipelined transaction's client (and its savepoints'): its statements are awaited by its COMMIT. */
export const COMMIT_AWAITS_STATEMENTS = Symbol('commit awaits statements');

/**
 * A transaction whose BEGIN does not wait for its answer, and whose COMMIT follows its last statements without
 * waiting for theirs. postgres.js's `begin` awaits BEGIN before it runs the work, a round trip of its own for
 * every transaction; here BEGIN is handed to a reserved connection and the work's first statements (withTenant's
 * tenant setting among them) follow it in the same write. PostgreSQL runs them in order, so they are inside the
 * transaction as before. Statements whose answers the work does not need (an event, a job, a history line: see
 * sendUntilCommit in tenant.ts) are sent without being awaited and COMMIT follows them in the same write: every
 * statement on the connection is watched, and a transaction one of them aborted answers ROLLBACK to COMMIT; that
 * statement's own error is then thrown, as postgres.js's `begin` throws it. Savepoints (drizzle's nested
 * transactions) are awaited and rolled back to on a failure.
 */
async function pipelinedBegin(pool: postgres.Sql, work: Work): Promise<unknown> {
  const reserved = await pool.reserve();
  const failures: unknown[] = [];
  let lost = false;
  try {
    const begun = reserved`begin`.execute();
    // Awaited below: a BEGIN refused meanwhile must not count as an unhandled rejection.
    begun.catch(() => {});
    let result: unknown;
    try {
      result = await work(preparingTransaction(onReserved(reserved, failures)));
    } catch (error) {
      await begun.catch(() => {});
      if (isConnectionLost(error) || failures.some(isConnectionLost)) {
        // No transaction is left to roll back, and the connection is not given back: its socket's close gives it
        // back to the pool (postgres.js's onclose). Released now, a socket that failed but has not yet closed went
        // to the next request (which then failed); sent a ROLLBACK, a connection already connecting again for the
        // next request wrote it ahead of that new session's startup (which then failed).
        lost = true;
        throw error;
      }
      await reserved`rollback`.catch(() => {});
      // A statement after one that failed unawaited fails only because the transaction was aborted.
      throw hasErrorCode(error, IN_FAILED_TRANSACTION) && failures.length > 0 ? failures[0] : error;
    }
    const committing = reserved`commit`.execute();
    committing.catch(() => {});
    let committed: postgres.RowList<postgres.Row[]>;
    try {
      await begun;
      committed = await committing;
    } catch (error) {
      // COMMIT was handed to the connection (in the same write as the work's last statements): a connection lost
      // before its answer leaves the outcome unknown. PostgreSQL may have committed, so "nothing happened" would
      // be a lie that makes a client's plain retry a duplicate.
      if (!isConnectionLost(error)) throw error;
      lost = true;
      throw new CommitOutcomeUnknown(error);
    }
    if (committed.command !== 'COMMIT') {
      throw failures[0] ?? new Error(`transaction rolled back at COMMIT (${committed.command})`);
    }
    return result;
  } finally {
    if (!lost) reserved.release();
  }
}

/**
 * The reserved connection as a transaction's client: every statement handed to it now (so they run in the order
 * they were made) and its failure kept for COMMIT, its savepoints numbered as postgres.js numbers them.
 */
function onReserved(reserved: postgres.ReservedSql, failures: unknown[]): postgres.TransactionSql {
  let savepoints = 0;
  const savepoint = async (work: Work) => {
    const name = `s${savepoints++}`;
    // Not waited for: the work's statements follow it on the connection (a failure of it aborts them too).
    unsafe(`savepoint ${name}`);
    try {
      return await work(transaction);
    } catch (error) {
      await reserved.unsafe(`rollback to ${name}`);
      throw error;
    }
  };
  const unsafe = (...args: Parameters<postgres.Sql['unsafe']>) => {
    const query = reserved.unsafe(...args);
    // `then` sends the query (postgres.js sends a query once something waits for it); a caller that awaits it
    // sees its failure as well.
    query.then(undefined, (error: unknown) => failures.push(error));
    return query;
  };
  const transaction = new Proxy(reserved, {
    get: (target, property, receiver) => {
      if (property === 'savepoint') return savepoint;
      if (property === 'unsafe') return unsafe;
      if (property === COMMIT_AWAITS_STATEMENTS) return true;
      return Reflect.get(target, property, receiver);
    },
  }) as unknown as postgres.TransactionSql;
  return transaction;
}

function preparing(sql: postgres.Sql): postgres.Sql {
  return new Proxy(sql, {
    get(target, property, receiver) {
      if (property === 'unsafe') return preparedUnsafe(target);
      if (property === 'begin') {
        return (options: string | Work, work?: Work) =>
          typeof options === 'function'
            ? pipelinedBegin(target, options)
            : target.begin(options, (tx) => (work as Work)(preparingTransaction(tx)));
      }
      return Reflect.get(target, property, receiver);
    },
  });
}

/**
 * Seconds before a pool's connection tries to connect again after failing: doubling from 50 ms up to 1 s. The
 * driver's default grows to 20 s (3^attempts / 100, the attempts of the whole pool), so after a database restart
 * of a few seconds the requests waited for that instead of being answered 503 at once, and the service came
 * back seconds after the database did (npm run drill:db-restart: requests past a 10 s client timeout).
 */
export const reconnectDelaySeconds = (attempts: number) =>
  Math.min(0.05 * 2 ** attempts, 1) * (0.5 + Math.random() / 2);

export function createDb(url: string, max = 10, limits = SESSION_LIMITS) {
  const sql = postgres(url, {
    max,
    backoff: reconnectDelaySeconds,
    onnotice: () => {},
    // Timestamps stay strings where a cursor needs every digit; drizzle maps them per column.
    connection: { application_name: 'crm-service', ...limitParameters(limits) },
  });
  // Without the schema: drizzle then builds no relational query builder per table for every transaction and
  // savepoint (its PgDatabase constructor was 2.4–3.1% of a write's CPU, issue 50); `db.query` is not used.
  const db = drizzle(preparing(sql));
  return { sql, db };
}

/**
 * A pool whose sessions run as app_api from the start (the `role` startup parameter), for readAsTenant: its
 * statements are planned as app_api, so row-level security is part of every plan and prepared statements
 * (planned once per connection) can be used. Nothing on it can read a row without app.company_id set.
 */
export function createTenantPool(url: string, max = 10, limits = SESSION_LIMITS): Sql {
  return postgres(url, {
    max,
    backoff: reconnectDelaySeconds,
    onnotice: () => {},
    connection: { application_name: 'crm-service', role: 'app_api', ...limitParameters(limits) },
  });
}
