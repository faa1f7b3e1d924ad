// The company's changes to a review: reply (shown with the review), remove the reply, hide with a reason and publish
// again; ETag/If-Match, changes that change nothing, 404, the write scope, bad input.
import { beforeAll, describe, expect, it } from 'vitest';
import { setupApi, type TestApi } from '../../harness/api.ts';

let api: TestApi;
let key: string;
let companyId: string;

beforeAll(async () => {
  api = await setupApi();
  ({ key, companyId } = await api.tenant());
});

async function review() {
  const [row] = await api.sql<{ id: string }[]>`
    insert into reviews (company_id, id, source, rating, comment, author_name, author_city, language, is_verified,
      consent_publish)
    values (${companyId}, ${crypto.randomUUID()}, 'request', 4, 'Netjes gewerkt', 'Henk B.', 'Assen', 'nl', true, true)
    returning id`;
  return row?.id as string;
}

describe('replyToReview and deleteReviewReply', () => {
  it('sets the reply with replied_at, shows it with the review, replaces it, and removes it', async () => {
    const id = await review();
    const got = await api.call('getReview', { key, params: { review: id } });
    expect(got.headers.get('etag')).toBe('"1"');
    const res = await api.call('replyToReview', {
      key,
      params: { review: id },
      body: { reply: 'Dank je wel, Henk!' },
      headers: { 'if-match': '"1"' },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.headers.get('etag')).toBe('"2"');
    expect(res.body.data.reply).toBe('Dank je wel, Henk!');
    expect(Date.parse(res.body.data.replied_at)).toBeGreaterThan(Date.now() - 60_000);
    const listed = await api.call('listReviews', { key });
    expect(listed.body.data.find((r: { id: string }) => r.id === id)?.reply).toBe('Dank je wel, Henk!');
    // The same reply again changes nothing.
    const same = await api.call('replyToReview', {
      key,
      params: { review: id },
      body: { reply: 'Dank je wel, Henk!' },
    });
    expect(same.headers.get('etag')).toBe('"2"');
    expect(same.body.data.replied_at).toBe(res.body.data.replied_at);
    // An old version: 412, nothing changes.
    const stale = await api.call('replyToReview', {
      key,
      params: { review: id },
      body: { reply: 'Anders' },
      headers: { 'if-match': '"1"' },
    });
    expect(stale.status).toBe(412);
    const removed = await api.call('deleteReviewReply', { key, params: { review: id } });
    expect(removed.status).toBe(200);
    expect(removed.body.data).toMatchObject({ reply: null, replied_at: null });
    expect(removed.headers.get('etag')).toBe('"3"');
    const again = await api.call('deleteReviewReply', { key, params: { review: id } });
    expect(again.headers.get('etag')).toBe('"3"');
  });

  it('refuses an empty or too long reply (422) and an unknown review (404)', async () => {
    const id = await review();
    for (const reply of ['', 'x'.repeat(2001)]) {
      const res = await api.call('replyToReview', { key, params: { review: id }, body: { reply } });
      expect(res.status).toBe(422);
      expect(res.body.errors[0].pointer).toBe('/reply');
    }
    const extra = await api.call('replyToReview', { key, params: { review: id }, body: { reply: 'Ok', x: 1 } });
    expect(extra.status).toBe(422);
    const unknown = await api.call('replyToReview', {
      key,
      params: { review: crypto.randomUUID() },
      body: { reply: 'Ok' },
    });
    expect(unknown.status).toBe(404);
  });
});

describe('hideReview and publishReview', () => {
  it('hides with a reason, changes the reason, and publishes again', async () => {
    const id = await review();
    const hidden = await api.call('hideReview', { key, params: { review: id }, body: { hidden_reason: 'spam' } });
    expect(hidden.status, JSON.stringify(hidden.body)).toBe(200);
    expect(hidden.body.data).toMatchObject({ status: 'hidden', hidden_reason: 'spam' });
    const sameAgain = await api.call('hideReview', { key, params: { review: id }, body: { hidden_reason: 'spam' } });
    expect(sameAgain.headers.get('etag')).toBe(hidden.headers.get('etag'));
    const other = await api.call('hideReview', {
      key,
      params: { review: id },
      body: { hidden_reason: 'personal_data' },
    });
    expect(other.body.data.hidden_reason).toBe('personal_data');
    const filtered = await api.call('listReviews', { key, query: { 'filter[status]': 'hidden' } });
    expect(filtered.body.data.map((r: { id: string }) => r.id)).toContain(id);
    const published = await api.call('publishReview', { key, params: { review: id } });
    expect(published.status).toBe(200);
    expect(published.body.data).toMatchObject({ status: 'published', hidden_reason: null });
    const twice = await api.call('publishReview', { key, params: { review: id } });
    expect(twice.headers.get('etag')).toBe(published.headers.get('etag'));
  });

  it('refuses an unknown reason (422), needs reviews.write (403), and another company sees 404', async () => {
    const id = await review();
    const bad = await api.call('hideReview', { key, params: { review: id }, body: { hidden_reason: 'boring' } });
    expect(bad.status).toBe(422);
    const reader = await api.key(companyId, { scopes: ['reviews.read'] });
    const forbidden = await api.call('publishReview', { key: reader.key, params: { review: id } });
    expect(forbidden.status).toBe(403);
    const other = await api.tenant();
    const foreign = await api.call('hideReview', {
      key: other.key,
      params: { review: id },
      body: { hidden_reason: 'spam' },
    });
    expect(foreign.status).toBe(404);
  });
});
