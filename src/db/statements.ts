// Hot statements built once. drizzle builds a statement again on every call — its SQL objects, the entity checks,
// the text — which in the API cost more CPU than anything else of ours (scripts/bench/README.md, issue 50). A
// statement defined here is built the first time it runs, with placeholders where its values go; each later run
// only fills the values in, and the unchanged text is prepared once per connection by postgres.js.
import { fillPlaceholders, type Placeholder, type SQL, sql } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { drizzle } from 'drizzle-orm/postgres-js';
import type postgres from 'postgres';
import * as schema from './schema/index.ts';
import type { DriverRow, Statement as StatementText, Tenant, Tx } from './tenant.ts';

const dialect = new PgDialect();

/**
 * A drizzle database that only builds (never runs) queries, for statements written with drizzle's query builders
 * (update, insert, select): `toSQL()` of what it builds is all that is used.
 */
export const builder = drizzle.mock({ schema });

/** The placeholders of a statement's values, one per name: `p.companyId` stands for the value of `companyId`. */
export type Slots<V> = { readonly [K in keyof V & string]: Placeholder<K> };

const slots = <V>(): Slots<V> =>
  new Proxy({} as Slots<V>, { get: (_, name) => sql.placeholder(String(name)) }) as Slots<V>;

type Built = SQL | { toSQL(): StatementText };

/** Values, or in their place the placeholders of a statement built once. */
export type Slotted<V> = { [K in keyof V]: V[K] | Placeholder };

/** The placeholders of the keys `values` has (undefined ones left out), in the shape of `values`. */
export function slotsFor<V extends object>(values: V, p: Slots<Record<string, unknown>>): Slotted<V> {
  const slotted: Record<string, Placeholder> = {};
  for (const [key, value] of Object.entries(values)) if (value !== undefined) slotted[key] = p[key];
  return slotted as Slotted<V>;
}

/** The postgres.js client of a drizzle transaction: its statements go on the transaction's connection, in order. */
export const clientOf = (tx: Tx): postgres.Sql =>
  (tx as unknown as { session: { client: postgres.Sql } }).session.client;

/**
 * A statement whose text is built once, by `build` from placeholders (Slots) where its values go. Every value that
 * changes between runs must be a placeholder: a value written into the statement by `build` is the first run's
 * for ever.
 */
export class PreparedStatement<V extends Record<string, unknown>> {
  #built: StatementText | undefined;

  constructor(private readonly build: (p: Slots<V>) => Built) {}

  /** The text, and the parameters for `values` (each mapped as its column maps it where it was compared with one). */
  bind(values: V): StatementText {
    if (!this.#built) {
      const built = this.build(slots<V>());
      this.#built = 'toSQL' in built ? built.toSQL() : dialect.sqlToQuery(built);
    }
    return { sql: this.#built.sql, params: fillPlaceholders(this.#built.params, values) };
  }

  /**
   * Runs in the transaction (on its connection, after what it already sent: prepared, as its other statements), the
   * rows as the driver gives them. Sent now: `then` is called here.
   */
  run(tx: Tx, values: V): Promise<DriverRow[]> {
    const { sql: text, params } = this.bind(values);
    const query = clientOf(tx).unsafe(text, params as postgres.ParameterOrJSON<never>[]);
    return new Promise((resolve, reject) => {
      query.then((rows) => resolve(rows as unknown as DriverRow[]), reject);
    });
  }

  /** Reads as the tenant outside a transaction, in one round trip (readAsTenant). */
  read(tenant: Tenant, values: V): Promise<DriverRow[]> {
    return tenant.readRows(this.bind(values));
  }
}

/** A statement built once (PreparedStatement). */
export const prepared = <V extends Record<string, unknown>>(build: (p: Slots<V>) => Built) =>
  new PreparedStatement<V>(build);

/**
 * Statements of one kind whose text depends on a few choices of the caller (which columns a PATCH sends): each
 * shape is built once, under its key. Past `max` shapes (a bound on the memory a client's choices can take) a
 * statement is built for the run alone.
 */
export class PreparedShapes<V extends Record<string, unknown>> {
  readonly #shapes = new Map<string, PreparedStatement<V>>();

  constructor(private readonly max = 256) {}

  of(shape: string, build: (p: Slots<V>) => Built): PreparedStatement<V> {
    const known = this.#shapes.get(shape);
    if (known) return known;
    const statement = new PreparedStatement<V>(build);
    if (this.#shapes.size < this.max) this.#shapes.set(shape, statement);
    return statement;
  }
}
