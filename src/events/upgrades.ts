// An event's object is stored once, in the shape of the release that recorded it. When a release adds a
// required field to an object that events carry, the events recorded before lack it: this table says what they
// carry for it now, so that every stored event is listed and sent in this contract's shape (a missing field
// would otherwise fail serializeEvent's check: 500 on GET /events, a webhook message never sent).
//
// Upgraded when read rather than backfilled by a migration: it also covers the events that API processes of
// the previous release record during a rolling upgrade, after the migrations ran, rewrites no event rows, and
// may use the service's configuration (ubl_url needs PUBLIC_URL). Entries stay: an installation may skip
// releases, and its events of the last 30 days are then of any older shape.
// test/features/events/older-events.test.ts fails when an object gains a required field without an entry.
import type { z } from 'zod';
import { type EventDataSchema, InvoicePaymentSchema } from '../../generated/routes.ts';
import { ublUrlOf } from '../api-address.ts';

type EventObject = z.infer<typeof EventDataSchema>['object'];
type ObjectName = EventObject['object'];
type ObjectNamed<N extends ObjectName> = Extract<EventObject, { object: N }>;

/** An object as some release stored it: only its `object` name is sure. */
export type StoredObject = { readonly object: string; readonly [field: string]: unknown };

/** What upgrading may use besides the stored object: the service's public address (PUBLIC_URL). */
export type UpgradeContext = { readonly serviceUrl: string };

type FieldUpgrade<T> = {
  /** The value an event recorded before the field existed carries: null where the contract allows it, else derived. */
  readonly value: (stored: StoredObject, context: UpgradeContext) => T;
  /** Set whatever was stored: the field's value in events changed (it is no longer shown in events). */
  readonly replaces?: true;
};

type ObjectUpgrades<N extends ObjectName> = {
  readonly [F in keyof ObjectNamed<N>]?: FieldUpgrade<ObjectNamed<N>[F]>;
};

const none = () => null;
/** An integrator's metadata (drizzle/0045_metadata.sql): every record had none before. */
const noMetadata = { value: (): Record<string, string> => ({}) };

/** The company's custom fields (drizzle/0047_custom_fields.sql): every record had none before. */
const noCustomFields = { value: (): Record<string, string | number | boolean | string[]> => ({}) };

/** By object name, then field (both checked against the contract's types), with the release that changed it. */
export const EVENT_OBJECT_UPGRADES: { readonly [N in ObjectName]?: ObjectUpgrades<N> } = {
  // 2026-11-28: not recorded before (peppol_id, external_ref, visitor_email); 2026-12-02: metadata.
  // 2026-12-02: custom fields (drizzle/0047_custom_fields.sql), none before.
  customer: { peppol_id: { value: none }, metadata: noMetadata, custom_fields: noCustomFields },
  deal: { external_ref: { value: none }, metadata: noMetadata, custom_fields: noCustomFields },
  note: { metadata: noMetadata },
  task: { metadata: noMetadata },
  appointment: { metadata: noMetadata },
  conversation: { visitor_email: { value: none }, metadata: noMetadata },
  // 2026-11-28: the online document's address is a credential, never in events.
  quote: { public_url: { value: none }, metadata: noMetadata },
  invoice: {
    public_url: { value: none },
    metadata: noMetadata,
    // 2026-11-28: always present, in events too; it follows from the invoice's id.
    ubl_url: { value: (invoice, { serviceUrl }) => ublUrlOf(serviceUrl, String(invoice.id)) },
    // 2026-12-02 (issue 52): "pay now" is a credential like public_url, never in events; payments name the provider
    // they came through (none did before).
    pay_url: { value: none },
    // 2026-12-02 (issue 52, refunds through the provider): refunds name the payment they pay back and the
    // provider's refund (none did before).
    payments: { value: (invoice) => paymentsWithProvider(invoice.payments), replaces: true },
    // 2026-12-02 (issue 52, drizzle/0048): every invoice took reminders, and had none, before the schedule existed.
    reminders_enabled: { value: () => true },
    reminders: { value: () => [] },
  },
  work_order: { metadata: noMetadata },
  order: { metadata: noMetadata },
  // 2026-11-28: the review page's address is a credential, no longer in events (events before carried it).
  review_request: { url: { value: none, replaces: true } },
};

/** An invoice's payments with their provider and refund fields (null where a release recorded none). */
function paymentsWithProvider(stored: unknown) {
  // Every release stored the list; none at all reads as no payments.
  const payments = (Array.isArray(stored) ? stored : []).map((payment: unknown) =>
    typeof payment === 'object' && payment !== null
      ? {
          provider: null,
          provider_payment_id: null,
          refunded_payment_id: null,
          provider_refund_id: null,
          provider_refund_status: null,
          failure_reason: null,
          ...payment,
        }
      : payment,
  );
  return InvoicePaymentSchema.array().parse(payments);
}

type AnyUpgrades = { readonly [field: string]: FieldUpgrade<unknown> | undefined };
const UPGRADES: ReadonlyMap<string, AnyUpgrades> = new Map(Object.entries(EVENT_OBJECT_UPGRADES));

const isStoredObject = (value: unknown): value is StoredObject =>
  typeof value === 'object' && value !== null && 'object' in value && typeof value.object === 'string';

/**
 * The stored `data` of an event in this release's shape (a new object; the stored one is not changed). Data
 * that is not `{ object: {object: string, …} }` is returned as it is, for the contract check to refuse.
 */
export function upgradeEventData(data: unknown, context: UpgradeContext): unknown {
  if (typeof data !== 'object' || data === null || !('object' in data) || !isStoredObject(data.object)) return data;
  const stored = data.object;
  const upgrades = UPGRADES.get(stored.object);
  if (!upgrades) return data;
  const object: Record<string, unknown> = { ...stored };
  for (const [field, upgrade] of Object.entries(upgrades)) {
    if (upgrade && (upgrade.replaces || !(field in stored))) object[field] = upgrade.value(stored, context);
  }
  return { ...data, object };
}
