// The client package as an integrator gets it: `npm run build:client` packs it, the tarball is installed with npm
// into an empty folder outside the clone, and every TypeScript example of the README the package carries (its
// guide and its generated list of every method) is compiled there under `--strict`; the quick start then runs,
// compiled, with plain Node against the service started as `npm start` runs it. Then verifyWebhook checks a
// message signed with the Standard Webhooks library the package installed, with headers as node:http, Express,
// Fastify, Hono and the Fetch API give them.
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningService, startService } from './service.ts';

const run = promisify(execFile);
const ROOT = resolve(import.meta.dirname, '../..');
let service: RunningService;
let folder: string;

let app: string;
let packed: { tarball: string; readme: string; files: string[] };

beforeAll(async () => {
  folder = mkdtempSync(join(tmpdir(), 'crm-integrator-'));
  app = join(folder, 'app');
  // The service starts while the package is built, installed and its examples compiled.
  const started = startService();
  const built = packInstallCompile().catch(async (error: unknown) => {
    await (await started.catch(() => undefined))?.stop();
    throw error;
  });
  [service, packed] = await Promise.all([started, built]);
}, 180_000);

afterAll(async () => {
  await service?.stop();
  if (folder) rmSync(folder, { recursive: true, force: true });
});

type Example = { section: string; code: string };

/** Every ```ts block of a README with the `## ` section it stands in. */
function examplesOf(readme: string): Example[] {
  const examples: Example[] = [];
  let section = '';
  for (const part of readme.split(/^(?=## |```ts\n)/m)) {
    const heading = /^## (.+)$/m.exec(part);
    if (part.startsWith('## ') && heading) section = heading[1];
    const code = /^```ts\n([\s\S]*?)^```/m.exec(part)?.[1];
    if (code !== undefined) examples.push({ section, code });
  }
  return examples;
}

const TSCONFIG = {
  compilerOptions: {
    target: 'ES2022',
    module: 'NodeNext',
    moduleResolution: 'NodeNext',
    lib: ['ES2022'],
    strict: true,
    types: ['node'],
    typeRoots: [join(ROOT, 'node_modules/@types')],
    outDir: 'dist',
    noEmitOnError: true,
  },
  include: ['examples'],
};

/** Packs the package, installs it in the folder outside the clone and compiles the README's examples there. */
async function packInstallCompile() {
  const tsx = join(ROOT, 'node_modules/.bin/tsx');
  const { stdout: packOut } = await run(tsx, ['scripts/client-package.ts', '--out', folder], { cwd: ROOT });
  const tarball = packOut.trim().split('\n').at(-1) ?? '';
  mkdirSync(join(app, 'examples'), { recursive: true });
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'integrator', private: true, type: 'module' }));
  await run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', tarball], { cwd: app });
  const installed = join(app, 'node_modules/@crm-workflow/client');
  const manifest = JSON.parse(readFileSync(join(installed, 'package.json'), 'utf8'));
  expect(manifest).toMatchObject({
    license: 'MIT',
    exports: { '.': { types: './dist/index.d.ts' } },
    engines: { node: '>=20.19' },
  });
  expect(manifest.version).toBe(JSON.parse(readFileSync(join(ROOT, 'generated/openapi.en.json'), 'utf8')).info.version);
  expect(readFileSync(join(installed, 'LICENSE'), 'utf8')).toMatch(/^MIT License/);
  // Its declarations are what it exposes, not the contract's whole type tree (817 KB before).
  const declarations = readdirSync(join(installed, 'dist'))
    .filter((file) => file.endsWith('.d.ts'))
    .reduce((sum, file) => sum + statSync(join(installed, 'dist', file)).size, 0);
  expect(declarations).toBeLessThan(300_000);

  // The README as installed: its guide, and every method of every resource with an example.
  const readme = readFileSync(join(installed, 'README.md'), 'utf8');
  const examples = examplesOf(readme);
  const methods = examples.filter((e) => e.section === 'Every method');
  expect(methods.length).toBeGreaterThanOrEqual(15);
  const documented = new Set([...readme.matchAll(/^\| `crm\.(\w+\.\w+)` \|/gm)].map((m) => m[1]));
  const generated = readFileSync(join(ROOT, 'generated/client-methods.ts'), 'utf8');
  expect(documented.size).toBeGreaterThanOrEqual(100);
  for (const resource of generated.matchAll(/^ {2}readonly (\w+) = \{/gm)) {
    expect(
      [...documented].some((m) => m.startsWith(`${resource[1]}.`)),
      resource[1],
    ).toBe(true);
  }
  const files: string[] = [];
  for (const [i, example] of examples.entries()) {
    const preamble =
      example.section === 'Every method' ? "import { Crm } from '@crm-workflow/client';\nconst crm = new Crm();\n" : '';
    const name = `${String(i).padStart(2, '0')}-${example.section.toLowerCase().replace(/\W+/g, '-')}.ts`;
    // Each example is a module of its own (top-level await, its own names).
    writeFileSync(join(app, 'examples', name), `${preamble}${example.code}\nexport {};\n`);
    files.push(name);
  }
  writeFileSync(join(app, 'tsconfig.json'), JSON.stringify(TSCONFIG, null, 2));
  const tsc = join(ROOT, 'node_modules/typescript/bin/tsc');
  const compiled = await run(process.execPath, [tsc, '-p', app, '--extendedDiagnostics'], { cwd: app }).catch(
    (error: { stdout: string; stderr: string }) => ({ stdout: error.stdout, stderr: error.stderr }),
  );
  const diagnostics = compiled.stdout.split('\n').filter((line) => /error TS\d+/.test(line));
  expect(diagnostics).toEqual([]);
  // The package's types are cheap to check (a 90-line program took 22.6 s of CPU over the whole type tree):
  // counted in type instantiations, which do not depend on the machine's load (about 22 000 here).
  const instantiations = Number(/^Instantiations:\s+(\d+)$/m.exec(compiled.stdout)?.[1] ?? 'NaN');
  expect(instantiations).toBeLessThan(100_000);

  return { tarball, readme, files };
}

