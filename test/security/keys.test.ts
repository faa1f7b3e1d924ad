// API keys: revocation reaches every process's key cache at once, renewal overlaps, and the checksum
// refuses a mistyped key before any database lookup.
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { generateKey, isWellFormedKey, KEY_LENGTH } from '../../src/auth/key-format.ts';
import { renewKey, revokeKey } from '../../src/services/keys.ts';
import { setupApi, type TestApi } from '../harness/api.ts';
import { eventually } from '../harness/async.ts';

let api: TestApi;
let companyId: string;
let failures = 0;
/** Each refused request from its own address, so the per-address limit of failed authentications stays out of the way. */
const fresh = () => ({ 'X-Forwarded-For': `203.0.113.${++failures % 250}` });

beforeAll(async () => {
  api = await setupApi({ TRUSTED_PROXIES: '127.0.0.1' });
  companyId = (await api.company()).id;
});

afterEach(() => {
  vi.restoreAllMocks();
});

async function expectRefused(key: string, code: string, call = api.call) {
  const result = await call('getMe', { key, headers: fresh() });
  expect({ status: result.status, code: result.body.code }).toEqual({ status: 401, code });
}

async function expectAccepted(key: string, call = api.call) {
  const result = await call('getMe', { key });
  expect(result.status).toBe(200);
  return result;
}

