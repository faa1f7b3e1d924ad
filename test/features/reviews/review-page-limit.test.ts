// The review page's per-address window: each visit looks up (a POST locks) the request's row, so one address gets
// REVIEW_PAGE_WINDOWS' visits a minute and then a 429 page in its browser's language, with Retry-After and the
// RateLimit headers, without the request being looked up; another address is not held back.
import { beforeAll, describe, expect, it } from 'vitest';
import { REVIEW_PAGE_WINDOWS } from '../../../src/http/rate-limit.ts';
import { setupApi, type TestApi } from '../../harness/api.ts';

let api: TestApi;
let path: string;
let requestId: string;

beforeAll(async () => {
  // The test client's socket address is not known to app.request: a trusted proxy names each "visitor".
  api = await setupApi({ TRUSTED_PROXIES: '127.0.0.1' });
  const { key } = await api.tenant({ language: 'nl' });
  const res = await api.call('createReviewRequest', {
    key,
    body: { name: 'Sanne Visser', email: 'sanne@example.nl', channel: 'link', language: 'nl' },
  });
  expect(res.status).toBe(201);
  path = new URL(res.body.data.url).pathname;
  requestId = res.body.data.id;
});

const visit = (from: string, init: RequestInit = {}) =>
  api.app.request(`http://api.test${path}`, {
    ...init,
    headers: { 'x-forwarded-for': from, 'accept-language': 'de', ...init.headers },
  });

describe('GET /review/{token} from one address', () => {
  it(`answers ${REVIEW_PAGE_WINDOWS[0]?.limit} visits a minute, then 429 with Retry-After and no lookup`, async () => {
    const limit = REVIEW_PAGE_WINDOWS[0]?.limit ?? 0;
    expect(limit).toBeGreaterThan(0);
    for (let i = 0; i < limit; i++) {
      const res = await visit('203.0.113.7');
      expect(res.status).toBe(200);
      expect(res.headers.get('ratelimit')).toMatch(/^"review_pages";r=\d+;t=\d+$/);
      await res.arrayBuffer();
    }
    await api.sql`update review_requests set opened_at = null where id = ${requestId}`;
    const refused = await visit('203.0.113.7');
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(refused.headers.get('ratelimit')).toMatch(/^"review_pages";r=0;t=\d+$/);
    expect(refused.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await refused.text()).toContain('Zu viele Anfragen');
    // The refused visit did not reach the request (a visit marks it opened).
    const [row] = await api.sql`select opened_at from review_requests where id = ${requestId}`;
    expect(row?.opened_at).toBeNull();
    // A POST from that address is refused the same way; another address still gets the page.
    const post = await visit('203.0.113.7', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'http://api.test' },
      body: 'rating=5',
    });
    expect(post.status).toBe(429);
    expect((await visit('198.51.100.20')).status).toBe(200);
  });
});
