// The company's own contract (issue 51, point 7): GET /api/v1/openapi.json with a key types the company's fields in
// the records' custom_fields schemas (labels in the request's language as descriptions); without a key the public
// contract; another company's key gets its own. openapi-typescript generates types from a company's contract, and
// one tsc run compiles code that uses its fields (and refuses a wrong value and a field the company does not have).
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import openapiTS, { astToString } from 'openapi-typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ContractCache, MAX_CONTRACTS } from '../../../src/resources/custom-fields/contract.ts';
import type { CompanyFields } from '../../../src/resources/custom-fields/schemas.ts';
import { fieldsCacheListening } from '../../../src/resources/custom-fields/schemas.ts';
import { setupApi, type TestApi } from '../../harness/api.ts';
import { until } from '../../harness/async.ts';

const ROOT = resolve(import.meta.dirname, '../../..');
let api: TestApi;
let key: string;
let dir: string | undefined;

const contractOf = async (k?: string, headers: Record<string, string> = {}) => {
  const res = await api.app.request('/api/v1/openapi.json', {
    headers: { ...(k ? { Authorization: `Bearer ${k}` } : {}), ...headers },
  });
  return { res, body: res.status === 200 ? await res.json() : undefined };
};

beforeAll(async () => {
  api = await setupApi();
  ({ key } = await api.tenant({ language: 'nl' }));
  const define = (body: Record<string, unknown>) =>
    api.call('createCustomField', { key, body: { resource: 'customers', ...body } });
  await define({ key: 'employee_count', type: 'number', labels: { nl: 'Aantal medewerkers', en: 'Employees' } });
  await define({
    key: 'service_level',
    type: 'single_select',
    required: true,
    labels: { nl: 'Serviceniveau', en: 'Service level' },
    options: [
      { key: 'gold', labels: { nl: 'Goud', en: 'Gold' } },
      { key: 'silver', labels: { nl: 'Zilver', en: 'Silver' } },
    ],
  });
  await define({ key: 'revenue', type: 'money', labels: { en: 'Revenue' } });
  await define({ resource: 'deals', key: 'contract_end', type: 'date', labels: { en: 'Contract end' } });
});

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('the contract served with a key', () => {
  it("types the company's fields, with labels in the request's language", async () => {
    const { res, body } = await contractOf(key, { 'Accept-Language': 'en' });
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toContain('private');
    expect(res.headers.get('vary')).toContain('Authorization');
    const customers = body.components.schemas.CustomerCustomFields;
    expect(Object.keys(customers.properties)).toEqual(['employee_count', 'service_level', 'revenue']);
    expect(customers.additionalProperties).toBe(false);
    expect(customers.properties.employee_count).toMatchObject({ type: 'integer', description: 'Employees.' });
    expect(customers.properties.service_level.enum).toEqual(['gold', 'silver']);
    expect(customers.properties.service_level.description).toContain('`gold` (Gold)');
    const input = body.components.schemas.CustomerCustomFieldsInput;
    expect(input.properties.revenue.oneOf).toEqual([
      { type: 'string', pattern: '^-?\\d{1,13}\\.\\d{2}$' },
      { type: 'null' },
    ]);
    expect(Object.keys(body.components.schemas.DealCustomFields.properties)).toEqual(['contract_end']);
    const dutch = await contractOf(key, { 'Accept-Language': 'nl' });
    expect(dutch.body.components.schemas.CustomerCustomFields.properties.employee_count.description).toBe(
      'Aantal medewerkers.',
    );
  });

  it('without a key the public contract; another company gets its own; a wrong key 401', async () => {
    const open = await contractOf();
    expect(open.res.status).toBe(200);
    expect(open.body.components.schemas.CustomerCustomFields.properties).toBeUndefined();
    const { key: other } = await api.tenant();
    const theirs = await contractOf(other);
    expect(theirs.body.components.schemas.CustomerCustomFields.properties).toEqual({});
    const wrong = await contractOf('svc_not_a_key');
    expect(wrong.res.status).toBe(401);
  });

  it('follows a change of the definitions at once', async () => {
    const { key: k } = await api.tenant();
    expect((await contractOf(k)).body.components.schemas.DealCustomFields.properties).toEqual({});
    await api.call('createCustomField', {
      key: k,
      body: { resource: 'deals', key: 'region', type: 'text', labels: { en: 'Region' } },
    });
    expect(Object.keys((await contractOf(k)).body.components.schemas.DealCustomFields.properties)).toEqual(['region']);
  });

  it('is built once per company and language, and a change of a label shows in the next download (cached)', async () => {
    const { key: k } = await api.tenant();
    await fieldsCacheListening(api.deps.sql);
    const created = await api.call('createCustomField', {
      key: k,
      body: { resource: 'customers', key: 'region', type: 'text', labels: { en: 'Region' } },
    });
    const description = async (app = api.app) => {
      const res = await app.request('/api/v1/openapi.json', { headers: { Authorization: `Bearer ${k}` } });
      return (await res.json()).components.schemas.CustomerCustomFields.properties.region.description;
    };
    expect(await description()).toBe('Region.');
    expect(await description()).toBe('Region.');
    // Another API process, which hears of the change through NOTIFY.
    const other = await api.otherProcess();
    await fieldsCacheListening(other.deps.sql);
    expect(await description(other.app)).toBe('Region.');
    const renamed = await api.call('updateCustomField', {
      key: k,
      params: { field: created.body.data.id },
      body: { labels: { en: 'Sales region' } },
    });
    expect(renamed.status).toBe(200);
    expect(await description()).toBe('Sales region.');
    await until(async () => (await description(other.app)) === 'Sales region.', 'the other process to rebuild');
  });

  it("openapi-typescript's types of the company's contract compile code that uses its fields", async () => {
    const { body } = await contractOf(key, { 'Accept-Language': 'en' });
    const ast = await openapiTS(body);
    dir = mkdtempSync(join(tmpdir(), 'crm-company-contract-'));
    writeFileSync(join(dir, 'api.d.ts'), astToString(ast));
    writeFileSync(
      join(dir, 'usage.ts'),
      `import type { components } from './api.d.ts';
type Customer = components['schemas']['Customer'];
type CustomerInput = components['schemas']['CustomerCreate'];

export function describe(customer: Customer): string {
  const employees: number | undefined = customer.custom_fields.employee_count;
  const level: 'gold' | 'silver' | undefined = customer.custom_fields.service_level;
  return \`\${employees ?? 0} \${level ?? '-'}\`;
}

export const input: CustomerInput = {
  email: 'eva@example.nl',
  type: 'individual',
  custom_fields: { employee_count: 12, service_level: 'gold', revenue: '1250.00' },
};
export const removing: CustomerInput = { email: 'eva@example.nl', type: 'individual', custom_fields: { revenue: null } };
// @ts-expect-error not an option of service_level
export const wrongOption: CustomerInput = { email: 'eva@example.nl', type: 'individual', custom_fields: { service_level: 'bronze' } };
// @ts-expect-error employee_count is a number
export const wrongType: CustomerInput = { email: 'eva@example.nl', type: 'individual', custom_fields: { employee_count: 'twelve' } };
// @ts-expect-error a field the company does not have
export const unknown: CustomerInput = { email: 'eva@example.nl', type: 'individual', custom_fields: { colour: 'red' } };
`,
    );
    writeFileSync(
      join(dir, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          target: 'ES2022',
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          strict: true,
          noEmit: true,
          allowImportingTsExtensions: true,
          types: [],
        },
        include: ['usage.ts', 'api.d.ts'],
      }),
    );
    const tsc = join(ROOT, 'node_modules/typescript/bin/tsc');
    const result = await new Promise<{ code: number; out: string }>((done) => {
      execFile(process.execPath, [tsc, '-p', dir ?? ''], { timeout: 240_000 }, (error, stdout, stderr) => {
        done({ code: error ? (typeof error.code === 'number' ? error.code : -1) : 0, out: stdout + stderr });
      });
    });
    expect(result.out).toBe('');
    expect(result.code).toBe(0);
  }, 250_000);
});

