// The reads of delivery jobs: the deliveries, their endpoints and their events in one statement (one pipelined
// transaction), shared by the delivery jobs of a company that read at the same time (a fan-out's jobs, one per
// endpoint, start together). Another company's id, or a deleted delivery, is simply not in the answer.
import type { Db } from '../db/client.ts';
import type { webhookDeliveries } from '../db/schema/index.ts';
import { tenantStatement } from '../db/tenant-statement.ts';
import { Coalescer } from './coalescer.ts';
import type { EventColumns } from './event-bodies.ts';
import type { EndpointRow, SendingEndpoint } from './send.ts';

export type ReadRow = EventColumns & {
  id: string;
  endpoint_id: string;
  status: (typeof webhookDeliveries.$inferSelect)['status'];
  next_attempt_at: Date | string | null;
  /** The read scope the event needs; the endpoint receives it only while its scopes hold it. */
  event_scope: string;
  endpoint_scopes: string[];
  endpoint_status: EndpointRow['status'];
  url: string;
  secret: string;
  previous_secret: string | null;
  previous_secret_expires_at: Date | string | null;
};

/** The endpoint's columns sending needs. */
export type EndpointColumns = Pick<ReadRow, 'url' | 'secret' | 'previous_secret' | 'previous_secret_expires_at'>;

/** What sending needs, from a row read with the endpoint's columns. */
export function sendingEndpoint(row: EndpointColumns): SendingEndpoint {
  return {
    url: row.url,
    secret: row.secret,
    previousSecret: row.previous_secret,
    previousSecretExpiresAt: row.previous_secret_expires_at === null ? null : new Date(row.previous_secret_expires_at),
  };
}

/** Jobs whose reads share one statement at most: bounds the statement (≤ 100 deliveries per job). */
const READS_PER_STATEMENT = 20;

export class DeliveryReads {
  private readonly reader: Coalescer<string[], Map<string, ReadRow>>;

  constructor(db: Db) {
    this.reader = new Coalescer(async (company, lists) => {
      const ids = [...new Set(lists.flat())];
      const rows = await tenantStatement<ReadRow>(
        db,
        company,
        (sql) => sql`
          select d.id, d.endpoint_id, d.status, d.next_attempt_at, d.event_id, e.status as endpoint_status, e.url, e.secret,
            e.previous_secret, e.previous_secret_expires_at, e.scopes as endpoint_scopes, ev.scope as event_scope,
            ev.type as event_type,
            ev.created_at as event_created_at, ev.data::text as event_data
          from webhook_deliveries d
          join webhook_endpoints e on e.company_id = d.company_id and e.id = d.endpoint_id
          join events ev on ev.company_id = d.company_id and ev.id = d.event_id
          where d.company_id = ${company} and d.id = any(${ids}::text[])`,
      );
      const byId = new Map(rows.map((row) => [row.id, row]));
      return lists.map(() => byId);
    }, READS_PER_STATEMENT);
  }

  /** The rows of `deliveryIds` found, by id. */
  read(companyId: string, deliveryIds: string[]): Promise<Map<string, ReadRow>> {
    return this.reader.add(companyId, deliveryIds);
  }
}