describe('revocation', () => {
  it('refuses a cached key on the next request after revocation', async () => {
    const { key, id } = await api.key(companyId);
    await expectAccepted(key); // now in the key cache
    const find = vi.spyOn(api.deps.keys, 'find');
    await expectAccepted(key);
    expect(find).toHaveBeenCalledTimes(1);
    await revokeKey(api.db, id);
    await expectRefused(key, 'api_key_revoked');
  });

  it('does not cache a key read just before its revocation was announced', async () => {
    const { key, id } = await api.key(companyId);
    const store = api.deps.keys as unknown as { load: (hash: Buffer) => Promise<unknown> };
    const load = store.load.bind(store);
    vi.spyOn(store, 'load').mockImplementationOnce(async (hash) => {
      const stale = await load(hash); // read while the key is still valid
      await revokeKey(api.db, id);
      await new Promise((r) => setTimeout(r, 200)); // its NOTIFY arrives before the lookup finishes
      return stale;
    });
    await expectAccepted(key); // the request that raced with the revocation
    await expectRefused(key, 'api_key_revoked');
  });

  it('refuses it in another API process within a second (LISTEN/NOTIFY empties its cache)', async () => {
    const other = await api.otherProcess();
    const { key, id } = await api.key(companyId);
    await expectAccepted(key, other.call); // warms the other process's cache
    await expectAccepted(key, other.call);
    const started = Date.now();
    await revokeKey(api.db, id);
    await eventually(() => expectRefused(key, 'api_key_revoked', other.call));
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it('a revocation announced while the listening connection was lost counts once it listens again', async () => {
    const { key, id } = await api.key(companyId);
    await expectAccepted(key); // cached
    // Revoked with no NOTIFY, as when the announcement is sent while nobody listens.
    await api.sql.begin(async (tx) => {
      await tx`alter table api_keys disable trigger api_keys_notify`;
      await tx`update api_keys set revoked_at = now() where id = ${id}`;
      await tx`alter table api_keys enable trigger api_keys_notify`;
    });
    await expectAccepted(key); // the cache has not heard of it
    await api.sql`select pg_terminate_backend(pid) from pg_stat_activity
      where datname = current_database() and query ilike 'listen%' and pid <> pg_backend_pid()`;
    await eventually(() => expectRefused(key, 'api_key_revoked'), 5000);
  });

  it('refuses a suspended company in another process too', async () => {
    const other = await api.otherProcess();
    const company = await api.company();
    const { key } = await api.key(company.id);
    await expectAccepted(key, other.call);
    await api.sql`update companies set suspended_at = now() where id = ${company.id}`;
    await eventually(async () => {
      const result = await other.call('getMe', { key });
      expect({ status: result.status, code: result.body.code }).toEqual({ status: 403, code: 'account_suspended' });
    });
  });
});

describe('renewal', () => {
  it('gives a new key with the same settings; the old one works during the overlap', async () => {
    const old = await api.key(companyId, { scopes: ['customers.read'] });
    await expectAccepted(old.key);
    const renewed = await renewKey(api.db, old.id, '1h');
    expect(renewed.key).not.toBe(old.key);
    const fromNew = await expectAccepted(renewed.key);
    expect(fromNew.body.data.id).toBe(renewed.row.id);
    expect(fromNew.body.data.scopes).toEqual(['customers.read']);
    const fromOld = await expectAccepted(old.key);
    expect(fromOld.body.data.id).toBe(old.id);

    const [row] =
      await api.sql`select revoked_at > now() + interval '59 minutes' as later from api_keys where id = ${old.id}`;
    expect(row.later).toBe(true);

    // After the overlap the old key counts as revoked.
    await api.sql`update api_keys set revoked_at = now() - interval '1 second' where id = ${old.id}`;
    await eventually(() => expectRefused(old.key, 'api_key_revoked'));
    await expectAccepted(renewed.key);
  });

  it('with overlap none refuses the old key at once', async () => {
    const old = await api.key(companyId);
    await expectAccepted(old.key);
    const renewed = await renewKey(api.db, old.id, 'none');
    await expectRefused(old.key, 'api_key_revoked');
    await expectAccepted(renewed.key);
  });

  it('cannot renew a key again while its overlap runs: its end never moves', async () => {
    const old = await api.key(companyId);
    await renewKey(api.db, old.id, '1h');
    const [before] = await api.sql`select revoked_at from api_keys where id = ${old.id}`;
    await expect(renewKey(api.db, old.id, '7d')).rejects.toThrow(/renewed already/);
    const [after] = await api.sql`select revoked_at from api_keys where id = ${old.id}`;
    expect(after.revoked_at).toEqual(before.revoked_at);
  });

  it('revoking a revoked key keeps the time it was revoked', async () => {
    const old = await api.key(companyId);
    await revokeKey(api.db, old.id);
    const [first] = await api.sql`select revoked_at from api_keys where id = ${old.id}`;
    await new Promise((r) => setTimeout(r, 20));
    await revokeKey(api.db, old.id);
    const [again] = await api.sql`select revoked_at from api_keys where id = ${old.id}`;
    expect(again.revoked_at).toEqual(first.revoked_at);
  });

  it('cannot renew a revoked key', async () => {
    const old = await api.key(companyId);
    await revokeKey(api.db, old.id);
    await expect(renewKey(api.db, old.id, '1h')).rejects.toThrow(/revoked/);
  });
});

describe('key format and checksum', () => {
  it('generates svc_ + 49 base62 characters that pass the checksum', () => {
    expect(KEY_LENGTH).toBe(53);
    const generated = new Set(Array.from({ length: 200 }, generateKey));
    expect(generated.size).toBe(200);
    for (const key of generated) {
      expect(key).toMatch(/^svc_[0-9A-Za-z]{49}$/);
      expect(isWellFormedKey(key)).toBe(true);
    }
  });

  it('refuses every single-character change of a key', () => {
    const key = generateKey();
    const alphabet = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_';
    let changes = 0;
    for (let i = 0; i < key.length; i++) {
      for (const c of alphabet) {
        if (c === key[i]) continue;
        const changed = `${key.slice(0, i)}${c}${key.slice(i + 1)}`;
        expect(isWellFormedKey(changed), changed).toBe(false);
        changes++;
      }
    }
    expect(changes).toBe(53 * 62);
    expect(isWellFormedKey(key.slice(0, -1))).toBe(false);
    expect(isWellFormedKey(`${key}a`)).toBe(false);
  });

  it('answers a mistyped key with invalid_api_key without looking it up', async () => {
    const { key } = await api.key(companyId);
    const find = vi.spyOn(api.deps.keys, 'find');
    for (let i = 0; i < key.length; i++) {
      const c = key[i] === 'x' ? 'y' : 'x';
      await expectRefused(`${key.slice(0, i)}${c}${key.slice(i + 1)}`, 'invalid_api_key');
    }
    expect(find).not.toHaveBeenCalled();
    // A well-formed key that does not exist is looked up, and refused the same way.
    await expectRefused(generateKey(), 'invalid_api_key');
    expect(find).toHaveBeenCalledTimes(1);
  });

  it('stores only a hash of the key', async () => {
    const { key, id } = await api.key(companyId);
    const [row] = await api.sql`select * from api_keys where id = ${id}`;
    expect(JSON.stringify(row)).not.toContain(key.slice(4));
    expect(row.prefix).toBe(key.slice(0, 8));
    expect(Buffer.from(row.key_hash).length).toBe(32);
  });
});
