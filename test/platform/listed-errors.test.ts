// A problem lists at most 50 invalid inputs, then one `more_errors` item that says how many more: a 760 KB body of
// 70 000 unknown fields used to answer 7.8 MB listing every one (and 50 such requests took 1.36 GB).
import { beforeAll, describe, expect, it } from 'vitest';
import { MAX_LISTED_ERRORS } from '../../src/http/validation.ts';
import { setupApi, type TestApi } from '../harness/api.ts';

let api: TestApi;
let key: string;

beforeAll(async () => {
  api = await setupApi({ WEBHOOK_ALLOW_PRIVATE_URLS: 'true' });
  ({ key } = await api.tenant());
});

/** A body with `count` fields the contract does not have, besides `extra`. */
function unknownFields(count: number, extra: Record<string, unknown> = {}): Record<string, unknown> {
  const body: Record<string, unknown> = { ...extra };
  for (let i = 0; i < count; i++) body[`f${i}`] = 1;
  return body;
}

const more = (
  count: number,
  detail: string | RegExp = `${count.toLocaleString('en-GB')} more invalid inputs are not listed.`,
) => ({
  pointer: null,
  parameter: null,
  code: 'more_errors',
  detail,
});

describe('a body of 70 000 unknown fields', () => {
  it('is answered with the first 50 and one item that says how many more, not 7.8 MB', async () => {
    const body = unknownFields(70_000, { email: 'veel@example.nl' });
    expect(JSON.stringify(body).length).toBeGreaterThan(750_000);
    const res = await api.call('createCustomer', { key, body });
    expect(res.status).toBe(422);
    expect(res.body.code).toBe('unknown_field');
    expect(res.body.errors).toHaveLength(MAX_LISTED_ERRORS + 1);
    expect(res.body.errors.slice(0, 2)).toEqual([
      { pointer: '/f0', parameter: null, code: 'unknown_field', detail: 'This field is not accepted here.' },
      { pointer: '/f1', parameter: null, code: 'unknown_field', detail: 'This field is not accepted here.' },
    ]);
    expect(res.body.errors[MAX_LISTED_ERRORS - 1].pointer).toBe('/f49');
    expect(res.body.errors[MAX_LISTED_ERRORS]).toEqual(more(69_950));
    expect(JSON.stringify(res.body).length).toBeLessThan(10_000);
  });

  it('sent to an operation that takes no body, is answered the same way', async () => {
    const created = await api.call('createWebhookEndpoint', {
      key,
      body: { url: 'http://127.0.0.1:9/hook', events: ['customer.created'] },
    });
    const res = await api.call('deleteWebhookEndpoint', {
      key,
      params: { endpoint: created.body.data.id },
      body: unknownFields(70_000),
    });
    expect(res.status).toBe(422);
    expect(res.body.code).toBe('unknown_field');
    expect(res.body.errors).toHaveLength(MAX_LISTED_ERRORS + 1);
    expect(res.body.errors[MAX_LISTED_ERRORS]).toEqual(more(69_950));
  });
});

describe('the count', () => {
  it('50 invalid inputs are all listed, with no more item', async () => {
    const res = await api.call('createCustomer', { key, body: unknownFields(50, { email: 'vijftig@example.nl' }) });
    expect(res.body.errors).toHaveLength(50);
    expect(res.body.errors.map((e: { code: string }) => e.code)).not.toContain('more_errors');
  });

  it('counts the inputs of every part: the problem says the total, the last item the rest, in the language', async () => {
    // 30 unknown query parameters (the part zod-openapi checks first) and 40 unknown body fields.
    const query = Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`q${i}`, '1']));
    const res = await api.call('createCustomer', {
      key,
      query,
      body: unknownFields(40, { email: 'zeventig@example.nl' }),
      headers: { 'Accept-Language': 'nl' },
    });
    expect(res.status).toBe(422);
    expect(res.body.code).toBe('validation_failed');
    expect(res.body.detail).toBe('Het verzoek bevat 70 ongeldige invoerwaarden.');
    expect(res.body.errors).toHaveLength(MAX_LISTED_ERRORS + 1);
    expect(res.body.errors.filter((e: { parameter: string | null }) => e.parameter !== null)).toHaveLength(30);
    expect(res.body.errors[49].pointer).toBe('/f19');
    expect(res.body.errors[MAX_LISTED_ERRORS]).toEqual(
      more(20, 'Nog 20 ongeldige invoerwaarden staan niet in de lijst.'),
    );
  });
});
