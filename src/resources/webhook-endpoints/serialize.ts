import type { z } from 'zod';
import { WebhookEndpointSchema, WebhookEventSelectionSchema } from '../../../generated/routes.ts';
import type { webhookEndpoints } from '../../db/schema/index.ts';
import { iso, isoOrNull } from '../../http/serialize.ts';

export type EndpointRow = typeof webhookEndpoints.$inferSelect;
export type EventSelection = z.infer<typeof WebhookEventSelectionSchema>[number];
type DisabledReason = NonNullable<z.infer<typeof WebhookEndpointSchema>['disabled_reason']>;

const SELECTABLE: readonly string[] = WebhookEventSelectionSchema.element.options;
const REASONS: readonly string[] = WebhookEndpointSchema.shape.disabled_reason.unwrap().options;

const isSelection = (value: string): value is EventSelection => SELECTABLE.includes(value);
const isReason = (value: string): value is DisabledReason => REASONS.includes(value);

/**
 * The stored selection and reason are plain text columns; every writer checks them against the contract, so
 * a value outside it is a bug of a writer, answered as a 500 rather than sent in a shape not promised.
 */
function contractValues(row: EndpointRow) {
  const events = row.events.filter(isSelection);
  const reason = row.disabledReason;
  if (events.length !== row.events.length || events.length === 0 || (reason !== null && !isReason(reason))) {
    throw new Error(`webhook endpoint ${row.id} has an event selection or disabled_reason outside the contract`);
  }
  return { events, disabledReason: reason };
}

/** The contract's WebhookEndpoint: never the secret. */
export function serializeEndpoint(row: EndpointRow, now: Date = new Date()) {
  const { events, disabledReason } = contractValues(row);
  // The previous secret stops signing at its expiry (see activeSecrets in webhooks/send.ts); from then on the
  // endpoint shows no overlap, even before anything clears the column.
  const overlapEnds =
    row.previousSecret !== null && row.previousSecretExpiresAt !== null ? row.previousSecretExpiresAt : null;
  return {
    object: 'webhook_endpoint' as const,
    id: row.id,
    url: row.url,
    description: row.description,
    events,
    status: row.status,
    disabled_reason: disabledReason,
    disabled_at: isoOrNull(row.disabledAt),
    previous_secret_expires_at: overlapEnds !== null && overlapEnds > now ? iso(overlapEnds) : null,
    last_success_at: isoOrNull(row.lastSuccessAt),
    last_failure_at: isoOrNull(row.lastFailureAt),
    metadata: row.metadata,
    created_at: iso(row.createdAt),
    updated_at: iso(row.updatedAt),
  };
}

/** Only the answers of creation and rotation carry the secret. */
export function serializeEndpointWithSecret(row: EndpointRow) {
  return { ...serializeEndpoint(row), secret: row.secret };
}
