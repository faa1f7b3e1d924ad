// The message body of recent events: the deliveries of one event to several endpoints (and its retries) send
// the same bytes, so the row is validated and serialized once. An entry is used only while the stored row is
// unchanged (type, created_at and the jsonb text all equal); otherwise it is serialized again.
import { serializeEvent } from '../events/serialize.ts';
import type { UpgradeContext } from '../events/upgrades.ts';

/** The event's columns a message body is made of, as the webhook statements read them. */
export type EventColumns = {
  event_id: string;
  event_type: string;
  event_created_at: Date | string;
  event_data: string;
};

const BODY_CACHE_MAX = 2048;
type CachedBody = { type: string; createdAt: number; data: string; body: string };

export class EventBodies {
  private readonly bodies = new Map<string, CachedBody>();

  /** `context`: what bringing an older event up to this release's shape uses (serializeEvent). */
  constructor(private readonly context: UpgradeContext) {}

  body(companyId: string, row: EventColumns): string {
    const key = `${companyId}/${row.event_id}`;
    const createdAt = new Date(row.event_created_at);
    const cached = this.bodies.get(key);
    if (
      cached &&
      cached.type === row.event_type &&
      cached.createdAt === createdAt.getTime() &&
      cached.data === row.event_data
    ) {
      return cached.body;
    }
    const body = JSON.stringify(
      serializeEvent(
        {
          companyId,
          id: row.event_id,
          type: row.event_type,
          // Unused by serializeEvent; part of the row type only.
          scope: '',
          customerId: null,
          data: JSON.parse(row.event_data),
          createdAt,
        },
        this.context,
      ),
    );
    this.bodies.delete(key);
    this.bodies.set(key, { type: row.event_type, createdAt: createdAt.getTime(), data: row.event_data, body });
    if (this.bodies.size > BODY_CACHE_MAX) this.bodies.delete(this.bodies.keys().next().value as string);
    return body;
  }
}