describe('the cache of company contracts', () => {
  const fieldsObject = (): CompanyFields => ({ customers: new Map(), deals: new Map() });

  it('builds again only when the fields cache answers another object, and keeps at most MAX_CONTRACTS', () => {
    const cache = new ContractCache();
    let builds = 0;
    const build = () => `contract ${++builds}`;
    const fields = fieldsObject();
    expect(cache.get('a:en:nl', fields, build)).toBe('contract 1');
    expect(cache.get('a:en:nl', fields, build)).toBe('contract 1');
    expect(cache.get('a:nl:nl', fields, build)).toBe('contract 2');
    // The company's fields changed: the fields cache holds a new object.
    expect(cache.get('a:en:nl', fieldsObject(), build)).toBe('contract 3');
    const many = Array.from({ length: MAX_CONTRACTS + 1 }, (_, i) => [`c${i}:en:en`, fieldsObject()] as const);
    for (const [key, f] of many) cache.get(key, f, build);
    const before = builds;
    // The newest are kept; the first of them, least recently used, was dropped.
    cache.get(many[MAX_CONTRACTS][0], many[MAX_CONTRACTS][1], build);
    expect(builds).toBe(before);
    cache.get(many[0][0], many[0][1], build);
    expect(builds).toBe(before + 1);
  });
});
