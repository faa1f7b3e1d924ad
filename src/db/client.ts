// One postgres.js pool per process and the drizzle instance on it.
import { drizzle } from 'drizzle-orm/postgres-js';
import postgres from 'postgres';
import * as schema from './schema/index.ts';

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

function preparing(sql: postgres.Sql): postgres.Sql {
  return new Proxy(sql, {
    get(target, property, receiver) {
      if (property === 'unsafe') return preparedUnsafe(target);
      if (property === 'begin') {
        return (work: (tx: postgres.TransactionSql) => unknown) => target.begin((tx) => work(preparingTransaction(tx)));
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
  const db = drizzle(preparing(sql), { schema });
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