describe('the packed client', { timeout: 600_000 }, () => {
  it('installs from its tarball outside the clone; every README example compiles under --strict and the quick start runs against the service', async () => {
    const { tarball, readme, files } = packed;
    expect(tarball).toMatch(/crm-workflow-client-\d+\.\d+\.\d+\.tgz$/);
    expect(folder.startsWith(ROOT)).toBe(false);
    const quickStart = files.find((file) => file.includes('quick-start'));
    expect(quickStart).toBeDefined();
    const env = { ...process.env, CRM_API_URL: service.api, CRM_API_KEY: service.key };
    const { stdout } = await run(process.execPath, [join('dist', (quickStart ?? '').replace(/\.ts$/, '.js'))], {
      cwd: app,
      env,
    });
    expect(stdout.split('\n').filter(Boolean)).toEqual([
      '1 1 true',
      'created updated 32500.00 true',
      'true',
      '422 validation_failed /email true',
      '422 validation_failed',
      'CrmNetworkError 1',
    ]);
    // The README says what it prints.
    expect(readme).toContain(
      '```\n1 1 true\ncreated updated 32500.00 true\ntrue\n422 validation_failed /email true\n422 validation_failed\nCrmNetworkError 1\n```',
    );

    writeFileSync(
      join(app, 'webhook.mjs'),
      `import { verifyWebhook } from '@crm-workflow/client';
import { Webhook } from 'standardwebhooks';
const secret = 'whsec_' + Buffer.from('0123456789abcdef0123456789abcdef').toString('base64');
const body = JSON.stringify({ id: 'evt_1', type: 'customer.created', data: { object: { id: 'c' } } });
const signed = { 'webhook-id': 'evt_1', 'webhook-timestamp': String(Math.floor(Date.now() / 1000)) };
signed['webhook-signature'] = new Webhook(secret).sign('evt_1', new Date(), body);
// node:http / Express / Fastify (lower case, a repeated header as an array), Hono (any case), Fetch (Headers).
const forms = {
  node: { ...signed, host: 'x', 'set-cookie': ['a=1'] },
  repeated: { ...signed, 'webhook-signature': [signed['webhook-signature']] },
  hono: { 'Webhook-Id': signed['webhook-id'], 'Webhook-Timestamp': signed['webhook-timestamp'], 'Webhook-Signature': signed['webhook-signature'] },
  fetch: new Headers(signed),
};
for (const [name, headers] of Object.entries(forms)) {
  console.log(name, verifyWebhook(body, headers, secret).type, verifyWebhook(Buffer.from(body), headers, secret).type);
  try { verifyWebhook(body.replace('created', 'updated'), headers, secret); console.log(name, 'accepted'); }
  catch { console.log(name, 'refused'); }
}
`,
    );
    const { stdout: hook } = await run(process.execPath, ['webhook.mjs'], { cwd: app });
    expect(hook.split('\n').filter(Boolean)).toEqual([
      'node customer.created customer.created',
      'node refused',
      'repeated customer.created customer.created',
      'repeated refused',
      'hono customer.created customer.created',
      'hono refused',
      'fetch customer.created customer.created',
      'fetch refused',
    ]);
  });
});
