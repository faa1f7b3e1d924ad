// The contract says what the service does, no looser (issue 38, point 10): each list's cursor example is a cursor
// that list takes; an email address the contract's schema allows is one the service accepts, and the other way
// round; a deal value with two decimals is valid for the contract's validator (no floating `multipleOf`) and a third
// decimal is refused by the service; duplicate webhook events are invalid in both. The contract's verdict is ajv's
// with ajv-formats (test/harness/contract.ts), the validator Prism uses.
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import type { OperationId } from '../../generated/operations.ts';
import { conversationOf } from '../features/conversations/fixtures.ts';
import { orderOf } from '../features/orders/fixtures.ts';
import {
  createCustomer,
  deliveriesOf,
  insertEndpoint,
  latestEventId,
  receiver,
  runDueJobs,
} from '../features/webhook-deliveries/support.ts';
import { setupApi, type TestApi } from '../harness/api.ts';
import { contract, contractOperations, problemsAt, schemaProblems } from '../harness/contract.ts';

type Parameter = { name: string; in: string; required?: boolean; example?: unknown };

let api: TestApi;
let key: string;
let companyId: string;
/** A record for every path parameter of a list, so that each list answers 200. */
const params: Record<string, string> = {};

const created = async (id: OperationId, opts: Parameters<TestApi['call']>[1]) => {
  const res = await api.call(id, { key, ...opts });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data as { id: string };
};

beforeAll(async () => {
  api = await setupApi(
    { WEBHOOK_ALLOW_PRIVATE_URLS: 'true' },
    { keyWindows: [{ name: 'minute', limit: 1_000_000, windowSeconds: 60 }] },
  );
  ({ key, companyId } = await api.tenant());
  // The endpoint first, so that the customer's event is delivered to it.
  params.endpoint = (await insertEndpoint(api, companyId, { url: (await receiver()).url })).id;
  const customer = (await createCustomer(api, key)).id;
  params.customer = customer;
  params.deal = (await created('createDeal', { body: { customer_id: customer } })).id;
  params.task = (await created('createTask', { body: { title: 'Offerte opstellen' } })).id;
  params.quote = (
    await created('createQuote', {
      body: {
        customer_id: customer,
        title: 'Schilderwerk',
        items: [{ name: 'Kozijnen', quantity: 1, unit_price: 100 }],
      },
    })
  ).id;
  params.work_order = (await created('createWorkOrder', { body: { customer_id: customer } })).id;
  params.conversation = (await conversationOf(api, companyId)).id;
  params.order = await orderOf(api, companyId);
  params.event = await latestEventId(api, customer);
  await runDueJobs(api, companyId);
  params.delivery = (await deliveriesOf(api, params.endpoint))[0].id;
});

const resolve = (p: Parameter | { $ref: string }): Parameter =>
  '$ref' in p ? (contract.components.parameters[p.$ref.split('/').pop() ?? ''] as Parameter) : p;

const lists = contractOperations()
  .map(({ operation, path, pathItem }) => ({
    id: operation.operationId as OperationId,
    path,
    parameters: [...((pathItem.parameters as Parameter[]) ?? []), ...((operation.parameters as Parameter[]) ?? [])].map(
      resolve,
    ),
  }))
  .filter((op) => op.parameters.some((p) => p.name === 'cursor'));

describe('cursor examples', () => {
  it('every list has one', () => {
    expect(lists.length).toBeGreaterThanOrEqual(29);
    for (const list of lists)
      expect(list.parameters.find((p) => p.name === 'cursor')?.example, list.id).toBeTypeOf('string');
  });

  it('each decodes to a cursor of its list’s default sort', () => {
    for (const list of lists) {
      const example = String(list.parameters.find((p) => p.name === 'cursor')?.example);
      const cursor = JSON.parse(Buffer.from(example, 'base64url').toString('utf8'));
      expect(cursor, list.id).toEqual({ s: expect.any(String), v: [expect.anything(), expect.anything()], d: 'n' });
      const sort = list.parameters.find((p) => p.name === 'sort') as { schema?: { default?: string } } | undefined;
      if (sort?.schema?.default) expect(cursor.s, list.id).toBe(sort.schema.default);
    }
  });

  it('each list answers 200 to its own example (with its default sort)', async () => {
    for (const list of lists) {
      const query: Record<string, string> = {};
      for (const p of list.parameters)
        if (p.in === 'query' && (p.required || p.name === 'cursor')) query[p.name] = String(p.example);
      const pathParams = Object.fromEntries([...list.path.matchAll(/\{(\w+)\}/g)].map(([, n]) => [n, params[n]]));
      const res = await api.call(list.id, { key, params: pathParams, query });
      expect(res.status, `${list.id}: ${JSON.stringify(res.body)}`).toBe(200);
    }
  });
});

