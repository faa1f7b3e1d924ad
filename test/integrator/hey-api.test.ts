// A second, independent SDK generator compiles the contract: @hey-api/openapi-ts generates a client from
// generated/openapi.en.json into a temporary folder — its default output (TypeScript types, SDK, fetch client),
// and a second one with dates as Date objects (transformers) and zod validators of every request and answer —
// and the project's TypeScript checks both strictly, together with a small integrator's file that calls the
// first: SDK generators other than our own read the contract, and their types say what the contract says.
// (The second once failed: the contract's calendar-date schema was named `Date`, which became
// `export type Date = Date`, a type that refers to itself; it is `CalendarDate` since.)
import { execFile } from 'node:child_process';
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createClient } from '@hey-api/openapi-ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operations } from '../../generated/operations.ts';

const ROOT = resolve(import.meta.dirname, '../..');
let dir: string;

// What an integrator writes with the generated SDK; the @ts-expect-error lines fail the check if the types let a
// wrong call through (then they would be `unknown`, not the contract's).
const USAGE = `import { client } from './sdk/client.gen.js';
import { createCustomer, listCustomers, moveDeal, updateCustomer, type Customer } from './sdk/index.js';

client.setConfig({ baseUrl: 'http://127.0.0.1:3000/api/v1', headers: { Authorization: 'Bearer svc_...' } });

export async function journey(): Promise<Customer | undefined> {
  const created = await createCustomer({
    body: { email: 'eva@example.nl', name: 'Eva de Boer' },
    headers: { 'Idempotency-Key': '5f0c1e7a-8d2b-4c61-9e1f-3b7a2d9c4e80' },
  });
  const id: string | undefined = created.data?.data.id;
  await updateCustomer({ path: { customer: id ?? '' }, body: { phone: '+31 20 123 4567' }, headers: { 'If-Match': '"1"' } });
  const page = await listCustomers({ query: { limit: 3, cursor: 'abc' } });
  const next: string | null | undefined = page.data?.meta.next_cursor;
  await moveDeal({ path: { deal: id ?? '' }, body: { stage_id: 3 } });
  // @ts-expect-error stage_id is an integer
  await moveDeal({ path: { deal: 'x' }, body: { stage_id: '3' } });
  // @ts-expect-error a field the contract does not have
  await createCustomer({ body: { email: 'eva@example.nl', nmae: 'typo' } });
  // @ts-expect-error limit is a number
  await listCustomers({ query: { limit: 'many' } });
  return next === undefined ? undefined : created.data?.data;
}
`;

const TSCONFIG = {
  compilerOptions: {
    target: 'ES2022',
    // The fetch client's types need the DOM's fetch types (BodyInit), as in any TypeScript project using fetch.
    lib: ['ES2022', 'DOM', 'DOM.Iterable'],
    module: 'NodeNext',
    moduleResolution: 'NodeNext',
    strict: true,
    noEmit: true,
    noUnusedLocals: true,
    // As the project's own tsconfig: the libraries' declarations (zod's above all) are not what this proves, and
    // checking them took a third of the check; the README command's types are a source file here (api.ts).
    skipLibCheck: true,
    types: ['node'],
    typeRoots: [join(ROOT, 'node_modules/@types')],
    allowImportingTsExtensions: true,
  },
  include: ['sdk', 'sdk-dates', 'usage.ts', 'ots'],
};

/**
 * README's openapi-typescript command (its flags as printed) run on the bundle, the typed client (src/client) over
 * the types it made, and README's example of that client: at openapi-typescript's defaults alone, request fields
 * with a default are required and `{ email, name }` does not compile.
 */
