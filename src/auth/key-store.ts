// Looks up API keys by hash, with an in-process cache that every API process empties on Postgres
// NOTIFY (api_keys_changed, companies_changed), so a revocation, a suspension or new rate limits count on the
// next request everywhere.
import type { Sql } from '../db/client.ts';
import { isScope, type Scope } from './scopes.ts';

export type KeyRecord = {
  id: string;
  name: string;
  prefix: string;
  scopes: Scope[];
  allowedIps: string[];
  expiresAt: Date | null;
  revokedAt: Date | null;
  createdAt: Date;
  company: {
    id: string;
    name: string;
    language: string;
    /** The company's country (ISO 3166 alpha-2), the default region of its customers' phone numbers. */
    country: string | null;
    features: string[];
    suspended: boolean;
    subscriptionActive: boolean;
    /** Per-key limits by window name (`minute`, `hour`) the operator set; null: the default. */
    rateLimits: { minute: number | null; hour: number | null };
  };
};

const TTL_MS = 60_000;
/**
 * How long a cached key still answers for an address whose lookups are refused (its failed logins used up). The
 * TTL is there for a change whose NOTIFY was missed; past twice the TTL such a key is refused like any other.
 */
const STALE_LIMIT_MS = 2 * TTL_MS;

// The pool is shared with drizzle, which makes postgres.js return timestamps as text.
const toDate = (value: string | Date | null): Date | null => (value === null ? null : new Date(value));

/** Every listening KeyStore of this process: a change made here counts at once, before its NOTIFY arrives. */
const stores = new Set<KeyStore>();

/** Drops a changed key from the caches of this process (other processes learn of it by NOTIFY). */
export function forgetKey(hash: Buffer): void {
  for (const store of stores) store.forget(hash.toString('hex'));
}

/** Drops a changed company's keys from the caches of this process (suspension, subscription, features). */
export function forgetCompany(companyId: string): void {
  for (const store of stores) store.forgetCompany(companyId);
}

export class KeyStore {
  private readonly cache = new Map<string, { record: KeyRecord; loadedAt: number }>();
  private unlisten: Array<() => Promise<void>> = [];
  /** Counts invalidations, so a lookup that raced with one does not cache what it read before it. */
  private generation = 0;

  constructor(private readonly sql: Sql) {}

  /** Subscribes to invalidations; call once per process before serving. */
  async listen(): Promise<void> {
    // Listening again after its connection was lost (a restart, a failover, a terminated backend), the store
    // forgets everything: a change announced while nobody listened would otherwise count only after TTL_MS.
    const relistened = () => this.forgetAll();
    const keys = await this.sql.listen('api_keys_changed', (hashHex) => this.forget(hashHex), relistened);
    const companies = await this.sql.listen(
      'companies_changed',
      (companyId) => this.forgetCompany(companyId),
      relistened,
    );
    this.unlisten = [keys.unlisten, companies.unlisten];
    stores.add(this);
  }

  async close(): Promise<void> {
    stores.delete(this);
    await Promise.all(this.unlisten.map((u) => u()));
  }

  forgetAll(): void {
    this.generation++;
    this.cache.clear();
  }

  forgetCompany(companyId: string): void {
    this.generation++;
    for (const [hash, entry] of this.cache) if (entry.record.company.id === companyId) this.cache.delete(hash);
  }

  forget(hashHex: string): void {
    this.generation++;
    this.cache.delete(hashHex);
  }

  /** The key with this hash; `beforeLoad` runs (and may throw) only when the database must be asked. */
  async find(hash: Buffer, beforeLoad?: () => Promise<void>): Promise<KeyRecord | undefined> {
    const hex = hash.toString('hex');
    const cached = this.cache.get(hex);
    if (cached && Date.now() - cached.loadedAt < TTL_MS) return cached.record;
    try {
      await beforeLoad?.();
    } catch (refused) {
      // A key this process knows (its changes arrive by NOTIFY) is judged from what it knew rather than refused,
      // but not for ever: a revocation whose NOTIFY was missed must count after all (STALE_LIMIT_MS).
      if (cached && Date.now() - cached.loadedAt < STALE_LIMIT_MS) return cached.record;
      throw refused;
    }
    const generation = this.generation;
    const record = await this.load(hash);
    // A change committed while the row was read may have been announced already: keep nothing then.
    if (record && generation === this.generation) this.cache.set(hex, { record, loadedAt: Date.now() });
    else this.cache.delete(hex);
    return record;
  }

  private async load(hash: Buffer): Promise<KeyRecord | undefined> {
    // Runs with the service's own rights: authentication happens before a tenant is known.
    const [row] = await this.sql`
      select k.id, k.name, k.prefix, k.scopes, k.allowed_ips, k.expires_at, k.revoked_at, k.created_at,
             c.id as company_id, c.name as company_name, c.language, c.country, c.features,
             c.suspended_at is not null as suspended, c.subscription_active,
             c.rate_limit_per_minute, c.rate_limit_per_hour
      from api_keys k join companies c on c.id = k.company_id
      where k.key_hash = ${hash}`;
    if (!row) return undefined;
    return {
      id: row.id,
      name: row.name,
      prefix: row.prefix,
      scopes: (row.scopes as string[]).filter(isScope),
      allowedIps: row.allowed_ips,
      expiresAt: toDate(row.expires_at),
      revokedAt: toDate(row.revoked_at),
      createdAt: new Date(row.created_at),
      company: {
        id: row.company_id,
        name: row.company_name,
        language: row.language,
        country: row.country,
        features: row.features,
        suspended: row.suspended,
        subscriptionActive: row.subscription_active,
        rateLimits: { minute: row.rate_limit_per_minute, hour: row.rate_limit_per_hour },
      },
    };
  }
}
