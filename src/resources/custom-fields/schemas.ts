// The company's fields as the value checks need them, cached per process and company: a record's write reads no
// definitions. Emptied on NOTIFY custom_fields_changed (sent by every change of a definition, delivered at its
// commit) the way the key cache is (src/auth/key-store.ts), and at once in the process that made the change; a TTL
// covers a NOTIFY missed while the listening connection was down (it forgets everything when it listens again).
import type { Sql } from '../../db/client.ts';
import type { Tenant } from '../../db/tenant.ts';
import { CHANGED_CHANNEL, type FieldResource, readAllFields } from './queries.ts';
import type { CustomFieldRow } from './serialize.ts';

export type CompanyFields = Readonly<Record<FieldResource, ReadonlyMap<string, CustomFieldRow>>>;

const TTL_MS = 60_000;

class FieldCache {
  private readonly cache = new Map<string, { fields: CompanyFields; loadedAt: number }>();
  /** Counts invalidations, so a load that raced with one does not cache what it read before it. */
  private generation = 0;
  /** Whether NOTIFY reaches this cache: until it does, nothing is kept. */
  private listening = false;
  /** Settles when NOTIFY first reaches this cache (from then on a read of the definitions is kept). */
  readonly listened: Promise<void>;

  constructor(sql: Sql) {
    let listened = () => {};
    this.listened = new Promise<void>((resolve) => {
      listened = resolve;
    });
    sql
      .listen(
        CHANGED_CHANNEL,
        (companyId) => this.forget(companyId),
        () => {
          this.forgetAll();
          this.listening = true;
          listened();
        },
      )
      .catch(() => {
        this.listening = false;
      });
  }

  forget(companyId: string): void {
    this.generation++;
    this.cache.delete(companyId);
  }

  forgetAll(): void {
    this.generation++;
    this.cache.clear();
  }

  async get(tenant: Tenant): Promise<CompanyFields> {
    const cached = this.cache.get(tenant.companyId);
    if (cached && Date.now() - cached.loadedAt < TTL_MS) return cached.fields;
    const generation = this.generation;
    const rows = await readAllFields(tenant);
    const fields: Record<FieldResource, Map<string, CustomFieldRow>> = { customers: new Map(), deals: new Map() };
    for (const row of rows) fields[row.resource].set(row.key, row);
    if (this.listening && generation === this.generation) {
      this.cache.set(tenant.companyId, { fields, loadedAt: Date.now() });
    }
    return fields;
  }
}

/** One cache per pool (per process, or per test's app), listening on that pool. */
const caches = new WeakMap<Sql, FieldCache>();

const cacheOf = (sql: Sql): FieldCache => {
  let cache = caches.get(sql);
  if (!cache) {
    cache = new FieldCache(sql);
    caches.set(sql, cache);
  }
  return cache;
};

/** The company's fields by resource and key (cached). */
export function companyFields(sql: Sql, tenant: Tenant): Promise<CompanyFields> {
  return cacheOf(sql).get(tenant);
}

/**
 * Settles once the pool's cache of definitions listens (the first requests of a process read the definitions until
 * then): for a test that counts a request's round trips, which must not depend on how soon LISTEN was answered.
 */
export function fieldsCacheListening(sql: Sql): Promise<void> {
  return cacheOf(sql).listened;
}

/** After a change of the company's definitions has committed: this process's cache forgets them at once. */
export function forgetCompanyFields(sql: Sql, companyId: string): void {
  caches.get(sql)?.forget(companyId);
}
