import { beforeAll, describe, expect, it } from 'vitest';
import { type Operation, type OperationId, operations } from '../../generated/operations.ts';
import { ALL_SCOPES } from '../../src/auth/scopes.ts';
import { FEATURES, setSubscription, suspendCompany } from '../../src/services/companies.ts';
import { revokeKey } from '../../src/services/keys.ts';
import { setupApi, type TestApi } from '../harness/api.ts';
import { request, scopeRefusalProblems } from './scope-matrix.ts';

const authenticated = (Object.entries(operations) as [OperationId, Operation][]).filter(([, op]) => op.authenticated);
const scoped = authenticated.filter(([, op]) => op.scope !== null);
const featured = authenticated.filter(([, op]) => op.features.length > 0);

/** Failed authentications are limited per client address; each operation's 401s come from its own. */
const failureAddress = (index: number) => ({ 'X-Forwarded-For': `198.51.100.${index % 250}` });
const indexOf = (id: OperationId) => authenticated.findIndex(([other]) => other === id);

/** Changes one character of the key's random part (keeps the alphabet). */
const typo = (key: string) => `${key.slice(0, 10)}${key[10] === 'a' ? 'b' : 'a'}${key.slice(11)}`;

let api: TestApi;
const keys = {} as Record<'valid' | 'revoked' | 'expired' | 'allowV4' | 'allowV6' | 'suspended' | 'inactive', string>;
const withoutScope = new Map<string, string>();
const withoutFeature = new Map<string, string>();

beforeAll(async () => {
  api = await setupApi({ TRUSTED_PROXIES: '127.0.0.1' });
  const company = await api.company();
  keys.valid = (await api.key(company.id)).key;
  const revoked = await api.key(company.id);
  await revokeKey(api.db, revoked.id);
  keys.revoked = revoked.key;
  const expired = await api.key(company.id);
  await api.sql`update api_keys set expires_at = now() - interval '1 minute' where id = ${expired.id}`;
  keys.expired = expired.key;
  keys.allowV4 = (await api.key(company.id, { allowedIps: ['10.1.2.0/24'] })).key;
  keys.allowV6 = (await api.key(company.id, { allowedIps: ['2001:db8::/32'] })).key;

  const suspended = await api.company();
  await suspendCompany(api.db, suspended.id);
  keys.suspended = (await api.key(suspended.id)).key;
  const inactive = await api.company();
  await setSubscription(api.db, inactive.id, false);
  keys.inactive = (await api.key(inactive.id)).key;

  for (const scope of new Set(scoped.map(([, op]) => op.scope as string))) {
    withoutScope.set(scope, (await api.key(company.id, { scopes: ALL_SCOPES.filter((s) => s !== scope) })).key);
  }
  for (const features of new Set(featured.map(([, op]) => op.features.join(',')))) {
    const lacking = await api.company({ features: FEATURES.filter((f) => !features.split(',').includes(f)) });
    withoutFeature.set(features, (await api.key(lacking.id)).key);
  }
});

