// `customers import FILE.csv|FILE.jsonl --company ID` as operators run it (a child process on DATABASE_URL): the
// lines go through the batch upsert (created, updated by email, failed lines reported with their line numbers,
// exit code 1 when any failed), with their events; a progress bar on stderr. A malformed CSV line fails alone; a
// line naming an email address an earlier line named fails wherever it stands; --atomic imports all or nothing.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { estimateLeft } from '../../src/cli/customers-import.ts';
import { setupApi, type TestApi } from '../harness/api.ts';
import { cliInProcess } from '../harness/cli.ts';

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

/** A command run in this process (harness/cli.ts). */
const cli = (...args: string[]) => cliInProcess({ DATABASE_URL: api.url, REDIS_URL: '', LOG_LEVEL: 'silent' }, ...args);

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
    expect(run.code, run.stderr).toBe(1);
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
    expect(second.code, second.stderr).toBe(1);
    expect(second.stdout).toContain('4 line(s); 1 created, 1 updated, 1 unchanged, 1 failed.');
    expect(second.stdout).toContain('line 3: (line): The line is not valid JSON. (invalid_json)');
    expect(await customer('klant1@csv.example.nl')).toMatchObject({ name: 'Klant Een' });
  });

  it('reports a malformed CSV line and a duplicate far apart, imports the rest; --atomic imports nothing', async () => {
    const rows = ['email,name,city'];
    for (let i = 1; i <= 260; i++) {
      if (i === 21) rows.push('kapot@csv2.example.nl,Kapot,Delft,een kolom te veel');
      // The same address as line 3 of the file, 200 lines (two batches) later, in another case.
      else if (i === 202) rows.push('KLANT2@csv2.example.nl,Overschreven,Leiden');
      else rows.push(`klant${i}@csv2.example.nl,Klant ${i},Delft`);
    }
    const file = join(dir, 'malformed.csv');
    writeFileSync(file, `${rows.join('\n')}\n`);

    const other = await api.tenant();
    const atomic = await cli('customers', 'import', file, '--company', other.companyId, '--atomic', '--json');
    expect(atomic.code, atomic.stderr).toBe(1);
    expect(JSON.parse(atomic.stdout)).toMatchObject({ lines: 260, created: 0, failed: 2, rolled_back: true });
    const none = await api.sql`select count(*)::int as n from customers where company_id = ${other.companyId}`;
    expect(none[0]?.n).toBe(0);

    const run = await cli('customers', 'import', file, '--company', companyId, '--json');
    expect(run.code, run.stderr).toBe(1);
    const report = JSON.parse(run.stdout);
    expect(report).toMatchObject({ lines: 260, created: 258, failed: 2, rolled_back: false });
    expect(report.failures).toEqual([
      {
        line: 22,
        errors: [{ field: null, code: 'invalid_csv', detail: expect.stringContaining('Invalid Record Length') }],
      },
      {
        line: 203,
        errors: [
          {
            field: 'email',
            code: 'duplicate_in_batch',
            detail: 'Line 3 of the file already names this customer or email address.',
          },
        ],
      },
    ]);
    // The first line's customer is kept, not overwritten by the later duplicate.
    expect(await customer('klant2@csv2.example.nl')).toMatchObject({ name: 'Klant 2', city: 'Delft' });
    expect(await customer('klant260@csv2.example.nl')).toMatchObject({ name: 'Klant 260' });
  });

  it('estimates the time left from the pace of the whole run', () => {
    // 17 % done after 10 s: about 49 s to go, whatever the last few lines took.
    expect(estimateLeft(10, 17, 100)).toBe('49s');
    expect(estimateLeft(60, 25, 100)).toBe('3m 00s');
    expect(estimateLeft(0, 0, 100)).toBe('?');
  });

  it('refuses a file that is neither .csv nor .jsonl', async () => {
    const run = await cli('customers', 'import', join(dir, 'customers.txt'), '--company', companyId);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('must end in .csv or .jsonl');
  });
});