describe('email addresses: the contract allows exactly what the service accepts', () => {
  const EMAIL = '/components/schemas/CustomerCreate/properties/email';
  const allowed = (email: string) => problemsAt(EMAIL, email).length === 0;
  let n = 0;
  const accepted = async (email: string) => {
    const res = await api.call('createCustomer', { key, body: { email, name: `Klant ${n++}` } });
    if (res.status === 201) return true;
    expect(res.status, email).toBe(422);
    expect(res.body.errors, email).toEqual([expect.objectContaining({ pointer: '/email' })]);
    return false;
  };

  it.each([
    ['jan@bakkerijjansen.nl', true],
    ["o'brien+offerte@sub.example.co.uk", true],
    ["!#$%&'*+/=?^_`{|}~-@x-1.nl", true],
    ['UPPER.case@EXAMPLE.NL', true],
    ['a@com', false],
    ['a@b', false],
    ['a..b@example.nl', false],
    ['.a@example.nl', false],
    ['a.@example.nl', false],
    ['jan@-x.nl', false],
    ['jan@x-.nl', false],
    ['jan@example..nl', false],
    ['jan@example.nl.', false],
    ['"jan"@example.nl', false],
    ['jan smit@example.nl', false],
    ['jän@example.nl', false],
    ['jan@exämple.nl', false],
    ['jan@[127.0.0.1]', false],
    ['a(b)@example.nl', false],
    ['jan@@example.nl', false],
  ])('%s: %s in both', async (email, expected) => {
    expect(allowed(email), 'contract').toBe(expected);
    expect(await accepted(email), 'service').toBe(expected);
  });

  it('and on generated addresses', async () => {
    const part = fc.string({
      unit: fc.constantFrom('a', 'Z', '9', '.', '-', '_', '+', '"', ' ', 'é', '('),
      maxLength: 6,
    });
    const samples = fc.sample(
      fc.tuple(part, fc.constantFrom('@', '@@', ''), part, fc.constantFrom('.nl', '', '.', '-.nl')),
      { numRuns: 60, seed: 38 },
    );
    for (const [i, [local, at, domain, tld]] of samples.entries()) {
      // Numbered so that no two samples are the same customer (emails are unique per company).
      const email = `${local}${i}${at}${domain}${tld}`;
      expect(await accepted(email), JSON.stringify(email)).toBe(allowed(email));
    }
  });

  it('every email field of the contract carries the same pattern', () => {
    const patterns = new Set<string>();
    const walk = (node: unknown) => {
      if (!node || typeof node !== 'object') return;
      const schema = node as Record<string, unknown>;
      if (schema.format === 'email') patterns.add(String(schema.pattern));
      for (const value of Object.values(schema)) walk(value);
    };
    walk(contract);
    expect([...patterns]).toHaveLength(1);
  });
});

describe('deal values', () => {
  it('every amount with two decimals is valid for the contract’s validator', () => {
    const refused: number[] = [];
    for (let cents = 0; cents < 100_000; cents++)
      if (schemaProblems('DealValueInput', cents / 100).length > 0) refused.push(cents / 100);
    expect(refused).toEqual([]);
  });

  it('the contract has no fractional multipleOf (floating-point validators would refuse 0.07)', () => {
    const found: unknown[] = [];
    const walk = (node: unknown) => {
      if (!node || typeof node !== 'object') return;
      const schema = node as Record<string, unknown>;
      if (typeof schema.multipleOf === 'number' && !Number.isInteger(schema.multipleOf)) found.push(schema);
      for (const value of Object.values(schema)) walk(value);
    };
    walk(contract);
    expect(found).toEqual([]);
  });

  it('the service takes 0.07 and 19.99 and refuses a third decimal', async () => {
    // One open deal per customer: each deal gets its own.
    const dealOf = async (value: number, i: number) => {
      const customer = await created('createCustomer', { body: { email: `deal-${i}@example.nl`, name: `Klant ${i}` } });
      return api.call('createDeal', { key, body: { customer_id: customer.id, value } });
    };
    expect((await dealOf(0.07, 1)).body.data.value).toBe('0.07');
    expect((await dealOf(19.99, 2)).body.data.value).toBe('19.99');
    const res = await dealOf(0.075, 3);
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual([expect.objectContaining({ pointer: '/value', code: 'invalid_format' })]);
  });
});

describe('webhook events', () => {
  it('duplicates are invalid for the contract and refused by the service', async () => {
    const body = { url: 'http://127.0.0.1:9/hook', events: ['customer.created', 'customer.created'] };
    expect(schemaProblems('WebhookEndpointCreate', body)).not.toEqual([]);
    const res = await api.call('createWebhookEndpoint', { key, body });
    expect(res.status).toBe(422);
  });
});
