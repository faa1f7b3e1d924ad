// A record written at the moment its field changes type (issue 51): the write reads the definitions FOR SHARE in its
// transaction and checks its values against them, and a type change locks the definition FOR UPDATE, so the two
// serialize. A transaction holding the definition (as a type change does) is kept open while the write arrives; the
// write waits, then sees the new type and refuses a value of the old one instead of storing it. The other way
// round, a type change waits for a write that holds the definitions, then finds its value and refuses to convert.
import { beforeAll, describe, expect, it } from 'vitest';
import { setupApi, type TestApi } from '../../harness/api.ts';
import { deferred, until } from '../../harness/async.ts';
import { waitsForLock } from '../../harness/locks.ts';

let api: TestApi;
let tenant: { key: string; companyId: string };
let customer: string;

beforeAll(async () => {
  api = await setupApi();
  tenant = await api.tenant();
  const res = await api.call('createCustomer', { key: tenant.key, body: { email: 'race@example.nl', name: 'Race' } });
  customer = res.body.data.id;
});

/** A text field of customers, known to the API's cache of definitions (a list of customers filtered on it). */
async function textField(key: string): Promise<string> {
  const res = await api.call('createCustomField', {
    key: tenant.key,
    body: { resource: 'customers', key, type: 'text', labels: { en: key } },
  });
  expect(res.status).toBe(201);
  const warm = await api.call('listCustomers', { key: tenant.key, query: { [`filter[custom_fields.${key}]`]: 'x' } });
  expect(warm.status).toBe(200);
  return res.body.data.id;
}

/**
 * As a type change does: the definition locked FOR UPDATE and changed to a number, the transaction held open until
 * `release` settles. Settles `locked` once the lock is taken.
 */
function typeChangeHeldOpen(fieldId: string, release: Promise<void>) {
  const locked = deferred<void>();
  const done = api.sql.begin(async (tx) => {
    await tx`select id from custom_fields where id = ${fieldId} for update`;
    await tx`update custom_fields set type = 'number', decimals = 0, version = version + 1 where id = ${fieldId}`;
    locked.resolve();
    await release;
  });
  return { locked: locked.promise, done };
}

describe('a write and a type change at the same moment', () => {
  it.each([
    ['an update', 'code_update'],
    ['a creation', 'code_create'],
  ])('%s waits for the change, then refuses a value of the old type', async (what, key) => {
    const fieldId = await textField(key);
    const release = deferred<void>();
    const change = typeChangeHeldOpen(fieldId, release.promise);
    await change.locked;
    const write =
      what === 'an update'
        ? api.call('updateCustomer', {
            key: tenant.key,
            params: { customer },
            body: { custom_fields: { [key]: 'ABC-12' } },
          })
        : api.call('createCustomer', {
            key: tenant.key,
            body: { email: `${key}@example.nl`, custom_fields: { [key]: 'ABC-12' } },
          });
    await until(() => waitsForLock(api.sql, '%custom_fields%'), 'the write waiting for the definition');
    release.resolve();
    await change.done;
    const res = await write;
    expect(res.status).toBe(422);
    expect(res.body.errors[0].pointer).toBe(`/custom_fields/${key}`);
    const [{ n }] = await api.sql`select count(*)::int as n from customers where custom_fields ? ${key}::text`;
    expect(n).toBe(0);
  });

  it('a type change waits for a write that holds the definitions, then finds its value', async () => {
    const fieldId = await textField('code_first');
    const release = deferred<void>();
    const held = deferred<void>();
    // As a write does: the definitions FOR SHARE, the value of the text field written, committed on release.
    const write = api.sql.begin(async (tx) => {
      await tx`select id from custom_fields where company_id = ${tenant.companyId} for share`;
      await tx`update customers set custom_fields = '{"code_first": "ABC-12"}' where id = ${customer}`;
      held.resolve();
      await release.promise;
    });
    await held.promise;
    const change = api.call('updateCustomField', {
      key: tenant.key,
      params: { field: fieldId },
      body: { type: 'number' },
    });
    await until(() => waitsForLock(api.sql, '%custom_fields%'), 'the type change waiting for the write');
    release.resolve();
    await write;
    const res = await change;
    expect(res.status).toBe(409);
  });
});