async function readmeOpenapiTypescript(readme: string) {
  const command = /^npx openapi-typescript (\S+) (.*) -o (\S+)$/m.exec(readme);
  if (!command) throw new Error('README shows no openapi-typescript command');
  const flags = (command[2] ?? '').split(' ').filter(Boolean);
  const out = join(dir, 'ots');
  const bin = join(ROOT, 'node_modules/openapi-typescript/bin/cli.js');
  await new Promise<void>((done, fail) =>
    execFile(
      process.execPath,
      [bin, join(ROOT, 'generated/openapi.en.json'), ...flags, '-o', join(out, 'api.d.ts')],
      { timeout: 120_000 },
      (error, _stdout, stderr) => (error ? fail(new Error(`${error.message}\n${stderr}`)) : done()),
    ),
  );
  // Checked as a source file: skipLibCheck (TSCONFIG) passes over a .d.ts.
  renameSync(join(out, 'api.d.ts'), join(out, 'api.ts'));
  // The client's files beside those types (the SDK part keeps the package's own generated files).
  mkdirSync(join(out, 'client'));
  for (const file of readdirSync(join(ROOT, 'src/client')).filter((f) => f.endsWith('.ts'))) {
    const source = readFileSync(join(ROOT, 'src/client', file), 'utf8')
      .replace("'../../generated/api.d.ts'", "'../api.ts'")
      .replace(
        /'\.\.\/\.\.\/generated\/(client-[\w-]+(?:\.d)?\.ts)'/g,
        (_, name) => `'${join(ROOT, 'generated', name)}'`,
      );
    writeFileSync(join(out, 'client', file), source);
  }
  const example = /```ts\n(import \{[^}]+\} from 'crm-workflow-service\/client';[\s\S]*?)```/.exec(readme)?.[1];
  if (!example) throw new Error('README shows no example of the typed client');
  writeFileSync(
    join(out, 'readme-example.mts'),
    example.replace("'crm-workflow-service/client'", "'./client/index.ts'"),
  );
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'crm-hey-api-'));
  await createClient({
    input: join(ROOT, 'generated/openapi.en.json'),
    output: { path: join(dir, 'sdk') },
    logs: { level: 'silent', file: false },
  });
  await createClient({
    input: join(ROOT, 'generated/openapi.en.json'),
    output: { path: join(dir, 'sdk-dates') },
    logs: { level: 'silent', file: false },
    plugins: [
      '@hey-api/client-fetch',
      '@hey-api/typescript',
      { name: '@hey-api/transformers', dates: true },
      { name: '@hey-api/sdk', transformer: true, validator: true },
      'zod',
    ],
  });
  // The zod validators import zod: the project's.
  symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'), 'dir');
  writeFileSync(join(dir, 'usage.ts'), USAGE);
  mkdirSync(join(dir, 'ots'));
  await readmeOpenapiTypescript(readFileSync(join(ROOT, 'README.md'), 'utf8'));
  writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify(TSCONFIG, null, 2));
}, 120_000);

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('@hey-api/openapi-ts from the contract', () => {
  it('generates one SDK function per operation, named by its operationId', () => {
    const sdk = readFileSync(join(dir, 'sdk/sdk.gen.ts'), 'utf8');
    const ids = Object.keys(operations);
    expect(ids.length).toBeGreaterThanOrEqual(100);
    const missing = ids.filter((id) => !new RegExp(`export const ${id} = `).test(sdk));
    expect(missing).toEqual([]);
    // The base URL comes from the contract's first server.
    expect(readFileSync(join(dir, 'sdk/client.gen.ts'), 'utf8')).toContain("baseUrl: 'http://127.0.0.1:3000/api/v1'");
  });

  it('names no type after a JavaScript built-in (with dates as Date objects, they are the global Date)', () => {
    const types = readFileSync(join(dir, 'sdk-dates/types.gen.ts'), 'utf8');
    const builtIns = [
      'Date',
      'Object',
      'Array',
      'String',
      'Number',
      'Boolean',
      'Error',
      'Map',
      'Set',
      'Promise',
      'File',
    ];
    const declared = [...types.matchAll(/^export type (\w+) =/gm)].map((m) => m[1]);
    expect(declared.filter((name) => builtIns.includes(name))).toEqual([]);
    // Timestamps (created_at, …) and calendar dates are the global Date, which a type named `Date` would shadow.
    expect(types).toContain('export type Timestamp = Date;');
    expect(types).toContain('export type CalendarDate = Date;');
  });

  it('type-checks strictly with the project’s TypeScript, and its types refuse calls the contract refuses; README’s typed-client example compiles over the types of README’s openapi-typescript command', async () => {
    const tsc = join(ROOT, 'node_modules/typescript/bin/tsc');
    const result = await new Promise<{ code: number; out: string }>((done) => {
      execFile(process.execPath, [tsc, '-p', dir], { timeout: 240_000 }, (error, stdout, stderr) => {
        done({ code: error ? (typeof error.code === 'number' ? error.code : -1) : 0, out: stdout + stderr });
      });
    });
    expect(result.out).toBe('');
    expect(result.code).toBe(0);
  }, 250_000);
});
