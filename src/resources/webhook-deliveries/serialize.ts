import { EventTypeSchema, WebhookAttemptSchema } from '../../../generated/routes.ts';
import type { webhookAttempts, webhookDeliveries } from '../../db/schema/index.ts';
import { iso, isoOrNull } from '../../http/serialize.ts';

export type DeliveryRow = typeof webhookDeliveries.$inferSelect;
export type AttemptRow = typeof webhookAttempts.$inferSelect;

// The event type and the error are text columns written by the fan-out and delivery tasks; they are checked
// against the contract here, so a value the contract does not promise fails loudly (500) instead of going out.
const attemptError = WebhookAttemptSchema.shape.error;

export function serializeDelivery(row: DeliveryRow) {
  return {
    object: 'webhook_delivery' as const,
    id: row.id,
    endpoint_id: row.endpointId,
    event_id: row.eventId,
    event_type: EventTypeSchema.parse(row.eventType),
    status: row.status,
    attempt_count: row.attemptCount,
    next_attempt_at: isoOrNull(row.nextAttemptAt),
    last_attempt_at: isoOrNull(row.lastAttemptAt),
    last_status_code: row.lastStatusCode,
    created_at: iso(row.createdAt),
    updated_at: iso(row.updatedAt),
  };
}

/** The delivery as a queued resend answers it: pending, its attempt due now (the row itself is unchanged). */
export function serializeQueuedDelivery(row: DeliveryRow, now: Date) {
  return { ...serializeDelivery(row), status: 'pending' as const, next_attempt_at: iso(now) };
}

export function serializeAttempt(row: AttemptRow) {
  return {
    object: 'webhook_attempt' as const,
    id: row.id,
    delivery_id: row.deliveryId,
    endpoint_id: row.endpointId,
    event_id: row.eventId,
    attempt_number: row.attemptNumber,
    trigger: row.trigger,
    url: row.url,
    status: row.status,
    status_code: row.statusCode,
    duration_ms: row.durationMs,
    error: attemptError.parse(row.error),
    response_body: row.responseBody,
    created_at: iso(row.createdAt),
  };
}
