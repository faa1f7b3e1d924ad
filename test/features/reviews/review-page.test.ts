// The customer's review page over HTTP (the browser test drives it in Chromium): opening marks the request opened,
// a valid form creates one verified review and completes the request, a second answer is refused (also two sent
// at once), forms without their token and cookie or from another site are refused, errors are shown next to the
// fields, expired and unknown links get their own page and status, never a stack trace.
import { beforeAll, describe, expect, it } from 'vitest';
import { setupApi, type TestApi } from '../../harness/api.ts';

let api: TestApi;
let key: string;
let companyId: string;

beforeAll(async () => {
  api = await setupApi();
  ({ key, companyId } = await api.tenant({ language: 'nl' }));
});

async function newRequest(language: 'nl' | 'en' | 'de' | 'fr' = 'nl') {
  const res = await api.call('createReviewRequest', {
    key,
    body: { name: 'Sanne Visser', email: `${crypto.randomUUID()}@example.nl`, channel: 'link', language },
  });
  expect(res.status).toBe(201);
  return { id: res.body.data.id as string, path: new URL(res.body.data.url).pathname };
}

/** Opens the page like a browser: the form's token and the cookie it set. */
async function open(path: string) {
  const res = await api.app.request(`http://api.test${path}`);
  const html = await res.text();
  const token = /name="form_token" value="([^"]+)"/.exec(html)?.[1] ?? '';
  const cookie = (res.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
  return { res, html, token, cookie };
}

