// Custom fields' definitions (issue 51, point 4): create, list in order, read, update, delete; labels in the
// request's language with a fallback; each refusal (labels, options, decimals, a repeated key, 100 per resource, the
// scopes company.read / company.write, another company's field); type changes that convert or are refused with 409.
import { beforeAll, describe, expect, it } from 'vitest';
import { setupApi, type TestApi } from '../../harness/api.ts';

let api: TestApi;
let key: string;
let companyId: string;

beforeAll(async () => {
  api = await setupApi();
  ({ key, companyId } = await api.tenant());
});

let n = 0;
const uniqueKey = (prefix = 'f') => `${prefix}_${n++}`;

const createField = (body: Record<string, unknown>, k = key, headers?: Record<string, string>) =>
  api.call('createCustomField', {
    key: k,
    body: { key: uniqueKey(), resource: 'customers', type: 'text', labels: { en: 'A field' }, ...body },
    headers,
  });
const patchField = (id: string, body: Record<string, unknown>, headers?: Record<string, string>) =>
  api.call('updateCustomField', { key, params: { field: id }, body, headers });

describe('definitions', () => {
  it('creates a field with defaults, reads it back, and lists the fields in their order', async () => {
    const { key: k2, companyId: c2 } = await api.tenant();
    const first = await createField(
      { key: 'employee_count', type: 'number', labels: { nl: 'Medewerkers', en: 'Employees' } },
      k2,
    );
    expect(first.status).toBe(201);
    expect(first.body.data).toMatchObject({
      object: 'custom_field',
      key: 'employee_count',
      resource: 'customers',
      type: 'number',
      decimals: 0,
      options: null,
      required: false,
      position: 10,
      labels: { nl: 'Medewerkers', en: 'Employees', de: null, fr: null },
    });
    expect(first.headers.get('etag')).toBe('"1"');
    const select = await createField(
      {
        key: 'level',
        type: 'single_select',
        required: true,
        labels: { en: 'Level' },
        options: [
          { key: 'gold', labels: { en: 'Gold', nl: 'Goud' } },
          { key: 'silver', labels: { en: 'Silver' } },
        ],
      },
      k2,
    );
    expect(select.body.data.position).toBe(20);
    const early = await createField({ key: 'early', labels: { en: 'Early' }, position: 5, resource: 'deals' }, k2);
    expect(early.status).toBe(201);
    const list = await api.call<'listCustomFields'>('listCustomFields', {
      key: k2,
      headers: { 'Accept-Language': 'nl' },
    });
    expect(list.status).toBe(200);
    expect(list.body.data.map((f) => f.key)).toEqual(['early', 'employee_count', 'level']);
    // Labels in the request's language; without one, the company's (nl), else the first set.
    expect(list.body.data[1]?.label).toBe('Medewerkers');
    expect(list.body.data[2]?.label).toBe('Level');
    expect(list.body.data[2]?.options?.map((o) => o.label)).toEqual(['Goud', 'Silver']);
    const deals = await api.call<'listCustomFields'>('listCustomFields', {
      key: k2,
      query: { 'filter[resource]': 'deals' },
    });
    expect(deals.body.data.map((f) => f.key)).toEqual(['early']);
    const got = await api.call<'getCustomField'>('getCustomField', {
      key: k2,
      params: { field: first.body.data.id },
      headers: { 'Accept-Language': 'en' },
    });
    expect(got.body.data.label).toBe('Employees');
    expect(got.headers.get('content-language')).toBe('en');
    const rows = await api.sql`select count(*)::int as n from custom_fields where company_id = ${c2}`;
    expect(rows[0]?.n).toBe(3);
  });

  it('refuses fields without a label, selects without options, options or decimals on other types', async () => {
    const noLabel = await createField({ labels: {} });
    expect(noLabel.status).toBe(422);
    expect(noLabel.body.errors[0]).toMatchObject({ pointer: '/labels', code: 'required' });
    const noOptions = await createField({ type: 'multi_select' });
    expect(noOptions.body.errors[0]).toMatchObject({ pointer: '/options', code: 'required' });
    const options = await createField({ type: 'text', options: [{ key: 'a', labels: { en: 'A' } }] });
    expect(options.body.errors[0]).toMatchObject({ pointer: '/options', code: 'invalid_combination' });
    const decimals = await createField({ type: 'date', decimals: 2 });
    expect(decimals.body.errors[0]).toMatchObject({ pointer: '/decimals', code: 'invalid_combination' });
    const repeated = await createField({
      type: 'single_select',
      options: [
        { key: 'a', labels: { en: 'A' } },
        { key: 'a', labels: { en: 'A again' } },
      ],
    });
    expect(repeated.body.errors[0]).toMatchObject({ pointer: '/options/1/key', code: 'already_exists' });
    const badKey = await createField({ key: 'Not-Snake' });
    expect(badKey.status).toBe(422);
    expect(badKey.body.errors[0].pointer).toBe('/key');
    const badType = await createField({ type: 'colour' });
    expect(badType.body.errors[0]).toMatchObject({ pointer: '/type', code: 'invalid_enum' });
  });

  it('refuses a key the resource has already (in the caller language), allows it on the other resource', async () => {
    await createField({ key: 'shared_key' });
    const again = await createField({ key: 'shared_key' }, key, { 'Accept-Language': 'de' });
    expect(again.status).toBe(422);
    expect(again.body.errors[0]).toMatchObject({ pointer: '/key', code: 'already_exists' });
    expect(again.body.errors[0].detail).toContain('Schlüssel');
    expect((await createField({ key: 'shared_key', resource: 'deals' })).status).toBe(201);
  });

  it('keeps at most 100 fields per resource and company (422 too_big at /resource)', async () => {
    const { key: k3, companyId: c3 } = await api.tenant();
    await api.sql`insert into custom_fields (company_id, id, resource, key, type, labels, position)
      select ${c3}, gen_random_uuid(), 'deals', 'f' || i, 'text', '{"en":"F"}', i from generate_series(1, 100) i`;
    const more = await createField({ resource: 'deals' }, k3);
    expect(more.status).toBe(422);
    expect(more.body.errors[0]).toMatchObject({ pointer: '/resource', code: 'too_big' });
    expect(more.body.errors[0].detail).toContain('100');
    expect((await createField({ resource: 'customers' }, k3)).status).toBe(201);
  });

  it('updates labels (merged by language), required, position, options; honours If-Match', async () => {
    const { body } = await createField({
      type: 'single_select',
      labels: { en: 'Size' },
      options: [
        { key: 's', labels: { en: 'Small' } },
        { key: 'l', labels: { en: 'Large' } },
      ],
    });
    const id = body.data.id;
    const patched = await patchField(id, {
      labels: { nl: 'Maat' },
      required: true,
      position: 99,
      options: [
        { key: 'l', labels: { en: 'Large', nl: 'Groot' } },
        { key: 's', labels: { en: 'Small' } },
        { key: 'm', labels: { en: 'Medium' } },
      ],
    });
    expect(patched.status).toBe(200);
    expect(patched.body.data).toMatchObject({
      labels: { en: 'Size', nl: 'Maat' },
      required: true,
      position: 99,
    });
    expect(patched.body.data.options?.map((o: { key: string }) => o.key)).toEqual(['l', 's', 'm']);
    expect(patched.headers.get('etag')).toBe('"2"');
    const same = await patchField(id, { required: true });
    expect(same.headers.get('etag')).toBe('"2"');
    const stale = await patchField(id, { required: false }, { 'If-Match': '"1"' });
    expect(stale.status).toBe(412);
    const key2 = await patchField(id, { key: 'other' });
    expect(key2.status).toBe(422);
    expect(key2.body.code).toBe('unknown_field');
  });

  it('deletes a field; then it is gone (404) and its key free again', async () => {
    const { body } = await createField({ key: 'to_delete' });
    const deleted = await api.call<'deleteCustomField'>('deleteCustomField', { key, params: { field: body.data.id } });
    expect(deleted.status).toBe(200);
    expect(deleted.body.data).toEqual({ object: 'custom_field', id: body.data.id, deleted: true });
    const gone = await api.call('getCustomField', { key, params: { field: body.data.id } });
    expect(gone.status).toBe(404);
    expect((await createField({ key: 'to_delete' })).status).toBe(201);
    const again = await api.call('deleteCustomField', { key, params: { field: body.data.id } });
    expect(again.status).toBe(404);
  });
});

