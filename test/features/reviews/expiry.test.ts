// The expire_review_requests cron: open requests sent more than 30 days ago become expired; newer ones, and
// completed ones, stay as they are.
import type { JobHelpers } from 'graphile-worker';
import { beforeAll, describe, expect, it } from 'vitest';
import { CRONTAB, taskList } from '../../../src/jobs/worker.ts';
import { setupApi, type TestApi } from '../../harness/api.ts';

let api: TestApi;

beforeAll(async () => {
  api = await setupApi();
});

describe('expire_review_requests', () => {
  it('is scheduled hourly and expires only open requests older than 30 days', async () => {
    expect(CRONTAB).toContain('expire_review_requests');
    const { key } = await api.tenant();
    const make = async (name: string) =>
      (
        await api.call('createReviewRequest', {
          key,
          body: { name, email: `${crypto.randomUUID()}@example.nl`, channel: 'link' },
        })
      ).body.data.id as string;
    const old = await make('Oud');
    const fresh = await make('Nieuw');
    const done = await make('Klaar');
    await api.sql`update review_requests set sent_at = sent_at - interval '31 days' where id in (${old}, ${done})`;
    await api.sql`update review_requests set status = 'completed' where id = ${done}`;
    await taskList({ ...api.deps, config: api.config }).expire_review_requests({}, {} as JobHelpers);
    const status = async (id: string) =>
      (await api.call('getReviewRequest', { key, params: { review_request: id } })).body.data.status;
    expect(await status(old)).toBe('expired');
    expect(await status(fresh)).toBe('sent');
    expect(await status(done)).toBe('completed');
  });
});
