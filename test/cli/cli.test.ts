// The operator CLI as operators run it: a child process on DATABASE_URL, one JSON object on stdout with
// --json, mistakes on stderr with a non-zero exit. What it writes is checked in the database and through an
// app on the same database. Each run costs ~2.5 s (tsx start-up), so the calls are few and shared.
import { randomBytes } from 'node:crypto';
import { resolve } from 'node:path';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { hashKey } from '../../src/auth/key-format.ts';
import { appOn } from '../harness/api.ts';
import { eventually } from '../harness/async.ts';
import { type CliRun, cliInProcess, cliProcess } from '../harness/cli.ts';
import { withDatabase } from '../harness/db.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const CLI_TIMEOUT = 60_000;
const KEY = /^svc_[0-9A-Za-z]{49}$/;

let database: { url: string; drop: () => Promise<void> };
let sql: postgres.Sql;
let app: Awaited<ReturnType<typeof appOn>> | undefined;

/** The app on the CLI's database, made on first use: it reads the database at start, so only after `migrate`. */
async function api() {
  app ??= await appOn(database.url, { TRUSTED_PROXIES: '127.0.0.1' });
  return app;
}

const cliEnv = () => ({ DATABASE_URL: database.url, REDIS_URL: '', LOG_LEVEL: 'silent' });
/** A command run in this process (harness/cli.ts); `cliProcess` where the process itself is what is tested. */
const cli = (...args: string[]) => cliInProcess(cliEnv(), ...args);

/** The one JSON object of a successful --json run. */
function json(run: CliRun) {
  expect(run.code, run.stderr).toBe(0);
  const lines = run.stdout.split('\n').filter(Boolean);
  expect(lines).toHaveLength(1);
  return JSON.parse(lines[0]);
}

/** GET /me with `key` from `ip` (the app trusts X-Forwarded-For from app.request()'s 127.0.0.1). */
async function me(key: string, ip = '10.1.2.3') {
  const result = await (await api()).call('getMe', { key, headers: { 'X-Forwarded-For': ip } });
  return { status: result.status, code: result.body?.code };
}

/** An empty database (not cloned from the migrated template), so that `migrate` has work to do. */
async function emptyDatabase() {
  const adminUrl = inject('pgAdminUrl');
  // Named like freshDatabase's, so the run's teardown drops it should this file not.
  const runPid = inject('templateDatabase').split('_').at(-1);
  const name = `crm_test_${runPid}_cli${randomBytes(4).toString('hex')}`;
  const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
  try {
    await admin.unsafe(`create database ${name}`);
  } finally {
    await admin.end();
  }
  return {
    url: withDatabase(adminUrl, name),
    drop: async () => {
      const a = postgres(adminUrl, { max: 1, onnotice: () => {} });
      try {
        await a.unsafe(`drop database if exists ${name} with (force)`);
      } finally {
        await a.end();
      }
    },
  };
}

beforeAll(async () => {
  database = await emptyDatabase();
  sql = postgres(database.url, { max: 2, onnotice: () => {} });
});

afterAll(async () => {
  await app?.close();
  await sql?.end();
  await database?.drop();
});

