// The gates of the gates: each quality gate catches the deliberate mistake it exists for.
// (a) a handler answering a field of the wrong type is refused by the contract check every test client runs;
// (b) a pipeline that skips the scope check of one operation fails the security matrix's scope row;
// (c) a query without its company filter still sees one company only: row-level security, not the query,
//     keeps tenants apart — the same query as the table owner would have seen both.
import { sql } from 'drizzle-orm';
import { Hono } from 'hono';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { type OperationId, operations } from '../../generated/operations.ts';
import { ALL_SCOPES } from '../../src/auth/scopes.ts';
import { withTenant } from '../../src/db/tenant.ts';
import type { AuthContext } from '../../src/http/key-checks.ts';
import { builtOperations } from '../../src/resources/index.ts';
import { setupApi, type TestApi } from '../harness/api.ts';
import { assertConforms, conformanceProblems } from '../harness/contract.ts';
import { scopeRefusalProblems } from '../security/scope-matrix.ts';

/** The scope whose check the pipeline "forgets" while set (a broken build); null = the real pipeline. */
const sabotage = vi.hoisted(() => ({ skipScope: null as string | null }));

vi.mock('../../src/http/key-checks.ts', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../src/http/key-checks.ts')>();
  return {
    ...real,
    requireScope: (auth: AuthContext, scope: string | null) => {
      if (scope !== null && scope === sabotage.skipScope) return;
      real.requireScope(auth, scope);
    },
  };
});

let api: TestApi;
let a: { companyId: string; key: string };
let b: { companyId: string; key: string };

beforeAll(async () => {
  api = await setupApi();
  a = await api.tenant();
  b = await api.tenant();
  for (const [tenant, names] of [
    [a, ['anna', 'bram']],
    [b, ['carla', 'daan', 'eva']],
  ] as const) {
    for (const name of names) {
      const res = await api.call('createCustomer', { key: tenant.key, body: { email: `${name}@example.nl`, name } });
      expect(res.status).toBe(201);
    }
  }
});

describe('(a) a response with a field of the wrong type', () => {
  it('is refused by the contract check of the test client', async () => {
    const real = await api.call('listCustomers', { key: a.key });
    const customer = real.body.data[0];
    // A broken handler for getCustomer: the real record, but `email_unsubscribed` as a string and `id` a number.
    const broken = new Hono();
    broken.get('/api/v1/customers/:customer', (c) =>
      c.json({ data: { ...customer, id: 42, email_unsubscribed: 'no' } }, 200, { 'X-Request-Id': 'req_broken' }),
    );
    const response = await broken.request(`http://api.test/api/v1/customers/${customer.id}`);
    const observed = { status: response.status, headers: response.headers, body: await response.json() };
    expect(() => assertConforms('getCustomer', observed)).toThrow(/outside the contract/);
    const problems = conformanceProblems('getCustomer', observed).join('\n');
    expect(problems).toMatch(/\/data\/id must be string/);
    expect(problems).toMatch(/\/data\/email_unsubscribed must be boolean/);

    // The same body from the real handler passes: the check refuses the mistake, not the record.
    const good = await api.call('getCustomer', { key: a.key, params: { customer: customer.id } });
    expect(conformanceProblems('getCustomer', good)).toEqual([]);
  });

  it('is refused for an undeclared status and a problem sent as plain JSON', () => {
    const headers = new Headers({ 'content-type': 'application/json', 'x-request-id': 'req_x' });
    expect(conformanceProblems('getCustomer', { status: 418, headers, body: {} })).toEqual([
      'status 418 is not declared for getCustomer',
    ]);
    const problem = { type: 'x', title: 'Not found', status: 404, code: 'not_found', request_id: 'req_x' };
    expect(conformanceProblems('getCustomer', { status: 404, headers, body: problem }).join()).toMatch(
      /content-type application\/json is not one of application\/problem\+json/,
    );
  });
});

describe('(b) an operation whose scope check is skipped', () => {
  const scoped = builtOperations.filter((id) => operations[id].scope !== null && operations[id].features.length === 0);
  const target: OperationId = 'listCustomers';

  it('fails the scope row of the security matrix', async () => {
    const scope = operations[target].scope as string;
    const { key } = await api.key(a.companyId, { scopes: ALL_SCOPES.filter((s) => s !== scope) });

    // The real pipeline: the matrix row holds.
    expect(await scopeRefusalProblems(api.call, target, key)).toEqual([]);

    sabotage.skipScope = scope;
    try {
      const problems = await scopeRefusalProblems(api.call, target, key);
      expect(problems).toEqual([`${target} without ${scope} answered 200 , expected 403 insufficient_scope`]);
    } finally {
      sabotage.skipScope = null;
    }
  });

  it('is caught for every built operation with a scope, whichever it is', async () => {
    expect(scoped.length).toBeGreaterThan(10);
    const caught: string[] = [];
    for (const id of scoped) {
      const scope = operations[id].scope as string;
      const { key } = await api.key(a.companyId, { scopes: ALL_SCOPES.filter((s) => s !== scope) });
      expect(await scopeRefusalProblems(api.call, id, key), id).toEqual([]);
      sabotage.skipScope = scope;
      try {
        if ((await scopeRefusalProblems(api.call, id, key)).length > 0) caught.push(id);
      } finally {
        sabotage.skipScope = null;
      }
    }
    expect(caught).toEqual(scoped);
  });
});

describe('(c) a query without the company filter', () => {
  it('sees only the tenant’s rows under row-level security, and would have leaked without it', async () => {
    const unfiltered = sql`select company_id::text as company_id, email from customers order by email`;

    const asTenant = await withTenant(api.db, a.companyId, (tx) => tx.execute(unfiltered));
    const tenantRows = [...asTenant] as { company_id: string; email: string }[];
    expect(tenantRows.map((r) => r.email)).toEqual(['anna@example.nl', 'bram@example.nl']);
    expect(new Set(tenantRows.map((r) => r.company_id))).toEqual(new Set([a.companyId]));

    // The same statement on the same pool as the table owner (no tenant role): every company's rows.
    const asOwner = [...(await api.db.execute(unfiltered))] as { company_id: string; email: string }[];
    expect(new Set(asOwner.map((r) => r.company_id))).toEqual(new Set([a.companyId, b.companyId]));
    expect(asOwner).toHaveLength(5);

    // And through the API, whose list query does filter: the same isolation from both sides.
    const listed = await api.call('listCustomers', { key: b.key });
    expect(listed.body.data.map((c: { email: string }) => c.email).sort()).toEqual([
      'carla@example.nl',
      'daan@example.nl',
      'eva@example.nl',
    ]);
  });

  it('refuses to write another company’s rows even when the statement names them', async () => {
    const sneaky = sql`update customers set name = 'overwritten' where company_id = ${b.companyId}`;
    const result = await withTenant(api.db, a.companyId, (tx) => tx.execute(sneaky));
    expect(result.count).toBe(0);
    const [row] = await api.sql`select count(*)::int as n from customers where name = 'overwritten'`;
    expect(row.n).toBe(0);
  });
});
