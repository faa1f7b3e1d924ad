// SQL of webhook endpoints; every function takes the tenant transaction first.
import { and, count, eq, inArray, type SQL, sql } from 'drizzle-orm';
import { lockRecord, takeChangeTimeAfterLock } from '../../db/change-time.ts';
import { byRecordKey, recordReader } from '../../db/record-reads.ts';
import { webhookAttempts, webhookDeliveries, webhookEndpoints } from '../../db/schema/index.ts';
import { sendUntilCommit, type Tenant, type Tx } from '../../db/tenant.ts';
import { type Metadata, metadataFilterOnRows } from '../../http/metadata.ts';
import { type PageRequest, readPage } from '../../http/pagination.ts';
import { prefixedId } from '../../ids.ts';
import type { EndpointRow } from './serialize.ts';

export const MAX_ENDPOINTS_PER_COMPANY = 10;

type Updatable = Pick<
  typeof webhookEndpoints.$inferInsert,
  'url' | 'description' | 'events' | 'scopes' | 'status' | 'disabledReason' | 'disabledAt' | 'failingSince' | 'metadata'
>;
/** Values or SQL expressions (app_now(), so a change's times equal its updated_at). */
export type EndpointFields = { [K in keyof Updatable]?: Updatable[K] | SQL };

const byId = (companyId: string, id: string) =>
  and(eq(webhookEndpoints.companyId, companyId), eq(webhookEndpoints.id, id));

/** A page of the company's endpoints: one statement as the tenant in one round trip. */
export function listEndpoints(
  tenant: Tenant,
  page: PageRequest,
  filters: { status?: 'active' | 'disabled'; metadata?: Record<string, string> },
) {
  const conditions: (SQL | undefined)[] = [eq(webhookEndpoints.companyId, tenant.companyId)];
  if (filters.status) conditions.push(eq(webhookEndpoints.status, filters.status));
  // At most ten endpoints per company: the filter is checked on the rows, without an index.
  conditions.push(metadataFilterOnRows(webhookEndpoints.metadata, filters.metadata));
  return readPage(
    tenant,
    webhookEndpoints,
    page,
    { sorts: { created_at: webhookEndpoints.createdAt }, id: webhookEndpoints.id },
    conditions,
  );
}

/** The endpoint: one statement as the tenant in one round trip. */
export const readEndpoint: (tenant: Tenant, id: string) => Promise<EndpointRow | undefined> = recordReader(
  webhookEndpoints,
  byRecordKey(webhookEndpoints),
);

/**
 * The endpoint locked until the transaction ends, so read-check-write sequences cannot interleave. The change time
 * is taken after the lock in the same statement (as in lockCustomer), so a write sent right behind it is stamped
 * with it.
 */
export function lockEndpoint(tx: Tx, companyId: string, id: string): Promise<EndpointRow | undefined> {
  return lockRecord(tx, webhookEndpoints, companyId, id);
}

/**
 * A new endpoint, and the number of the company's endpoints before it, counted under a per-company lock held until
 * commit: two concurrent creations cannot both see 9 and make 11. (An advisory lock, because a row lock on the
 * company would also queue unrelated writers of the company row.) Recording an event takes it shared (migration
 * 0019). The lock, the count, the change time (after the lock: see the handler) and the insert are sent together,
 * in that order: one round trip. The caller refuses a creation past the limit, which undoes the insert.
 */
