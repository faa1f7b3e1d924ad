// The demo company's reviews: published (verified through a request, and typed in), answered and hidden, so that
// GET /reviews, its filters and the public feed of the demo show what the feature does.
import { beforeAll, expect, it } from 'vitest';
import { createDemo } from '../../../src/cli/demo.ts';
import { setChannelSettings } from '../../../src/services/channel-settings.ts';
import { setupApi, type TestApi } from '../../harness/api.ts';

let api: TestApi;

beforeAll(async () => {
  api = await setupApi();
});

type Listed = {
  status: string;
  hidden_reason: string | null;
  reply: string | null;
  is_verified: boolean;
  source: string;
};

it('the demo has published, hidden and answered reviews, each told in the event log', async () => {
  const { key, companyId } = await createDemo(api.db);
  const list = await api.call('listReviews', { key, query: { limit: 50 } });
  expect(list.status).toBe(200);
  const reviews: Listed[] = list.body.data;
  expect(reviews.filter((r) => r.status === 'published').length).toBeGreaterThanOrEqual(3);
  expect(reviews.filter((r) => r.status === 'hidden').map((r) => r.hidden_reason)).toEqual(['spam']);
  expect(reviews.filter((r) => r.reply !== null).length).toBeGreaterThanOrEqual(1);
  expect(new Set(reviews.map((r) => r.source))).toEqual(new Set(['request', 'manual']));
  expect(reviews.filter((r) => r.is_verified).every((r) => r.source === 'request')).toBe(true);

  const hidden = await api.call('listReviews', { key, query: { 'filter[status]': 'hidden' } });
  expect(hidden.body.data).toHaveLength(1);
  const created = await api.call('listEvents', { key, query: { 'filter[type]': 'review.created', limit: 50 } });
  expect(created.status).toBe(200);
  expect(created.body.data).toHaveLength(reviews.length);

  // The public feed shows the published ones only.
  const { widgetId } = (await setChannelSettings(api.db, companyId, {})).row;
  const feed = await api.call('listPublishedReviews', { params: { widget_id: widgetId }, query: { limit: 50 } });
  expect(feed.status).toBe(200);
  expect(feed.body.data).toHaveLength(reviews.filter((r) => r.status === 'published').length);
});
