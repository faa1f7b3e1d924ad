// Events recorded by an earlier release keep that release's object shape in the database (data is jsonb, written
// once). They are listed, answered by id and sent to webhooks in this contract's shape, the fields added since
// filled in (src/events/upgrades.ts); and a field added as required to an event object without its upgrade
// fails here, not in production (where such an event answered 500 and was never delivered).
import { readdirSync, readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { EventDataSchema } from '../../../generated/routes.ts';
import { withTenant } from '../../../src/db/tenant.ts';
import { type EventType, eventDeclaration } from '../../../src/events/catalogue.ts';
import { recordEvents } from '../../../src/events/record.ts';
import { EVENT_OBJECT_UPGRADES, upgradeEventData } from '../../../src/events/upgrades.ts';
import { prefixedId } from '../../../src/ids.ts';
import { setupApi, type TestApi } from '../../harness/api.ts';
import { contract, problemsAt } from '../../harness/contract.ts';
import { insertEndpoint, receiver, runDueJobs } from '../webhook-deliveries/support.ts';

type StoredObject = { object: string; id: string; [field: string]: unknown };
type StoredEvent = { type: EventType; data: { object: StoredObject } };

/**
 * Events as earlier releases stored them, one file per release (the webhook examples of its contract: every
 * event type of that release). A release that adds an event object adds a file with its examples, so that a
 * later field added to that object is caught too.
 */
const FIXTURES = new URL('../../fixtures/events/', import.meta.url);
const olderEvents: StoredEvent[] = readdirSync(FIXTURES)
  .filter((file) => file.endsWith('.json'))
  .flatMap((file) => JSON.parse(readFileSync(new URL(file, FIXTURES), 'utf8')).events);
const BEFORE_2026_11_28: StoredEvent[] = JSON.parse(
  readFileSync(new URL('before-2026-11-28.json', FIXTURES), 'utf8'),
).events;

/** The upgrade table by object name. */
const UPGRADES = new Map<string, object>(Object.entries(EVENT_OBJECT_UPGRADES));

let api: TestApi;
let companyId: string;
let key: string;

beforeAll(async () => {
  api = await setupApi();
  ({ companyId, key } = await api.tenant());
});

/**
 * What this release answers for an object the release before 2026-11-28 stored: written out, not computed. Records
 * have `metadata` and customers and deals `custom_fields` since 2026-12-02 (issue 51): `{}` in the events before.
 */
function asNow(stored: StoredObject): Record<string, unknown> {
  switch (stored.object) {
    case 'customer':
      return { ...stored, peppol_id: null, metadata: {}, custom_fields: {} };
    case 'deal':
      return { ...stored, external_ref: null, metadata: {}, custom_fields: {} };
    case 'note':
    case 'task':
    case 'appointment':
    case 'work_order':
    case 'order':
      return { ...stored, metadata: {} };
    case 'conversation':
      return { ...stored, visitor_email: null, metadata: {} };
    case 'quote':
      return { ...stored, public_url: null, metadata: {} };
    case 'invoice':
      // pay_url since 2026-12-02 (issue 52): a credential like public_url, never in events.
      return {
        ...stored,
        public_url: null,
        pay_url: null,
        ubl_url: `http://api.test/api/v1/invoices/${stored.id}/ubl`,
        // Payments name the provider they came through, and refunds what they pay back and the provider's refund,
        // since 2026-12-02: none before.
        payments: (Array.isArray(stored.payments) ? stored.payments : []).map((payment: object) => ({
          ...payment,
          provider: null,
          provider_payment_id: null,
          refunded_payment_id: null,
          provider_refund_id: null,
          provider_refund_status: null,
          failure_reason: null,
        })),
        // Reminders since 2026-12-02 (issue 52, point 6): every invoice took them, and had none.
        reminders_enabled: true,
        reminders: [],
        metadata: {},
      };
    case 'review_request':
      // The review page's address is a credential, no longer in events.
      return { ...stored, url: null };
    default:
      return stored;
  }
}

/** Writes the events by hand, as the release before stored them (no fan-out job). Their ids, in order. */
async function insertOlderEvents(company: string, events: StoredEvent[]): Promise<string[]> {
  const ids: string[] = [];
  for (const [i, event] of events.entries()) {
    const id = prefixedId('evt');
    ids.push(id);
    await api.sql`
      insert into events (company_id, id, type, scope, customer_id, data, created_at)
      values (${company}, ${id}, ${event.type}, ${eventDeclaration(event.type).readScopes[0]}, null,
              ${JSON.stringify(event.data)}::jsonb, now() - make_interval(secs => ${events.length - i}))`;
  }
  return ids;
}

describe('an event recorded before 2026-11-28', () => {
  let ids: string[];
  beforeAll(async () => {
    ids = await insertOlderEvents(companyId, BEFORE_2026_11_28);
  });

  it('is listed in this contract shape with the fields added since (GET /events)', async () => {
    const res = await api.call('listEvents', { key, query: { limit: 100, sort: 'created_at' } });
    expect(res.status).toBe(200);
    expect(res.body.data.map((e: { id: string }) => e.id)).toEqual(ids);
    res.body.data.forEach((event: { type: string; data: unknown }, i: number) => {
      expect(event.type).toBe(BEFORE_2026_11_28[i].type);
      expect(event.data).toEqual({ object: asNow(BEFORE_2026_11_28[i].data.object) });
    });
  });

  it('is answered by id in this contract shape (GET /events/{id})', async () => {
    for (const [i, event] of ids.entries()) {
      const res = await api.call('getEvent', { key, params: { event } });
      expect(res.status, `${BEFORE_2026_11_28[i].type}: ${JSON.stringify(res.body)}`).toBe(200);
      expect(res.body.data.data).toEqual({ object: asNow(BEFORE_2026_11_28[i].data.object) });
    }
  });

  it('is delivered to a webhook endpoint in the shape of its webhook message', async () => {
    const hook = await receiver();
    const other = await api.tenant();
    await insertEndpoint(api, other.companyId, {
      url: hook.url,
      scopes: [...new Set(BEFORE_2026_11_28.map((e) => eventDeclaration(e.type).readScopes[0]))],
    });
    // As the release before recorded them: its objects, through the outbox (event rows and fan-out jobs).
    const recorded = await withTenant(api.db, other.companyId, (tx) =>
      recordEvents(
        tx,
        other.companyId,
        BEFORE_2026_11_28.map((e) => ({
          type: e.type,
          scope: eventDeclaration(e.type).readScopes[0],
          customerId: null,
          object: e.data.object,
        })),
      ),
    );
    const outcomes = await runDueJobs(api, other.companyId);
    expect(outcomes).toEqual(recorded.map(() => 'succeeded'));
    expect(hook.requests).toHaveLength(recorded.length);
    for (const request of hook.requests) {
      const i = recorded.indexOf(String(request.headers['webhook-id']));
      const body = JSON.parse(request.body);
      const type = BEFORE_2026_11_28[i].type;
      const schema = `/webhooks/${type}/post/requestBody/content/application~1json/schema`;
      expect(problemsAt(schema, body), type).toEqual([]);
      expect(body.data).toEqual({ object: asNow(BEFORE_2026_11_28[i].data.object) });
    }
  });
});

describe('the upgrade of this release’s own events', () => {
  it('fills in what this release records: an event stripped of the added fields reads as it was recorded', async () => {
    const t = await api.tenant();
    const customer = await api.call('createCustomer', { key: t.key, body: { email: 'oud@example.nl' } });
    const customer_id = customer.body.data.id;
    const items = [{ name: 'Artikel', quantity: 2, unit_price: 10, tax_rate: 21 }];
    expect((await api.call('createQuote', { key: t.key, body: { customer_id, title: 'Offerte', items } })).status).toBe(
      201,
    );
    expect(
      (await api.call('createInvoice', { key: t.key, body: { customer_id, title: 'Factuur', items } })).status,
    ).toBe(201);
    const before = (await api.call('listEvents', { key: t.key })).body.data;
    expect(before.map((e: { type: string }) => e.type).sort()).toEqual([
      'customer.created',
      'invoice.created',
      'quote.created',
    ]);
    // As a release before the fields: the stored objects without any field the table fills in.
    const rows = await api.sql<{ id: string; data: { object: StoredObject } }[]>`
      select id, data from events where company_id = ${t.companyId}`;
    for (const row of rows) {
      const upgrades = UPGRADES.get(row.data.object.object) ?? {};
      const object = { ...row.data.object };
      for (const field of Object.keys(upgrades)) delete object[field];
      await api.sql`update events set data = ${JSON.stringify({ object })}::jsonb
                    where company_id = ${t.companyId} and id = ${row.id}`;
    }
    expect((await api.call('listEvents', { key: t.key })).body.data).toEqual(before);
  });
});

describe('every required field of an event object', () => {
  /** The contract's event objects by name: the alternatives of EventData.object, with their required fields. */
  const eventData = z.object({
    properties: z.object({ object: z.object({ oneOf: z.array(z.object({ $ref: z.string() })) }) }),
  });
  const objectSchema = z.object({
    required: z.array(z.string()),
    properties: z.object({ object: z.object({ const: z.string() }) }),
  });
  const schemas = contract.components.schemas;
  const objects = eventData.parse(schemas.EventData).properties.object.oneOf.map(({ $ref }) => {
    const schema = objectSchema.parse(schemas[$ref.replace('#/components/schemas/', '')]);
    return { name: schema.properties.object.const, required: schema.required };
  });

  it('is in the stored objects of older releases or has an upgrade (src/events/upgrades.ts)', () => {
    const missing: string[] = [];
    for (const { name, required } of objects) {
      const stored = olderEvents.filter((e) => e.data.object.object === name).map((e) => e.data.object);
      if (stored.length === 0) {
        missing.push(`${name}: no stored example in test/fixtures/events/ (add this release's webhook example)`);
        continue;
      }
      const upgraded = new Set(Object.keys(UPGRADES.get(name) ?? {}));
      for (const field of required) {
        if (upgraded.has(field)) continue;
        const lacking = stored.filter((object) => !(field in object)).length;
        if (lacking > 0) missing.push(`${name}.${field}: ${lacking} older event(s) lack it and it has no upgrade`);
      }
    }
    expect(missing).toEqual([]);
  });

  it('is in every older event once upgraded, nested ones too (the check of serializeEvent)', () => {
    const failing = olderEvents.flatMap((event) => {
      const parsed = EventDataSchema.safeParse(upgradeEventData(event.data, { serviceUrl: 'http://api.test' }));
      return parsed.success ? [] : [`${event.type}: ${JSON.stringify(parsed.error.issues).slice(0, 500)}`];
    });
    expect(failing).toEqual([]);
  });
});
