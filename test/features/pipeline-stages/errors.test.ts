// listPipelineStages refuses a damaged cursor, unknown parameters, a key without deals.read and a company
// without the pipeline feature.
import { beforeAll, describe, expect, it } from 'vitest';
import { FEATURES } from '../../../src/services/companies.ts';
import { setupApi, type TestApi } from '../../harness/api.ts';
import { pipelineOf } from '../deals/fixtures.ts';

let api: TestApi;
let key: string;
let companyId: string;

beforeAll(async () => {
  api = await setupApi();
  ({ key, companyId } = await api.tenant());
  await pipelineOf(api, companyId);
});

const cursor = (v: unknown[]) => Buffer.from(JSON.stringify({ s: 'position', v, d: 'n' })).toString('base64url');

describe('listPipelineStages errors', () => {
  it.each([
    ['a sort parameter', { sort: 'name' }, 'sort'],
    ['a filter', { 'filter[type]': 'won' }, 'filter[type]'],
    ['limit 0', { limit: 0 }, 'limit'],
    ['a damaged cursor', { cursor: 'nope' }, 'cursor'],
    ['a cursor with a position that is not an integer', { cursor: cursor(['x', '1']) }, 'cursor'],
    ['a cursor with a position out of range', { cursor: cursor([99999999999, '1']) }, 'cursor'],
    ['a cursor with an id that is not an integer', { cursor: cursor([1, 'abc']) }, 'cursor'],
    [
      'a cursor of another list',
      {
        cursor: Buffer.from(JSON.stringify({ s: '-created_at', v: ['2026-01-01T00:00:00Z', 'x'], d: 'n' })).toString(
          'base64url',
        ),
      },
      'cursor',
    ],
  ])('%s: 422 validation_failed', async (_name, query, parameter) => {
    const res = await api.call('listPipelineStages', { key, query });
    expect(res.status).toBe(422);
    expect(res.body.code).toBe('validation_failed');
    expect(res.body.errors).toEqual([expect.objectContaining({ parameter })]);
  });

  it('403 insufficient_scope without deals.read', async () => {
    const k = (await api.key(companyId, { scopes: ['customers.read'] })).key;
    const res = await api.call('listPipelineStages', { key: k });
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ code: 'insufficient_scope', required_scope: 'deals.read' });
  });

  it('403 feature_not_available without the pipeline feature', async () => {
    const without = await api.tenant({ features: FEATURES.filter((f) => f !== 'pipeline') });
    const res = await api.call('listPipelineStages', { key: without.key });
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('feature_not_available');
  });
});
