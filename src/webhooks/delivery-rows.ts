// The delivery and endpoint rows as the step-by-step paths read and change them (a failure's recording, a
// delivery settled without sending), inside the caller's tenant transaction.
import { and, eq, sql } from 'drizzle-orm';
import { webhookDeliveries, webhookEndpoints } from '../db/schema/index.ts';
import type { Tx } from '../db/tenant.ts';
import type { EndpointRow } from './send.ts';

export type DeliveryRow = typeof webhookDeliveries.$inferSelect;

export async function findDelivery(
  tx: Tx,
  companyId: string,
  id: string,
  lock = false,
): Promise<DeliveryRow | undefined> {
  const query = tx
    .select()
    .from(webhookDeliveries)
    .where(and(eq(webhookDeliveries.companyId, companyId), eq(webhookDeliveries.id, id)));
  const [row] = lock ? await query.for('update') : await query;
  return row;
}

export async function findEndpoint(
  tx: Tx,
  companyId: string,
  id: string,
  lock = false,
): Promise<EndpointRow | undefined> {
  const query = tx
    .select()
    .from(webhookEndpoints)
    .where(and(eq(webhookEndpoints.companyId, companyId), eq(webhookEndpoints.id, id)));
  const [row] = lock ? await query.for('update') : await query;
  return row;
}

export async function markDelivery(
  tx: Tx,
  id: string,
  companyId: string,
  values: Partial<typeof webhookDeliveries.$inferInsert>,
) {
  await tx
    .update(webhookDeliveries)
    .set({ ...values, updatedAt: sql`app_now()` })
    .where(and(eq(webhookDeliveries.companyId, companyId), eq(webhookDeliveries.id, id)));
}

/** A timestamp as milliseconds, whichever way it was read (the raw statements' Dates, drizzle's strings). */
export const timeOf = (at: Date | string | null): number | null => (at === null ? null : new Date(at).getTime());
