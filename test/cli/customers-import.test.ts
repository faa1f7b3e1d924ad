// `customers import FILE.csv|FILE.jsonl --company ID` as operators run it (a child process on DATABASE_URL): the
// lines go through the batch upsert (created, updated by email, failed lines reported with their line numbers),
// with their events; a progress bar on stderr.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setupApi, type TestApi } from '../harness/api.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const TSX = resolve(ROOT, 'node_modules/.bin/tsx');
const CLI_TIMEOUT = 120_000;

let api: TestApi;
let companyId: string;
let dir: string;

beforeAll(async () => {
  api = await setupApi();
  ({ companyId } = await api.tenant());
  dir = mkdtempSync(join(tmpdir(), 'customers-import-'));
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

type Run = { code: number; stdout: string; stderr: string };
function cli(...args: string[]): Promise<Run> {
  return new Promise((done) => {
    execFile(
      TSX,
      ['src/cli/main.ts', ...args],
      {
        cwd: ROOT,
        timeout: CLI_TIMEOUT,
        env: { ...process.env, DATABASE_URL: api.url, REDIS_URL: '', LOG_LEVEL: 'silent' },
      },
      (error, stdout, stderr) =>
        done({ code: error ? (typeof error.code === 'number' ? error.code : -1) : 0, stdout, stderr }),
    );
  });
}

const customer = async (email: string) =>
  (
    await api.sql`select name, city, type from customers where company_id = ${companyId} and email_lower = lower(${email})`
  )[0];

describe('customers import', { timeout: 3 * CLI_TIMEOUT }, () => {
  it('imports a CSV of 250 lines in batches, reports the failed lines, and updates on a second run', async () => {
    const rows = ['email,name,city,type'];
    for (let i = 1; i <= 250; i++) {
      if (i === 7) rows.push('not-an-email,Kapot,Delft,individual');
      else if (i === 120) rows.push(`klant${i}@csv.example.nl,"Bakker, ""De Korst""",Gouda,shop`);
      else rows.push(`klant${i}@csv.example.nl,Klant ${i},${i % 2 ? 'Delft' : ''},individual`);
    }
    const file = join(dir, 'customers.csv');
    writeFileSync(file, `${rows.join('\n')}\n`);
    const run = await cli('customers', 'import', file, '--company', companyId, '--json');
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain('customers import [');
    const report = JSON.parse(run.stdout);
    expect(report).toMatchObject({ company_id: companyId, lines: 250, created: 248, updated: 0, failed: 2 });
    // Line numbers of the file (the header is line 1).
    expect(report.failures).toEqual([
      { line: 8, errors: [{ field: 'email', code: 'invalid_format', detail: expect.any(String) }] },
      { line: 121, errors: [{ field: 'type', code: 'invalid_enum', detail: expect.any(String) }] },
    ]);
    expect(await customer('klant1@csv.example.nl')).toEqual({ name: 'Klant 1', city: 'Delft', type: 'individual' });
    // An empty cell is a field left out: null for a new customer.
    expect(await customer('klant2@csv.example.nl')).toMatchObject({ city: null });
    const events =
      await api.sql`select count(*)::int as n from events where company_id = ${companyId} and type = 'customer.created'`;
    expect(events[0]?.n).toBe(248);

    // Again as JSON Lines, by email in another case: updates, unchanged lines, a line that is no JSON.
    const jsonl = join(dir, 'customers.jsonl');
    writeFileSync(
      jsonl,
      [
        JSON.stringify({ email: 'KLANT1@csv.example.nl', name: 'Klant Een' }),
        JSON.stringify({ email: 'klant3@csv.example.nl', name: 'Klant 3' }),
        '{not json',
        '',
        JSON.stringify({ email: 'nieuw@csv.example.nl' }),
      ].join('\n'),
    );
    const second = await cli('customers', 'import', jsonl, '--company', companyId);
    expect(second.code, second.stderr).toBe(0);
    expect(second.stdout).toContain('4 line(s); 1 created, 1 updated, 1 unchanged, 1 failed.');
    expect(second.stdout).toContain('line 3: (line): The line is not valid JSON. (invalid_json)');
    expect(await customer('klant1@csv.example.nl')).toMatchObject({ name: 'Klant Een' });
  });

  it('refuses a file that is neither .csv nor .jsonl', async () => {
    const run = await cli('customers', 'import', join(dir, 'customers.txt'), '--company', companyId);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('must end in .csv or .jsonl');
  });
});
