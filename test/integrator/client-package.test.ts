// The client package as an integrator gets it: `npm run build:client` packs it, the tarball is installed with npm
// into an empty folder outside the clone, and the README's example ("For integrators: the client package") runs
// there as written, with plain Node (no TypeScript), against the service started as `npm start` runs it. Then
// verifyWebhook checks a message signed with the Standard Webhooks library the package installed.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningService, startService } from './service.ts';

const run = promisify(execFile);
const ROOT = resolve(import.meta.dirname, '../..');
let service: RunningService;
let folder: string;

beforeAll(async () => {
  service = await startService();
  folder = mkdtempSync(join(tmpdir(), 'crm-integrator-'));
}, 180_000);

afterAll(async () => {
  await service?.stop();
  if (folder) rmSync(folder, { recursive: true, force: true });
});

/** The README's example, exactly as written there. */
function readmeExample(): string {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('## For integrators: the client package'));
  const example = section.match(/```js\n([\s\S]*?)```/)?.[1];
  if (!example) throw new Error('README: no js example in "For integrators: the client package"');
  return example;
}

describe('the packed client', { timeout: 600_000 }, () => {
  it('installs from its tarball outside the clone and runs the README example against the service', async () => {
    const tsx = join(ROOT, 'node_modules/.bin/tsx');
    const { stdout: packed } = await run(tsx, ['scripts/client-package.ts', '--out', folder], { cwd: ROOT });
    const tarball = packed.trim().split('\n').at(-1) ?? '';
    expect(tarball).toMatch(/crm-workflow-client-\d+\.\d+\.\d+\.tgz$/);
    expect(folder.startsWith(ROOT)).toBe(false);

    const app = join(folder, 'app');
    await run('mkdir', [app]);
    writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'integrator', private: true, type: 'module' }));
    await run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', tarball], { cwd: app });
    const installed = JSON.parse(readFileSync(join(app, 'node_modules/@crm-workflow/client/package.json'), 'utf8'));
    expect(installed).toMatchObject({ exports: { '.': { types: './dist/index.d.ts' } }, engines: { node: '>=20.19' } });
    expect(installed.version).toBe(
      JSON.parse(readFileSync(join(ROOT, 'generated/openapi.en.json'), 'utf8')).info.version,
    );

    writeFileSync(join(app, 'example.mjs'), readmeExample());
    const env = { ...process.env, CRM_API_URL: service.api, CRM_API_KEY: service.key };
    const { stdout } = await run(process.execPath, ['example.mjs'], { cwd: app, env });
    expect(stdout.split('\n').filter(Boolean)).toEqual([
      '1 1 true',
      'created updated 32500.00 true',
      'true',
      '422 validation_failed /email true',
    ]);

    writeFileSync(
      join(app, 'webhook.mjs'),
      `import { verifyWebhook } from '@crm-workflow/client';
import { Webhook } from 'standardwebhooks';
const secret = 'whsec_' + Buffer.from('0123456789abcdef0123456789abcdef').toString('base64');
const body = JSON.stringify({ id: 'evt_1', type: 'customer.created', data: { object: { id: 'c' } } });
const headers = { 'webhook-id': 'evt_1', 'webhook-timestamp': String(Math.floor(Date.now() / 1000)) };
headers['webhook-signature'] = new Webhook(secret).sign('evt_1', new Date(), body);
console.log(verifyWebhook(body, headers, secret).type);
try { verifyWebhook(body.replace('created', 'updated'), headers, secret); console.log('accepted'); }
catch { console.log('refused'); }
`,
    );
    const { stdout: hook } = await run(process.execPath, ['webhook.mjs'], { cwd: app });
    expect(hook.split('\n').filter(Boolean)).toEqual(['customer.created', 'refused']);
  });
});
