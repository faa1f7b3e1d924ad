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
import { setupApi, type TestApi } from '../../harness/api.ts';

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