function expectProblem(
  result: {
    status: number;
    headers: Headers;
    body: { code: string; status: number; type: string; request_id: string };
  },
  status: number,
  code: string,
) {
  expect({ status: result.status, code: result.body.code }).toEqual({ status, code });
  expect(result.body.status).toBe(status);
  expect(result.body.type).toBe(`http://api.test/errors/${code}`);
  expect(result.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  expect(result.headers.get('x-request-id')).toMatch(/^req_/);
  expect(result.body.request_id).toBe(result.headers.get('x-request-id'));
}

function expect401Headers(headers: Headers) {
  // 401s (and the 403s of a key's address or account) report the per-address window of failed authentications.
  expect(headers.get('ratelimit')).toMatch(/^"auth";r=\d+;t=\d+$/);
  expect(headers.get('ratelimit-policy')).toBe('"auth";q=60;w=60');
}

describe.each(authenticated)('%s', (id) => {
  const from = () => failureAddress(indexOf(id));

  it('answers 401 unauthenticated without Authorization', async () => {
    const result = await api.call(...request(id, null, { headers: from() }));
    expectProblem(result, 401, 'unauthenticated');
    expect401Headers(result.headers);
  });

  it('answers 401 before looking at the query: an unknown parameter does not change it', async () => {
    const anonymous = await api.call(...request(id, null, { headers: from(), query: { zz_unknown: '1' } }));
    expectProblem(anonymous, 401, 'unauthenticated');
    const mistyped = await api.call(...request(id, typo(keys.valid), { headers: from(), query: { zz_unknown: '1' } }));
    expectProblem(mistyped, 401, 'invalid_api_key');
  });

  it('answers 401 unauthenticated for another scheme', async () => {
    const result = await api.call(
      ...request(id, null, { headers: { ...from(), authorization: `Basic ${Buffer.from('a:b').toString('base64')}` } }),
    );
    expectProblem(result, 401, 'unauthenticated');
  });

  it('answers 401 invalid_api_key for a mistyped key', async () => {
    const result = await api.call(...request(id, typo(keys.valid), { headers: from() }));
    expectProblem(result, 401, 'invalid_api_key');
    expect401Headers(result.headers);
  });

  it('answers 401 api_key_revoked for a revoked key', async () => {
    const result = await api.call(...request(id, keys.revoked, { headers: from() }));
    expectProblem(result, 401, 'api_key_revoked');
    expect401Headers(result.headers);
  });

  it('answers 401 api_key_expired for an expired key', async () => {
    const result = await api.call(...request(id, keys.expired, { headers: from() }));
    expectProblem(result, 401, 'api_key_expired');
    expect401Headers(result.headers);
  });

  // Refusals of a key's address or account count per client address like failed authentications (not against
  // the key): each operation's come from its own addresses, and report that window.
  it('answers 403 ip_not_allowed from an address outside the allowlist', async () => {
    const index = indexOf(id);
    const outside = await api.call(...request(id, keys.allowV4, { headers: from() }));
    expectProblem(outside, 403, 'ip_not_allowed');
    expect401Headers(outside.headers);
    const near = { 'X-Forwarded-For': `10.1.3.${index % 250}` };
    expectProblem(await api.call(...request(id, keys.allowV4, { headers: near })), 403, 'ip_not_allowed');
    const v6 = { 'X-Forwarded-For': `2001:db9::${index.toString(16)}` };
    expectProblem(await api.call(...request(id, keys.allowV6, { headers: v6 })), 403, 'ip_not_allowed');
  });

  it('admits an allowlisted IPv4 or IPv6 address (behind a trusted proxy)', async () => {
    for (const [key, address] of [
      [keys.allowV4, '10.1.2.7'],
      [keys.allowV6, '2001:db8::5'],
    ]) {
      const result = await api.call(...request(id, key, { headers: { 'X-Forwarded-For': address } }));
      // Past the key checks: whatever the operation answers next (200, 404, 422, 501), not 401/403.
      expect([401, 403, 429]).not.toContain(result.status);
      expect(result.headers.get('ratelimit')).toMatch(/^"minute";r=\d+;t=\d+$/);
    }
  });

  it('answers 403 account_suspended for a suspended company', async () => {
    expectProblem(await api.call(...request(id, keys.suspended, { headers: from() })), 403, 'account_suspended');
  });

  it('answers 403 subscription_inactive without an active subscription', async () => {
    expectProblem(await api.call(...request(id, keys.inactive, { headers: from() })), 403, 'subscription_inactive');
  });
});

describe.each(scoped)('%s without its scope', (id, op) => {
  it(`answers 403 insufficient_scope naming ${op.scope}`, async () => {
    const key = withoutScope.get(op.scope as string) as string;
    expect(await scopeRefusalProblems(api.call, id, key)).toEqual([]);
    expectProblem(await api.call(...request(id, key)), 403, 'insufficient_scope');
    // The same key is let through by every other scope check: the refusal is about this scope only.
    const other = scoped.find(([, o]) => o.scope !== op.scope && o.features.length === 0);
    if (other) expect((await api.call(...request(other[0], key))).status).not.toBe(403);
  });
});

describe.each(featured)('%s without its feature', (id, op) => {
  it(`answers 403 feature_not_available without ${op.features.join(' or ')}`, async () => {
    const result = await api.call(...request(id, withoutFeature.get(op.features.join(',')) as string));
    expectProblem(result, 403, 'feature_not_available');
  });
});

describe('a direct client (no proxy)', () => {
  // Once, not per operation: every direct request comes from the socket's 127.0.0.1, whose window all would share.
  it('is judged by the socket address: 403 ip_not_allowed outside the allowlist', async () => {
    const [[id]] = authenticated;
    expectProblem(await api.call(...request(id, keys.allowV4)), 403, 'ip_not_allowed');
  });
});

describe('the matrix itself', () => {
  it('covers every authenticated operation of the table', () => {
    // The operations without a key, each with a credential of its own or none, limited per client address: the
    // signed download, the widget's public visitor API (test/features/files,
    // test/features/conversations/widget-api.test.ts), the WhatsApp webhook's verify token and body signature and
    // an inbound-mail relay's secret (test/features/conversations/*-inbound.test.ts), the public review feed and
    // widget (test/features/reviews), and a payment provider's webhook, named by the company's webhook token
    // (test/features/invoices/online-payments.test.ts).
    const channels = ['verifyWhatsAppWebhook', 'receiveWhatsAppWebhook', 'receiveInboundEmail', 'receiveMollieWebhook'];
    const keyless = (Object.keys(operations) as OperationId[]).filter((id) => !operations[id].authenticated);
    for (const id of keyless)
      expect(
        id === 'downloadFile' || channels.includes(id) || /^\/(widget|public)\//.test(operations[id].path),
        id,
      ).toBe(true);
    expect(keyless).toEqual(expect.arrayContaining(['downloadFile', ...channels]));
    expect(authenticated.length).toBe(Object.keys(operations).length - keyless.length);
  });

  it('lets the full-access key through to every operation', async () => {
    for (const [id] of authenticated) {
      const result = await api.call(...request(id, keys.valid));
      expect([401, 403, 429], id).not.toContain(result.status);
    }
  });

  it('admits one more feature when any one of several suffices (inbox: chat_widget, email or whatsapp)', async () => {
    const only = await api.company({ features: ['whatsapp'] });
    const { key } = await api.key(only.id);
    const result = await api.call(...request('listConversations', key));
    expect(result.status).toBe(200);
  });
});
