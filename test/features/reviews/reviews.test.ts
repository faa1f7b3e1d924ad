// Reviews through the API: every sort and filter of the list, and get (404 for another company's).
import { beforeAll, describe, expect, it } from 'vitest';
import { setupApi, type TestApi } from '../../harness/api.ts';

let api: TestApi;

beforeAll(async () => {
  api = await setupApi();
});

/** A review as the web application or the review page stores it. */
async function reviewOf(
  companyId: string,
  r: { rating: number; source: string; status?: string; reviewedAt: string; updatedAt?: string },
) {
  const [row] = await api.sql<{ id: string }[]>`
    insert into reviews (company_id, id, status, hidden_reason, source, rating, comment, author_name, author_city,
      language, is_verified, consent_publish, reviewed_at, created_at, updated_at)
    values (${companyId}, ${crypto.randomUUID()}, ${r.status ?? 'published'}, ${r.status === 'hidden' ? 'spam' : null},
      ${r.source}, ${r.rating}, 'Prima', 'Fatima E.', 'Utrecht', 'nl', ${r.source === 'request'}, true,
      ${r.reviewedAt}, ${r.reviewedAt}, ${r.updatedAt ?? r.reviewedAt})
    returning id`;
  return row?.id as string;
}

describe('listReviews', () => {
  it('sorts by reviewed_at, created_at and updated_at both ways, and filters by status, source and rating', async () => {
    const { key, companyId } = await api.tenant();
    const a = await reviewOf(companyId, {
      rating: 5,
      source: 'request',
      reviewedAt: '2026-01-01T10:00:00Z',
      updatedAt: '2026-01-05T10:00:00Z',
    });
    const b = await reviewOf(companyId, {
      rating: 2,
      source: 'google',
      status: 'hidden',
      reviewedAt: '2026-01-02T10:00:00Z',
    });
    const c = await reviewOf(companyId, { rating: 5, source: 'manual', reviewedAt: '2026-01-03T10:00:00Z' });
    const ids = async (query: Record<string, string | number>) =>
      (await api.call('listReviews', { key, query })).body.data.map((r: { id: string }) => r.id);
    expect(await ids({})).toEqual([c, b, a]);
    expect(await ids({ sort: 'reviewed_at' })).toEqual([a, b, c]);
    expect(await ids({ sort: '-created_at' })).toEqual([c, b, a]);
    expect(await ids({ sort: 'created_at' })).toEqual([a, b, c]);
    expect(await ids({ sort: '-updated_at' })).toEqual([a, c, b]);
    expect(await ids({ sort: 'updated_at' })).toEqual([b, c, a]);
    expect(await ids({ 'filter[status]': 'hidden' })).toEqual([b]);
    expect(await ids({ 'filter[source]': 'request' })).toEqual([a]);
    expect(await ids({ 'filter[rating]': 5 })).toEqual([c, a]);
    const page = await api.call('listReviews', { key, query: { limit: 2 } });
    const next = await api.call('listReviews', { key, query: { limit: 2, cursor: page.body.meta.next_cursor } });
    expect(next.body.data.map((r: { id: string }) => r.id)).toEqual([a]);
  });

  it('getReview answers every field; another company’s review is 404', async () => {
    const { key, companyId } = await api.tenant();
    const id = await reviewOf(companyId, { rating: 4, source: 'request', reviewedAt: '2026-02-01T10:00:00Z' });
    const res = await api.call('getReview', { key, params: { review: id } });
    expect(res.body.data).toMatchObject({
      object: 'review',
      id,
      status: 'published',
      hidden_reason: null,
      rating: 4,
      author: { name: 'Fatima E.', city: 'Utrecht' },
      is_verified: true,
      reviewed_at: '2026-02-01T10:00:00.000Z',
    });
    const other = await api.tenant();
    expect((await api.call('getReview', { key: other.key, params: { review: id } })).status).toBe(404);
  });
});
