// Every request's work runs in withTenant: one transaction as the non-owner role app_api with
// app.company_id set, so row-level security confines it to one company whatever its queries say.
// Single-statement reads by key may take readAsTenant instead: the same isolation in one round trip.
import { getTableColumns, sql } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type postgres from 'postgres';
import { COMMIT_AWAITS_STATEMENTS, type Db, type Sql } from './client.ts';
import { prepared } from './statements.ts';
import { retryingConflicts } from './transient.ts';

export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

/** One company's way into the database, for a request's handler or a job: every read and write goes through it. */
export type Tenant = {
  readonly companyId: string;
  /** One transaction as the tenant (see withTenant). */
  transaction<T>(work: (tx: Tx) => Promise<T>): Promise<T>;
  /** One read statement as the tenant in one round trip (see readAsTenant). */
  read<T extends PgTable>(table: T, statement: Statement): Promise<T['$inferSelect'][]>;
  /** The same, its rows as the driver gives them (keyed by column name), for a statement that reads more than one table's columns. */
  readRows(statement: Statement): Promise<DriverRow[]>;
};

/** A statement's text with its parameters ($1, $2, …), as drizzle's toSQL() gives it. */
export type Statement = { sql: string; params: unknown[] };
/** A row as postgres.js gives it: keyed by the statement's column names. */
export type DriverRow = Record<string, unknown>;

export function tenantOf(pools: { db: Db; tenantSql: Sql }, companyId: string): Tenant {
  return new TenantAccess(pools, companyId);
}

/**
 * Tenant as a class: made for every request, and its methods on the prototype are not three new closures each
 * time (with tsx's name-keeping helper around each: tenantOf was 1.5% of a GET's CPU, issue 50).
 */
class TenantAccess implements Tenant {
  constructor(
    private readonly pools: { db: Db; tenantSql: Sql },
    readonly companyId: string,
  ) {}

  transaction<T>(work: (tx: Tx) => Promise<T>): Promise<T> {
    return withTenant(this.pools.db, this.companyId, work);
  }

  read<T extends PgTable>(table: T, statement: Statement): Promise<T['$inferSelect'][]> {
    return readAsTenant(this.pools.tenantSql, this.companyId, table, statement);
  }

  readRows(statement: Statement): Promise<DriverRow[]> {
    return readRowsAsTenant(this.pools.tenantSql, this.companyId, statement);
  }
}

/**
 * `work` runs again, in a new transaction, when PostgreSQL aborted the first for a deadlock or a serialization
 * failure (see transient.ts): it must have no effect outside the transaction.
 */
export function withTenant<T>(db: Db, companyId: string, work: (tx: Tx) => Promise<T>): Promise<T> {
  return retryingConflicts(() =>
    db.transaction(async (tx) => {
      // Sent without waiting for its answer: the work's first statement follows on the same connection and runs
      // after it, as the tenant, and COMMIT waits for it (sendUntilCommit). Were the setting refused, the
      // transaction is aborted and its own error is the one thrown.
      await sendUntilCommit(tx, actAsTenant(tx, companyId));
      return work(tx);
    }),
  );
}

/**
 * The rest of the transaction runs as app_api for `companyId` (e.g. after creating the company as the owner).
 * The statement is handed to the connection now, before this returns (`then` is called here rather than by an
 * `await` a microtask later), so every statement the caller issues afterwards is queued behind it.
 */
export function actAsTenant(tx: Tx, companyId: string): Promise<void> {
  return TENANT_SETTING.run(tx, { companyId }).then(() => undefined);
}

const TENANT_SETTING = prepared<{ companyId: string }>(
  (p) => sql`select set_config('role', 'app_api', true), set_config('app.company_id', ${p.companyId}, true)`,
);

/**
 * A statement of the transaction whose answer the work does not need (an event, a job, a history line, the change
 * time): handed to the connection now, not waited for. In a transaction of withTenant its COMMIT follows it in the
 * same write, and a failure of it fails the transaction at COMMIT with its own error (src/db/client.ts); one round
 * trip less per such statement. Elsewhere (a transaction with options, the owner's) it is awaited here. A native
 * promise of the statement (an async function's) may be awaited once committed, for the answer alone; never a
 * drizzle query itself, which runs again on every `then`.
 */
export function sendUntilCommit(tx: Tx, statement: PromiseLike<unknown>): Promise<void> {
  const client = (tx as unknown as { session: { client: Record<symbol, unknown> } }).session.client;
  if (client[COMMIT_AWAITS_STATEMENTS] !== true) return Promise.resolve(statement).then(() => undefined);
  // `then` sends it; its failure is the transaction's (kept by the connection), not an unhandled rejection here.
  statement.then(undefined, () => {});
  return Promise.resolve();
}

