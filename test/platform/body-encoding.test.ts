// JSON bodies are UTF-8 (RFC 8259), and the body is read as such or refused; nothing is stored altered.
// - Bytes that are not UTF-8 (é sent as Latin-1 0xE9) were decoded leniently and stored as U+FFFD: now 422
//   validation_failed with `invalid_json` on the whole body.
// - `Content-Type: application/json; charset=latin1` was read as UTF-8 anyway: now 415 unsupported_media_type.
//   `charset=utf-8` in any case, quoted or not, and no charset at all are accepted.
import { beforeAll, describe, expect, it } from 'vitest';
import { setupApi, type TestApi } from '../harness/api.ts';

let api: TestApi;
let key: string;
let companyId: string;

beforeAll(async () => {
  api = await setupApi();
  ({ key, companyId } = await api.tenant());
});

/** `{"name":"Caf<0xE9>","email":…}`: the é in Latin-1, a byte that UTF-8 does not allow there. */
const latin1Json = (fields: string) =>
  new Uint8Array([...Buffer.from(`{"name":"Caf`), 0xe9, ...Buffer.from(`"${fields}}`)]);

const customerCount = async () =>
  Number((await api.sql`select count(*)::int as n from customers where company_id = ${companyId}`)[0].n);

async function customer(name = 'Bakkerij Zoet') {
  const email = `c${Math.random().toString(36).slice(2)}@example.nl`;
  const res = await api.call('createCustomer', { key, body: { email, name } });
  expect(res.status).toBe(201);
  return res.body.data as { id: string; name: string };
}

const storedName = async (id: string) =>
  (await api.sql`select name, version from customers where company_id = ${companyId} and id = ${id}`)[0];

describe('a body that is not UTF-8', () => {
  const refused = (res: { status: number; body: { code: string; errors: unknown[] } }) => {
    expect(res.status).toBe(422);
    expect(res.body.code).toBe('validation_failed');
    expect(res.body.errors).toEqual([
      {
        pointer: '',
        parameter: null,
        code: 'invalid_json',
        detail: 'The body is not valid UTF-8: JSON must be sent encoded as UTF-8.',
      },
    ]);
  };

  it('is refused on a creation (createCustomer), nothing stored', async () => {
    const before = await customerCount();
    const res = await api.call('createCustomer', {
      key,
      rawBody: latin1Json(',"email":"latin@example.nl"'),
      headers: { 'content-type': 'application/json' },
    });
    refused(res);
    expect(await customerCount()).toBe(before);
  });

  it('is refused on an update (updateCustomer), nothing changed', async () => {
    const { id } = await customer();
    const res = await api.call('updateCustomer', {
      key,
      params: { customer: id },
      rawBody: latin1Json(''),
      headers: { 'content-type': 'application/json' },
    });
    refused(res);
    expect(await storedName(id)).toEqual({ name: 'Bakkerij Zoet', version: 1 });
  });
});

describe('a charset other than UTF-8', () => {
  for (const type of [
    'application/json; charset=latin1',
    'application/json; charset=ISO-8859-1',
    'application/json;charset="utf-16"',
  ]) {
    it(`${type}: 415 unsupported_media_type on a creation and an update, nothing stored`, async () => {
      const before = await customerCount();
      const created = await api.call('createCustomer', {
        key,
        rawBody: JSON.stringify({ email: 'charset@example.nl', name: 'Caf' }),
        headers: { 'content-type': type },
      });
      expect(created.status).toBe(415);
      expect(created.body).toMatchObject({
        code: 'unsupported_media_type',
        detail: 'Send JSON encoded as UTF-8: leave out the charset of the Content-Type or send charset=utf-8.',
      });
      expect(await customerCount()).toBe(before);

      const { id } = await customer();
      const updated = await api.call('updateCustomer', {
        key,
        params: { customer: id },
        rawBody: JSON.stringify({ name: 'Caf' }),
        headers: { 'content-type': type, 'accept-language': 'de' },
      });
      expect(updated.status).toBe(415);
      expect(updated.body).toMatchObject({ code: 'unsupported_media_type', detail: expect.stringContaining('UTF-8') });
      expect(await storedName(id)).toEqual({ name: 'Bakkerij Zoet', version: 1 });
    });
  }
});

describe('UTF-8, with or without a charset', () => {
  for (const type of [
    'application/json',
    'application/json; charset=utf-8',
    'application/json; charset=UTF-8',
    'application/json;charset="Utf-8"',
  ]) {
    it(`${type}: stored as sent on a creation and an update`, async () => {
      const name = 'Café Zoë 😀';
      const email = `utf8${Math.random().toString(36).slice(2)}@example.nl`;
      const created = await api.call('createCustomer', {
        key,
        rawBody: new TextEncoder().encode(JSON.stringify({ email, name })),
        headers: { 'content-type': type },
      });
      expect(created.status).toBe(201);
      expect(created.body.data.name).toBe(name);
      const id = created.body.data.id;
      const updated = await api.call('updateCustomer', {
        key,
        params: { customer: id },
        rawBody: JSON.stringify({ name: `${name} ✓` }),
        headers: { 'content-type': type },
      });
      expect(updated.status).toBe(200);
      expect(await storedName(id)).toEqual({ name: `${name} ✓`, version: 2 });
    });
  }
});