export async function insertEndpointCounted(
  tx: Tx,
  companyId: string,
  fields: {
    url: string;
    description: string | null;
    events: string[];
    scopes: string[];
    secret: string;
    metadata: Metadata;
  },
): Promise<{ before: number; row: EndpointRow }> {
  // Each handed to the connection now (`then`), so they run in this order.
  const locking = sendUntilCommit(
    tx,
    tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`webhook_endpoints:${companyId}`}, 0))`),
  );
  const counting = tx
    .select({ n: count() })
    .from(webhookEndpoints)
    .where(eq(webhookEndpoints.companyId, companyId))
    .then((rows) => rows[0]?.n ?? 0);
  const timing = takeChangeTimeAfterLock(tx);
  const inserting = tx
    .insert(webhookEndpoints)
    .values({ ...fields, companyId, id: prefixedId('we') })
    .returning()
    .then((rows) => rows[0]);
  const [, before, , row] = await Promise.all([locking, counting, timing, inserting]);
  if (!row) throw new Error('webhook endpoint: the insert returned no row');
  return { before, row };
}

/**
 * A PATCH of the description only, sent right behind lockEndpoint (same round trip): written, with the next version
 * at the lock's change time, where the version is one of `expected` (undefined: any) and the description differs.
 * Undefined when nothing was written: not found, another version, or nothing to change — the locked row tells which.
 */
export async function describeEndpointIfChanged(
  tx: Tx,
  companyId: string,
  id: string,
  description: string | null,
  expected: ReadonlySet<number> | undefined,
): Promise<EndpointRow | undefined> {
  // An If-Match that names no version: nothing this statement could update.
  if (expected?.size === 0) return undefined;
  const [row] = await tx
    .update(webhookEndpoints)
    .set({ description, updatedAt: sql`app_now()`, version: sql`${webhookEndpoints.version} + 1` })
    .where(
      and(
        byId(companyId, id),
        expected === undefined ? undefined : inArray(webhookEndpoints.version, [...expected]),
        sql`${webhookEndpoints.description} is distinct from ${description}`,
      ),
    )
    .returning();
  return row;
}

/** Applies the changes and moves the version on; undefined when the row is gone. */
export async function updateEndpoint(
  tx: Tx,
  companyId: string,
  id: string,
  fields: EndpointFields,
): Promise<EndpointRow | undefined> {
  const [row] = await tx
    .update(webhookEndpoints)
    .set({ ...fields, updatedAt: sql`app_now()`, version: sql`${webhookEndpoints.version} + 1` })
    .where(byId(companyId, id))
    .returning();
  return row;
}

/**
 * A new secret; the one that was current keeps signing until `app_now() + overlap` (null overlap: not at
 * all). An older previous secret is dropped, so at most two secrets ever sign.
 */
export async function rotateSecret(
  tx: Tx,
  companyId: string,
  id: string,
  secret: string,
  overlapSeconds: number | null,
): Promise<EndpointRow | undefined> {
  const [row] = await tx
    .update(webhookEndpoints)
    .set({
      secret,
      previousSecret: overlapSeconds === null ? null : sql`${webhookEndpoints.secret}`,
      previousSecretExpiresAt:
        overlapSeconds === null ? null : sql`app_now() + make_interval(secs => ${overlapSeconds})`,
      updatedAt: sql`app_now()`,
      version: sql`${webhookEndpoints.version} + 1`,
    })
    .where(byId(companyId, id))
    .returning();
  return row;
}

/** Disabling stops everything on its way: pending deliveries become failed (recoverable later). */
export async function failPendingDeliveries(tx: Tx, companyId: string, endpointId: string): Promise<void> {
  await tx
    .update(webhookDeliveries)
    .set({ status: 'failed', nextAttemptAt: null, updatedAt: sql`app_now()` })
    .where(
      and(
        eq(webhookDeliveries.companyId, companyId),
        eq(webhookDeliveries.endpointId, endpointId),
        eq(webhookDeliveries.status, 'pending'),
      ),
    );
}

/**
 * Every delivery of the endpoint and their attempts. A delivery job still queued then finds nothing and ends
 * (deliver() answers 'gone'), so nothing more is sent.
 */
export async function deleteDeliveryLog(tx: Tx, companyId: string, endpointId: string): Promise<void> {
  // Attempts through their deliveries: the indexed path (webhook_deliveries_endpoint, webhook_attempts_delivery).
  const deliveries = tx
    .select({ id: webhookDeliveries.id })
    .from(webhookDeliveries)
    .where(and(eq(webhookDeliveries.companyId, companyId), eq(webhookDeliveries.endpointId, endpointId)));
  await tx
    .delete(webhookAttempts)
    .where(and(eq(webhookAttempts.companyId, companyId), inArray(webhookAttempts.deliveryId, deliveries)));
  await tx
    .delete(webhookDeliveries)
    .where(and(eq(webhookDeliveries.companyId, companyId), eq(webhookDeliveries.endpointId, endpointId)));
}

export async function deleteEndpoint(tx: Tx, companyId: string, id: string): Promise<void> {
  await tx.delete(webhookEndpoints).where(byId(companyId, id));
}