describe('operator CLI', { timeout: 4 * CLI_TIMEOUT }, () => {
  it('migrate --json migrates an empty database and prints exactly {"ok":true}', async () => {
    const tables = async () =>
      (
        await sql`select to_regclass('api_keys') is not null as keys, to_regclass('customers') is not null as customers`
      )[0];
    expect(await tables()).toEqual({ keys: false, customers: false });
    const run = await cliProcess(cliEnv(), CLI_TIMEOUT, 'migrate', '--json');
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toBe('{"ok":true}\n');
    expect(await tables()).toEqual({ keys: true, customers: true });
  });

  it('creates a company, a restricted key, renews it, revokes the renewal and suspends the company', async () => {
    const company = json(
      await cli(
        'company',
        'create',
        '--name',
        'Bakkerij Jansen',
        '--features',
        'pipeline,tasks',
        '--language',
        'de',
        '--json',
      ),
    );
    expect(company).toMatchObject({ name: 'Bakkerij Jansen', features: ['pipeline', 'tasks'], language: 'de' });
    expect(company.id).toMatch(/^[0-9a-f-]{36}$/);
    const [row] = await sql`select name, features, language, suspended_at from companies where id = ${company.id}`;
    expect(row).toEqual({
      name: 'Bakkerij Jansen',
      features: ['pipeline', 'tasks'],
      language: 'de',
      suspended_at: null,
    });

    const created = json(
      await cli(
        'key',
        'create',
        '--company',
        company.id,
        '--scopes',
        'read',
        '--expires-in',
        '30d',
        '--allow-ip',
        '10.0.0.0/8',
        '--json',
      ),
    );
    expect(created).toMatchObject({ company_id: company.id, allowed_ips: ['10.0.0.0/8'], revoked_at: null });
    expect(created.id).toEqual(expect.any(String));
    expect(created.key).toMatch(KEY);
    expect(created.key.startsWith(created.prefix)).toBe(true);
    expect(created.scopes.length).toBeGreaterThan(0);
    for (const scope of created.scopes) expect(scope).toMatch(/\.read$/);
    const days = (Date.parse(created.expires_at) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(29.9);
    expect(days).toBeLessThanOrEqual(30);
    // The row holds the printed key's hash and settings.
    const [stored] = await sql`select key_hash, prefix, scopes from api_keys where id = ${created.id}`;
    expect(stored).toEqual({ key_hash: hashKey(created.key), prefix: created.prefix, scopes: created.scopes });

    // The key works from an allowed address and only from there.
    expect(await me(created.key, '10.20.30.40')).toEqual({ status: 200, code: undefined });
    expect(await me(created.key, '203.0.113.9')).toEqual({ status: 403, code: 'ip_not_allowed' });

    const renewed = json(await cli('key', 'renew', created.id, '--overlap', 'none', '--json'));
    expect(renewed.key).toMatch(KEY);
    expect(renewed.key).not.toBe(created.key);
    expect(renewed).toMatchObject({ renewed_from_id: created.id, scopes: created.scopes, allowed_ips: ['10.0.0.0/8'] });
    const [old] = await sql`select revoked_at, revoked_at <= now() as over from api_keys where id = ${created.id}`;
    expect(old.revoked_at).not.toBeNull();
    expect(old.over).toBe(true);
    await eventually(async () => expect(await me(created.key)).toEqual({ status: 401, code: 'api_key_revoked' }));
    expect((await me(renewed.key)).status).toBe(200);

    const revoke = await cli('key', 'revoke', renewed.id);
    expect(revoke.code, revoke.stderr).toBe(0);
    expect(revoke.stdout).toContain(`Revoked key ${renewed.id}`);
    const [gone] = await sql`select revoked_at from api_keys where id = ${renewed.id}`;
    expect(gone.revoked_at).toBeInstanceOf(Date);
    await eventually(async () => expect(await me(renewed.key)).toEqual({ status: 401, code: 'api_key_revoked' }));

    const suspend = await cli('company', 'suspend', company.id);
    expect(suspend.code, suspend.stderr).toBe(0);
    expect(suspend.stdout).toContain(`Suspended Company ${company.id}`);
    const [suspended] = await sql`select suspended_at from companies where id = ${company.id}`;
    expect(suspended.suspended_at).toBeInstanceOf(Date);
  });

  it('company stages shows a new company’s default pipeline and replaces it from a JSON file', async () => {
    const company = json(
      await cli('company', 'create', '--name', 'Hoveniersbedrijf Groen', '--language', 'nl', '--json'),
    );
    const shown = json(await cli('company', 'stages', company.id, '--json'));
    expect(shown.stages.map((s: { name: string }) => s.name)).toEqual([
      'Nieuw',
      'Contact gelegd',
      'Offerte verstuurd',
      'Onderhandeling',
      'Gewonnen',
      'Verloren',
    ]);
    const file = resolve(ROOT, 'test/fixtures/pipeline-stages.json');
    const [replaced, notJson] = await Promise.all([
      cli('company', 'stages', company.id, '--file', file, '--json'),
      cli('company', 'stages', company.id, '--file', resolve(ROOT, 'test/fixtures/receiver-test.crt')),
    ]);
    const result = json(replaced);
    expect(result.stages.map((s: { name: string; type: string }) => `${s.name} ${s.type}`)).toEqual([
      'Aanvraag open',
      'Offerte open',
      'Opdracht won',
      'Afgewezen lost',
    ]);
    expect(result.stages[0]).toMatchObject({
      is_default: true,
      probability: '10.00',
      names: { en: 'Request', de: null },
    });
    expect(result.deleted_stage_ids).toEqual(shown.stages.map((s: { id: string }) => s.id));
    expect(notJson.code).toBe(2);
    expect(notJson.stderr).toContain('company stages: not JSON');
    const [{ n }] = await sql`select count(*)::int as n from pipeline_stages where company_id = ${company.id}`;
    expect(n).toBe(4);

    const limited = json(await cli('company', 'limits', company.id, '--per-minute', '100', '--json'));
    expect(limited.rate_limits).toEqual({ per_minute: 100, per_hour: null });
    const [row] = await sql`select rate_limit_per_minute, rate_limit_per_hour from companies where id = ${company.id}`;
    expect(row).toEqual({ rate_limit_per_minute: 100, rate_limit_per_hour: null });
  });

  it('demo --json prints one {company_id, key} line; the company has data of every kind and the key works', async () => {
    const run = await cli('demo', '--json');
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout.endsWith('\n')).toBe(true);
    expect(run.stdout.trimEnd().split('\n')).toHaveLength(1);
    const demo = JSON.parse(run.stdout);
    expect(Object.keys(demo).sort()).toEqual(['company_id', 'key']);
    expect(demo.key).toMatch(KEY);

    const [counts] = await sql`
      select
        (select count(*)::int from customers where company_id = ${demo.company_id}) as customers,
        (select count(*)::int from notes where company_id = ${demo.company_id}) as notes,
        (select count(*)::int from users where company_id = ${demo.company_id}) as users,
        (select count(*)::int from pipeline_stages where company_id = ${demo.company_id}) as stages,
        (select count(*)::int from deals where company_id = ${demo.company_id}) as deals,
        (select count(*)::int from task_boards where company_id = ${demo.company_id}) as boards,
        (select count(*)::int from task_statuses where company_id = ${demo.company_id}) as statuses,
        (select count(*)::int from events where company_id = ${demo.company_id}) as events`;
    for (const [table, n] of Object.entries(counts)) expect(n, table).toBeGreaterThan(0);
    expect(counts.customers).toBeGreaterThanOrEqual(10);
    // Deals in every state: open in several stages, won, lost with a reason, archived; and deal notes.
    const dealStates = await sql`
      select status, is_archived, count(distinct stage_id)::int as stages, count(lost_reason)::int as reasons
      from deals where company_id = ${demo.company_id} group by status, is_archived order by status, is_archived`;
    expect(dealStates.map((r) => `${r.status}${r.is_archived ? ' archived' : ''}`)).toEqual([
      'lost',
      'lost archived',
      'open',
      'open archived',
      'won',
      'won archived',
    ]);
    expect(dealStates.find((r) => r.status === 'open' && !r.is_archived)?.stages).toBeGreaterThanOrEqual(3);
    expect(dealStates.reduce((n, r) => n + r.reasons, 0)).toBeGreaterThan(0);
    const [dealNotes] = await sql`select count(*)::int as n from notes
                                  where company_id = ${demo.company_id} and parent_type = 'deal'`;
    expect(dealNotes.n).toBeGreaterThan(0);

    const result = await (await api()).call('getMe', { key: demo.key });
    expect(result.status).toBe(200);
    expect(result.body.data.company).toMatchObject({ id: demo.company_id, name: 'Installatiebedrijf Van Dijk' });
    // Like any key it expires, after 365 days unless `--expires-in never` is asked for (test/cli/demo.test.ts).
    const days = (Date.parse(result.body.data.expires_at) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(364.9);
    expect(days).toBeLessThanOrEqual(365);
  });

  it('refuses an unknown command and a bad argument: non-zero exit, message on stderr, nothing on stdout', async () => {
    const [unknown, badArgument, badExpiry, badLimit] = await Promise.all([
      cliProcess(cliEnv(), CLI_TIMEOUT, 'frobnicate', '--json'),
      cli('key', 'create', '--company', 'not-a-uuid', '--scopes', 'read', '--json'),
      cli('demo', '--expires-in', '1000y', '--json'),
      cli('company', 'limits', '0192f4a2-6c1e-7b3a-9d4f-2a8e5c7b1f30', '--per-hour', '0'),
    ]);
    expect(badLimit.code).toBe(2);
    expect(badLimit.stderr).toContain('--per-hour must be a whole number from 1, or default');
    expect(badExpiry.code).toBe(2);
    expect(badExpiry.stdout).toBe('');
    expect(badExpiry.stderr).toContain('demo: --expires-in must be one of 30d, 90d, 365d, never');
    expect(unknown.code).not.toBe(0);
    expect(unknown.stdout).toBe('');
    expect(unknown.stderr).toContain('unknown command "frobnicate"');
    expect(badArgument.code).not.toBe(0);
    expect(badArgument.stdout).toBe('');
    expect(badArgument.stderr).toContain('"not-a-uuid" is not a company id');
    // One line naming the mistake and where the usage is, not the 30-line usage itself.
    for (const run of [unknown, badArgument, badExpiry, badLimit]) {
      expect(run.stderr.trim().split('\n'), run.stderr).toHaveLength(1);
      expect(run.stderr).toMatch(/^error: .+ \(see npm run cli -- --help\)\n$/);
    }
  });

  it('company limits without --per-minute or --per-hour shows the limits in force and changes nothing', async () => {
    const company = json(await cli('company', 'create', '--name', 'Limits BV', '--json'));
    const shown = json(await cli('company', 'limits', company.id, '--json'));
    expect(shown.rate_limits).toEqual({ per_minute: null, per_hour: null });
    expect(shown.rate_limits_in_force).toEqual({ per_minute: 600, per_hour: 20_000 });
    await cli('company', 'limits', company.id, '--per-hour', '900', '--json');
    const text = await cli('company', 'limits', company.id);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toContain('in force:     per key 600/minute (default), 900/hour');
    expect(text.stdout).not.toContain('changed');
  });
});
