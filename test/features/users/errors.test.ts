// GET /users errors: key (401), scope users.read (403), and query validation (422).
import { beforeAll, describe, expect, it } from 'vitest';
import { setupApi, type TestApi } from '../../harness/api.ts';

let api: TestApi;
let key: string;
let companyId: string;

beforeAll(async () => {
  api = await setupApi();
  ({ key, companyId } = await api.tenant());
});

function expectParameterError(
  res: { status: number; body: { code: string; errors: unknown[] } },
  parameter: string,
  code: string,
) {
  expect(res.status).toBe(422);
  expect(res.body.code).toBe('validation_failed');
  expect(res.body.errors).toEqual([
    expect.objectContaining({ pointer: null, parameter, code, detail: expect.any(String) }),
  ]);
}

describe('listUsers errors', () => {
  it('answers 401 without a key', async () => {
    const res = await api.call('listUsers');
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('unauthenticated');
  });

  it('answers 403 insufficient_scope without users.read', async () => {
    const { key: noUsers } = await api.key(companyId, { scopes: ['customers.read', 'company.read'] });
    const res = await api.call('listUsers', { key: noUsers });
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('insufficient_scope');
    expect(res.body.required_scope).toBe('users.read');
  });

  it('answers 200 with only users.read', async () => {
    const { key: usersOnly } = await api.key(companyId, { scopes: ['users.read'] });
    const res = await api.call('listUsers', { key: usersOnly });
    expect(res.status).toBe(200);
  });

  it('answers 422 invalid_enum for an unknown status filter', async () => {
    const res = await api.call('listUsers', { key, query: { 'filter[status]': 'deleted' } });
    expectParameterError(res, 'filter[status]', 'invalid_enum');
  });

  it('answers 422 unknown_parameter for an unknown filter', async () => {
    const res = await api.call('listUsers', { key, query: { 'filter[role]': 'employee' } });
    expectParameterError(res, 'filter[role]', 'unknown_parameter');
  });

  it('answers 422 for a limit out of range or not a number', async () => {
    for (const limit of [0, 101, 'veel']) {
      const res = await api.call('listUsers', { key, query: { limit } });
      expect(res.status).toBe(422);
      expect(res.body.code).toBe('validation_failed');
      expect(res.body.errors).toEqual([expect.objectContaining({ pointer: null, parameter: 'limit' })]);
    }
  });

  it('answers 422 invalid_cursor for a damaged cursor or one of another sort order', async () => {
    const otherSort = Buffer.from(JSON.stringify({ s: '-created_at', v: ['2026-01-01T00:00:00.000Z', 'x'], d: 'n' }));
    for (const cursor of ['%%%', 'e30', otherSort.toString('base64url')]) {
      const res = await api.call('listUsers', { key, query: { cursor } });
      expectParameterError(res, 'cursor', 'invalid_cursor');
    }
  });
});