/** A statement of a transaction, built and sent when its turn comes (a drizzle query is lazy: sent on its `then`). */
export type Step<T> = () => PromiseLike<T>;

/**
 * Statements of one transaction sent in the order listed, none waiting for the answer of another: each step is
 * called, and its statement handed to the connection (`then`, synchronously), only after the step before it was.
 * The list is the order on the wire whatever a step is: a lazy drizzle query, or a function that sends at once
 * (a lock). Promise.all over statements built beforehand cannot promise that: it calls a query's `then` a turn
 * later, after any statement sent meanwhile (a task's links once went before the task that way). Answers each
 * step's result in order; fails with the first failure, once every statement was sent.
 */
export function inOrder<const T extends readonly Step<unknown>[]>(
  ...steps: T
): Promise<{ -readonly [K in keyof T]: Awaited<ReturnType<T[K]>> }> {
  const sent = steps.map((step) => {
    const statement = step();
    return new Promise((resolve, reject) => {
      statement.then(resolve, reject);
    });
  });
  return Promise.all(sent) as Promise<{ -readonly [K in keyof T]: Awaited<ReturnType<T[K]>> }>;
}

/**
 * One read statement as the tenant, in one round trip and one prepared statement, on a pool whose sessions
 * are app_api (createTenantPool: row-level security is planned into every statement). The tenant is set by
 * the statement itself, before its rows are read:
 *
 *   select q.* from (select set_config('app.company_id', $1, true) as tenant) t
 *   cross join lateral (select * from (<statement>) s where t.tenant is not null offset 0) q
 *
 * The lateral part depends on `t`, so it runs only after the setting is made, and `offset 0` keeps it a
 * subquery of its own (the policy's check stays inside it). The setting is local to the statement's implicit
 * transaction (each statement is one, with its own Sync), so no other statement ever sees it; if anything
 * ran in another order, the policy would see no tenant and return nothing — never another company's rows.
 * Rows come back as the table's rows (drizzle's column mapping).
 */
export async function readAsTenant<T extends PgTable>(
  tenantSql: Sql,
  companyId: string,
  table: T,
  statement: Statement,
): Promise<T['$inferSelect'][]> {
  return tableRows(table, await readRowsAsTenant(tenantSql, companyId, statement));
}

/** readAsTenant's statement, its rows as the driver gives them. */
export async function readRowsAsTenant(tenantSql: Sql, companyId: string, statement: Statement): Promise<DriverRow[]> {
  return (await tenantSql.unsafe(
    tenantText(statement.sql),
    [companyId, ...statement.params] as postgres.ParameterOrJSON<never>[],
    {
      prepare: true,
    },
  )) as unknown as DriverRow[];
}

/**
 * readAsTenant's text around a statement's, kept per text: most texts are built once (statements.ts, record and
 * page readers), and renumbering their parameters with a regular expression on every read was 1.4% of a GET's
 * CPU. Emptied when full, so that texts built per request cannot grow it without bound.
 */
const TENANT_TEXTS = new Map<string, string>();

function tenantText(text: string): string {
  const known = TENANT_TEXTS.get(text);
  if (known !== undefined) return known;
  const shifted = text.replace(/\$(\d+)/g, (_, n: string) => `$${Number(n) + 1}`);
  const wrapped = `select q.* from (select set_config('app.company_id', $1::text, true) as tenant) t
    cross join lateral (select * from (${shifted}) s where t.tenant is not null offset 0) q`;
  if (TENANT_TEXTS.size >= 1024) TENANT_TEXTS.clear();
  TENANT_TEXTS.set(text, wrapped);
  return wrapped;
}

/** Driver rows as `table`'s rows: each column read from its name and mapped as drizzle maps it. */
export function tableRows<T extends PgTable>(table: T, raws: DriverRow[]): T['$inferSelect'][] {
  const columns = columnsOf(table);
  return raws.map((raw) => {
    const row: Record<string, unknown> = {};
    for (const [key, column] of columns) {
      const value = raw[column.name];
      row[key] = value === null || value === undefined ? null : column.mapFromDriverValue(value);
    }
    return row as T['$inferSelect'];
  });
}

/** A table's columns by key, listed once per table (getTableColumns copies them on every call). */
const COLUMNS = new WeakMap<PgTable, [string, PgColumn][]>();

function columnsOf(table: PgTable): [string, PgColumn][] {
  let columns = COLUMNS.get(table);
  if (!columns) {
    columns = Object.entries(getTableColumns(table));
    COLUMNS.set(table, columns);
  }
  return columns;
}