describe('scopes and tenancy', () => {
  it('reads with company.read, writes with company.write', async () => {
    const { key: reader } = await api.key(companyId, { scopes: ['company.read'] });
    const list = await api.call('listCustomFields', { key: reader });
    expect(list.status).toBe(200);
    const refused = await createField({}, reader);
    expect(refused.status).toBe(403);
    expect(refused.body.required_scope).toBe('company.write');
    const { key: none } = await api.key(companyId, { scopes: ['customers.read'] });
    const noRead = await api.call('listCustomFields', { key: none });
    expect(noRead.status).toBe(403);
    expect(noRead.body.required_scope).toBe('company.read');
  });

  it("another company's key neither sees nor changes a field (404), and lists only its own", async () => {
    const { body } = await createField({ key: 'secret_field' });
    const { key: other } = await api.tenant();
    for (const operationId of ['getCustomField', 'updateCustomField', 'deleteCustomField'] as const) {
      const res = await api.call(operationId, {
        key: other,
        params: { field: body.data.id },
        body: operationId === 'updateCustomField' ? { required: true } : undefined,
      });
      expect(res.status).toBe(404);
    }
    const list = await api.call<'listCustomFields'>('listCustomFields', { key: other });
    expect(list.body.data).toEqual([]);
    // The same key in another company is another field.
    expect((await createField({ key: 'secret_field' }, other)).status).toBe(201);
  });

  it('row-level security: as the API role of company B, no row of A is visible', async () => {
    const { companyId: b } = await api.tenant();
    const rows = await api.sql.begin(async (tx) => {
      await tx`select set_config('role', 'app_api', true), set_config('app.company_id', ${b}, true)`;
      return tx`select company_id from custom_fields`;
    });
    expect(rows.every((r) => r.company_id === b)).toBe(true);
    const all = await api.sql`select count(*)::int as n from custom_fields where company_id = ${companyId}`;
    expect(all[0]?.n).toBeGreaterThan(0);
    const forced = await api.sql`select relforcerowsecurity from pg_class where relname = 'custom_fields'`;
    expect(forced[0]?.relforcerowsecurity).toBe(true);
  });
});
