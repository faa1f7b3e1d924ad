// The demo company's key (CLI `demo`, and `npm start`'s first start through ensureDemo) is a full-access key
// like any other: it expires after 365 days unless `never` is asked for.
import { beforeAll, describe, expect, it } from 'vitest';
import { createDemo, ensureDemo } from '../../src/cli/demo.ts';
import { setupApi, type TestApi } from '../harness/api.ts';

let api: TestApi;

beforeAll(async () => {
  api = await setupApi();
});

const daysLeft = (expiresAt: string) => (Date.parse(expiresAt) - Date.now()) / 86_400_000;

describe('the demo key', () => {
  it('npm start’s first-start demo: a key that expires in 365 days, seen in GET /me; created once', async () => {
    const first = await ensureDemo(api.db, api.deps.fileStorages, api.deps.config.publicUrl);
    if (!first.created) throw new Error('the empty database got no demo');
    const me = await api.call('getMe', { key: first.key });
    expect(me.status).toBe(200);
    expect(me.body.data.expires_at).toBe(first.expiresAt?.toISOString());
    expect(daysLeft(me.body.data.expires_at)).toBeGreaterThan(364.9);
    expect(daysLeft(me.body.data.expires_at)).toBeLessThanOrEqual(365);
    expect(await ensureDemo(api.db, api.deps.fileStorages, api.deps.config.publicUrl)).toEqual({
      created: false,
      companyId: first.companyId,
    });
  });

  it('a key that cannot be created leaves no demo company behind (company, data and key in one transaction)', async () => {
    const companies = async () => (await api.sql`select count(*)::int as n from companies`)[0].n;
    const before = await companies();
    // An expiry the CLI would refuse: the key's insert fails after the company and its data were written.
    await expect(createDemo(api.db, 'someday' as '365d')).rejects.toThrow();
    expect(await companies()).toBe(before);
  });

  it('never expires only when asked', async () => {
    const demo = await createDemo(api.db, 'never');
    expect(demo.expiresAt).toBeNull();
    expect((await api.call('getMe', { key: demo.key })).body.data.expires_at).toBeNull();
  });
});
