// Disabling an endpoint that failed for 5 days (or whose address now resolves to an internal one): its pending
// deliveries fail with it, and the company's administrators are told by email.
import { and, eq, or, sql } from 'drizzle-orm';
import { notBefore } from '../db/change-time.ts';
import { users, webhookEndpoints } from '../db/schema/index.ts';
import type { Tx } from '../db/tenant.ts';
import { queueEmail } from '../mail/outbox.ts';
import type { EndpointRow } from './send.ts';

/** Disables the endpoint, fails its pending deliveries and tells the company's administrators. */
export async function disableEndpoint(
  tx: Tx,
  r: { companyId: string; endpoint: EndpointRow; at: Date },
  reason: 'failing_for_5_days' | 'url_not_allowed',
) {
  const [changed] = await tx
    .update(webhookEndpoints)
    .set({
      status: 'disabled',
      disabledReason: reason,
      disabledAt: r.at,
      // The worker's transaction may have waited for the endpoint behind an API change with a later time.
      updatedAt: notBefore(webhookEndpoints.updatedAt),
      version: sql`${webhookEndpoints.version} + 1`,
    })
    .where(
      and(
        eq(webhookEndpoints.companyId, r.companyId),
        eq(webhookEndpoints.id, r.endpoint.id),
        eq(webhookEndpoints.status, 'active'),
      ),
    )
    .returning({ id: webhookEndpoints.id });
  if (!changed) return;
  // Only the pending deliveries nobody holds: this transaction holds the endpoint, and concurrent attempts of
  // the same endpoint hold their delivery and wait for the endpoint (deliveries before endpoint), so waiting
  // for theirs here would deadlock. They settle their own delivery as failed once they see it disabled.
  await tx.execute(sql`
    update webhook_deliveries set status = 'failed', next_attempt_at = null, updated_at = app_now()
    where company_id = ${r.companyId} and id in (
      select id from webhook_deliveries
      where company_id = ${r.companyId} and endpoint_id = ${r.endpoint.id} and status = 'pending'
      for update skip locked)`);
  const admins = await tx
    .select({ email: users.email })
    .from(users)
    .where(
      and(
        eq(users.companyId, r.companyId),
        eq(users.status, 'active'),
        or(eq(users.isOwner, true), eq(users.role, 'administrator')),
      ),
    );
  const why =
    reason === 'url_not_allowed'
      ? 'its address now resolves to an internal network address'
      : 'every delivery to it failed for 5 days';
  await queueEmail(tx, r.companyId, {
    to: admins.map((a) => a.email),
    kind: 'webhook_endpoint_disabled',
    subject: `Webhook endpoint ${r.endpoint.url} was disabled`,
    text: `The webhook endpoint ${r.endpoint.id} (${r.endpoint.url}) was disabled because ${why}. Fix the receiver, then re-enable the endpoint and recover the failed messages.`,
  });
}
