// The addresses a newcomer tries first — the service's root, the API's root and /errors — answer a short JSON
// pointer to the reference, the contract, the error pages and GET /me (no key needed), not a 404.
import { beforeAll, expect, it } from 'vitest';
import { setupApi, type TestApi } from '../harness/api.ts';

let api: TestApi;

beforeAll(async () => {
  api = await setupApi();
});

it.each([
  '/',
  '/api/v1',
  '/api/v1/',
  '/errors',
])('GET %s points to /docs, the contract and /api/v1/me', async (path) => {
  const res = await api.app.request(`http://api.test${path}`);
  expect(res.status).toBe(200);
  expect(await res.json()).toMatchObject({
    object: 'pointer',
    docs: 'http://api.test/docs',
    contract: 'http://api.test/api/v1/openapi.json',
    errors: 'http://api.test/errors/{code}',
    me: 'http://api.test/api/v1/me',
  });
});

it('an address of nothing still answers 404, and an API path without a key 401', async () => {
  expect((await api.app.request('http://api.test/nothing-here')).status).toBe(404);
  expect((await api.app.request('http://api.test/api/v1/customers')).status).toBe(401);
});