function submit(path: string, form: Record<string, string>, headers: Record<string, string> = {}) {
  return api.app.request(`http://api.test${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'http://api.test', ...headers },
    body: new URLSearchParams(form).toString(),
  });
}

const answer = {
  rating: '4',
  comment: 'Prima service, snel geleverd.',
  name: 'Sanne V.',
  city: 'Zwolle',
  consent: 'yes',
};

const requestOf = async (id: string) =>
  (await api.call('getReviewRequest', { key, params: { review_request: id } })).body.data;

describe('the review page', () => {
  it('GET shows the form in the request language, accessibly, and marks the request opened', async () => {
    const { id, path } = await newRequest('de');
    const { res, html, token, cookie } = await open(path);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(res.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.headers.get('referrer-policy')).toBe('same-origin');
    expect(html).toContain('<html lang="de">');
    expect(html).toContain('Ihre Bewertung');
    expect(html).toContain('<legend>');
    for (const field of ['comment', 'name', 'city', 'consent']) expect(html).toContain(`for="${field}"`);
    expect(html.match(/type="radio"/g)).toHaveLength(5);
    expect(html).not.toMatch(/<script|<link|src="http/);
    expect(token).toMatch(/^\d+\./);
    expect(cookie).toMatch(/^review_form=/);
    expect(res.headers.get('set-cookie')).toMatch(/HttpOnly/);
    expect(res.headers.get('set-cookie')).toMatch(/SameSite=Strict/);
    const request = await requestOf(id);
    expect(request.status).toBe('opened');
    expect(request.opened_at).not.toBeNull();
  });

  it('POST creates one verified review, completes the request, and a second POST is refused with 409', async () => {
    const { id, path } = await newRequest();
    const { token, cookie } = await open(path);
    const res = await submit(path, { ...answer, form_token: token }, { cookie });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe(path);
    const thanks = await api.app.request(`http://api.test${path}`);
    expect(thanks.status).toBe(200);
    expect(await thanks.text()).toContain('We hebben uw review ontvangen');
    const request = await requestOf(id);
    expect(request).toMatchObject({ status: 'completed' });
    expect(request.completed_at).not.toBeNull();
    const review = await api.call('getReview', { key, params: { review: request.review_id } });
    expect(review.body.data).toMatchObject({
      source: 'request',
      is_verified: true,
      rating: 4,
      comment: answer.comment,
      author: { name: 'Sanne V.', city: 'Zwolle' },
      consent_publish: true,
      language: 'nl',
      status: 'published',
    });
    // review.created and review_request.completed, readable with a key that may read events and reviews only.
    const reader = await api.key(companyId, { scopes: ['events.read', 'reviews.read'] });
    for (const [type, object] of [
      ['review.created', review.body.data],
      // The page link is a write credential: events, readable with reviews.read, carry it as null.
      ['review_request.completed', { ...request, url: null }],
    ] as const) {
      const events = await api.call('listEvents', { key: reader.key, query: { 'filter[type]': type, limit: 100 } });
      expect(events.status).toBe(200);
      expect(
        events.body.data.filter((e: { data: { object: { id: string } } }) => e.data.object.id === object.id),
      ).toEqual([expect.objectContaining({ type, data: { object } })]);
    }
    const again = await submit(path, { ...answer, form_token: token }, { cookie });
    expect(again.status).toBe(409);
    expect(await again.text()).toContain('al beantwoord');
    const count = await api.sql`select count(*)::int as n from reviews where id = ${request.review_id}`;
    expect(count[0]?.n).toBe(1);
  });

  it('two POSTs at the same moment make one review: the other gets 409', async () => {
    const { id, path } = await newRequest();
    const { token, cookie } = await open(path);
    const results = await Promise.all([
      submit(path, { ...answer, form_token: token }, { cookie }),
      submit(path, { ...answer, form_token: token }, { cookie }),
      submit(path, { ...answer, form_token: token }, { cookie }),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual([303, 409, 409]);
    const reviews = await api.sql`select r.id from reviews r join review_requests q
      on q.company_id = r.company_id and q.review_id = r.id where q.id = ${id}`;
    expect(reviews).toHaveLength(1);
  });

  it('refuses a form without the token, without the cookie, with another request token, or from another site (403)', async () => {
    const { id, path } = await newRequest();
    const { token, cookie } = await open(path);
    const other = await newRequest();
    const otherForm = await open(other.path);
    const refusals = [
      await submit(path, answer, { cookie }),
      await submit(path, { ...answer, form_token: token }),
      await submit(path, { ...answer, form_token: otherForm.token }, { cookie: otherForm.cookie }),
      await submit(path, { ...answer, form_token: `${token.slice(0, -2)}xx` }, { cookie }),
      await submit(path, { ...answer, form_token: token }, { cookie, origin: 'https://evil.example' }),
      await submit(path, { ...answer, form_token: token }, { cookie, 'sec-fetch-site': 'cross-site' }),
    ];
    for (const res of refusals) expect(res.status).toBe(403);
    expect(await refusals[0]?.text()).toContain('Open de pagina opnieuw');
    expect((await requestOf(id)).status).toBe('opened');
    const notForm = await api.app.request(`http://api.test${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie },
      body: JSON.stringify({ ...answer, form_token: token }),
    });
    expect(notForm.status).toBe(415);
  });

  it('refuses the form’s valid token with another form’s cookie (403): the token is bound to its cookie', async () => {
    const { id, path } = await newRequest();
    const { token, cookie } = await open(path);
    expect(token).not.toBe('');
    // The same page opened again (a second tab: a new cookie) and another request's page.
    const again = await open(path);
    const other = await open((await newRequest()).path);
    expect(again.cookie).not.toBe(cookie);
    for (const otherCookie of [again.cookie, other.cookie]) {
      const res = await submit(path, { ...answer, form_token: token }, { cookie: otherCookie });
      expect(res.status).toBe(403);
    }
    expect((await requestOf(id)).status).toBe('opened');
    // The token with its own cookie is accepted, so the refusals above were the cookie's.
    const ok = await submit(path, { ...answer, form_token: token }, { cookie });
    expect(ok.status).toBe(303);
  });

  it('shows errors next to the fields (422) and keeps what was typed', async () => {
    const { id, path } = await newRequest('fr');
    const { token, cookie } = await open(path);
    const res = await submit(path, { rating: '7', comment: 'Très bien', name: ' ', form_token: token }, { cookie });
    expect(res.status).toBe(422);
    const html = await res.text();
    expect(html).toContain('role="alert"');
    expect(html).toContain('Choisissez une note de 1 à 5 étoiles.');
    expect(html).toContain('Saisissez votre nom.');
    expect(html).toContain('aria-invalid="true"');
    expect(html).toContain('Très bien');
    expect((await requestOf(id)).status).toBe('opened');
    const fixed = await submit(path, { ...answer, form_token: token }, { cookie });
    expect(fixed.status).toBe(303);
  });

  it('an expired request gets 410 (also when the cron has not run yet), an unknown link 404', async () => {
    const { id, path } = await newRequest('en');
    await api.sql`update review_requests set sent_at = sent_at - interval '31 days' where id = ${id}`;
    const res = await api.app.request(`http://api.test${path}`);
    expect(res.status).toBe(410);
    expect(await res.text()).toContain('This link has expired');
    expect((await requestOf(id)).status).toBe('expired');
    const post = await submit(path, answer);
    expect(post.status).toBe(410);
    for (const unknown of [
      '/review/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA',
      `${path.slice(0, -4)}AAAA`,
      '/review/nonsense',
    ]) {
      const page = await api.app.request(`http://api.test${unknown}`);
      expect(page.status).toBe(404);
      const text = await page.text();
      expect(text).toContain('This link is not valid.');
      expect(text).not.toMatch(/at .*\.ts:\d+/);
      expect((await submit(unknown, answer)).status).toBe(404);
    }
  });
});
