// Making an S3 client prints nothing on Node 20: the AWS SDK's Node-version warning (9 lines on every S3 start and
// CLI run, about SDK releases after January 2027) is silenced, unless the operator asks for it.
import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { expect, it } from 'vitest';
import { CLI_TEST_MS } from '../harness/processes.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const PROGRAM = `
  const { loadConfig } = await import('./src/config.ts');
  const { s3ClientOf } = await import('./src/files/s3-storage.ts');
  s3ClientOf(loadConfig({ S3_BUCKET: 'b', S3_REGION: 'eu-west-1', S3_ENDPOINT: 'http://127.0.0.1:9' })).destroy();
  await new Promise((r) => setTimeout(r, 100));
`;

function run(env: Record<string, string>): Promise<string> {
  return new Promise((done, fail) =>
    execFile(
      process.execPath,
      ['--import', 'tsx', '--input-type=module', '-e', PROGRAM],
      { cwd: ROOT, env: { ...process.env, ...env }, timeout: 0 },
      (error, _stdout, stderr) => (error ? fail(new Error(`${error.message}\n${stderr}`)) : done(stderr)),
    ),
  );
}

it.runIf(Number(process.versions.node.split('.')[0]) < 22)(
  'an S3 client is made without the SDK’s Node-version warning, which an operator can still ask for',
  async () => {
    expect(await run({})).not.toContain('NodeVersionSupportWarning');
    expect(await run({ AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'false' })).toContain(
      'NodeVersionSupportWarning',
    );
  },
  CLI_TEST_MS,
);
