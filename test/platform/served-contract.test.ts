import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { operations } from '../../generated/operations.ts';
import { inRoutesDocument } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import { contractJson } from '../../src/http/docs.ts';
import { API_PREFIX } from '../../src/http/pipeline.ts';
import { takesUpload } from '../../src/http/upload.ts';
import { builtOperations, notImplementedOperations } from '../../src/resources/index.ts';
import { setupApi, type TestApi } from '../harness/api.ts';
import { contractOperations } from '../harness/contract.ts';
import { wellFormedParams } from '../harness/path-params.ts';

const bundled = readFileSync(new URL('../../generated/openapi.en.json', import.meta.url), 'utf8');
/** The contract's operations as `METHOD /path` → operationId. */
const contractRoutes = new Map(
  contractOperations().map((o) => [`${o.method.toUpperCase()} ${o.path}`, o.operation.operationId]),
);
const allIds = [...contractRoutes.values()].sort();

let api: TestApi;

beforeAll(async () => {
  api = await setupApi();
});

describe('GET /api/v1/openapi.json', () => {
  it('serves the bundled English contract without a key', async () => {
    const response = await api.app.request(`http://api.test${API_PREFIX}/openapi.json`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    const served = await response.json();
    // The bundle, but for `servers` and the problem examples' `type`: the service's own public address (below).
    const own = JSON.parse(bundled.replaceAll('https://crm.example.com', 'http://api.test'));
    expect({ ...served, servers: undefined }).toEqual({ ...own, servers: undefined });
  });

  it('points the problem examples at this installation’s error pages and writes them in the contract’s language', async () => {
    const response = await api.app.request(`http://api.test${API_PREFIX}/openapi.json?lang=de`);
    const text = await response.text();
    expect(text).not.toContain('crm.example.com');
    const problems: { type: string; code: string; title: string; detail?: string }[] = [];
    const walk = (node: unknown): void => {
      if (Array.isArray(node)) for (const item of node) walk(item);
      else if (node && typeof node === 'object') {
        const record = node as Record<string, unknown>;
        if (typeof record.type === 'string' && typeof record.code === 'string' && typeof record.status === 'number')
          problems.push(record as (typeof problems)[number]);
        for (const value of Object.values(record)) walk(value);
      }
    };
    walk(JSON.parse(text));
    expect(problems.length).toBeGreaterThan(20);
    for (const problem of problems) expect(problem.type).toBe(`http://api.test/errors/${problem.code}`);
    expect(problems.map((p) => p.title)).toContain('Validierung fehlgeschlagen');
    expect(problems.map((p) => p.detail)).toContain('Die Anfrage enthält 1 ungültige Eingabe.');
    expect(problems.map((p) => p.detail)).not.toContain('The request has 1 invalid input.');
    const docs = await (await api.app.request('http://api.test/docs/fr')).text();
    expect(docs).toContain('La requête contient 1 entrée invalide.');
    expect(docs).not.toContain('crm.example.com');
  });

  it('lists the service’s public address in servers, not the bundle’s local default: PUBLIC_URL, else PORT', async () => {
    const response = await api.app.request(`http://api.test${API_PREFIX}/openapi.json?lang=nl`);
    expect((await response.json()).servers).toEqual([{ url: 'http://api.test/api/v1' }]);
    const docs = await api.app.request('http://api.test/docs/de');
    expect(await docs.text()).toContain('"url": "http://api.test/api/v1"');
    expect(JSON.parse(contractJson('en', loadConfig({ PORT: '4567' }).publicUrl).json).servers).toEqual([
      { url: 'http://127.0.0.1:4567/api/v1' },
    ]);
    expect(
      JSON.parse(contractJson('fr', loadConfig({ PUBLIC_URL: 'https://crm.bakker.nl/', PORT: '4567' }).publicUrl).json)
        .servers,
    ).toEqual([{ url: 'https://crm.bakker.nl/api/v1' }]);
  });
});

describe('the registered routes', () => {
  /** Distinct `METHOD /path` of the app under /api/v1 (a route with validators is listed once per layer). */
  const registered = () =>
    new Set(
      api.app.routes
        .filter((r) => r.path.startsWith(`${API_PREFIX}/`) && r.method !== 'ALL')
        .filter((r) => r.path !== `${API_PREFIX}/openapi.json`)
        // The pointer to the docs and the contract at /api/v1/ (as at / and /errors): no operation of the contract.
        .filter((r) => r.path !== `${API_PREFIX}/`)
        .map((r) => `${r.method} ${r.path.slice(API_PREFIX.length).replace(/:(\w+)/g, '{$1}')}`),
    );

  it('are the contract’s operations, each exactly once: nothing missing, nothing extra', () => {
    const routes = [...registered()].sort();
    expect(routes).toEqual([...contractRoutes.keys()].sort());
    expect(routes).toHaveLength(Object.keys(operations).length);
  });

  it('agree with the generated operation table', () => {
    for (const [id, op] of Object.entries(operations)) {
      expect(contractRoutes.get(`${op.method.toUpperCase()} ${op.path}`), id).toBe(id);
      expect(op.honoPath.replace(/:(\w+)/g, '{$1}'), id).toBe(op.path);
    }
  });

  it('are built or listed as not implemented, never both, never neither', () => {
    const built = [...builtOperations].sort();
    const pending = [...notImplementedOperations].sort();
    expect(built.filter((id) => pending.includes(id as (typeof notImplementedOperations)[number]))).toEqual([]);
    expect([...built, ...pending].sort()).toEqual(allIds);
    expect(new Set(built).size).toBe(built.length);
    expect(new Set(pending).size).toBe(pending.length);
  });

  it('document the built operations with the contract’s method, path and operationId (round trip)', () => {
    const doc = api.app.getOpenAPI31Document({ openapi: '3.1.0', info: { title: 'round trip', version: '1' } });
    const documented = new Map<string, string>();
    for (const [path, item] of Object.entries(doc.paths ?? {})) {
      for (const [method, operation] of Object.entries(item as Record<string, { operationId?: string }>)) {
        if (!operation?.operationId) continue;
        expect(path.startsWith(API_PREFIX), path).toBe(true);
        const route = `${method.toUpperCase()} ${path.slice(API_PREFIX.length)}`;
        expect(documented.has(route), route).toBe(false);
        documented.set(route, operation.operationId);
      }
    }
    // Uploads, raw bodies, binary answers and keyless operations are served but not in the routes' own document.
    const listed = builtOperations.filter(inRoutesDocument);
    expect([...documented.values()].sort()).toEqual([...listed].sort());
    for (const [route, id] of documented) expect(contractRoutes.get(route), route).toBe(id);
  });

  it('answer the not-implemented operations with 501 after authentication', async () => {
    const { key } = await api.tenant();
    for (const id of notImplementedOperations) {
      const op = operations[id];
      if (!op.authenticated) continue;
      const params = wellFormedParams(id);
      const result = await api.call(id, { key, params, ...(op.hasBody ? { body: {} } : {}) });
      if (takesUpload(id)) continue; // the body's gate (415) answers first: see the conventions test
      expect({ id, status: result.status, code: result.body.code }).toEqual({
        id,
        status: 501,
        code: 'not_implemented',
      });
    }
  });

  it('answer the built operations with something other than 501', async () => {
    const { key } = await api.tenant();
    for (const id of builtOperations) {
      const op = operations[id];
      const params = Object.fromEntries(
        [...op.path.matchAll(/\{(\w+)\}/g)].map(([, name]) => [name, '0192f4a2-6c1e-7b3a-9d4f-2a8e5c7b1f30']),
      );
      const result = await api.call(id, { key, params, ...(op.hasBody ? { body: {} } : {}) });
      expect(result.status, id).not.toBe(501);
    }
  });
});
