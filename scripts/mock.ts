// `npm run mock`: Prism serves the contract under /api/v1, as the service does, so that a client configured with
// `<base>/api/v1` works unchanged against the mock, the real service, or the real service through Prism's
// validating proxy (`-- --proxy http://127.0.0.1:3000`). Prism matches request paths against the contract's paths
// literally (it ignores the servers' base path), so it is given a copy of the bundle whose paths carry /api/v1.
//
//   npm run mock [-- --port 4010] [--proxy ORIGIN] [further prism options, e.g. --dynamic]
//
// Requests and answers are validated (`--errors`): a request outside the contract answers 422 from Prism, an
// answer outside it 500 with `sl-violations`.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';

export const API_PREFIX = '/api/v1';
const ROOT = resolve(import.meta.dirname, '..');

const { values, tokens } = parseArgs({
  options: {
    port: { type: 'string', default: '4010' },
    host: { type: 'string', default: '127.0.0.1' },
    proxy: { type: 'string' },
    lang: { type: 'string', default: 'en' },
  },
  strict: false,
  tokens: true,
});
// Everything that is not ours goes to Prism as it was given.
const own = new Set(['port', 'host', 'proxy', 'lang']);
const passThrough: string[] = [];
for (const token of tokens ?? []) {
  if (token.kind === 'option' && !own.has(token.name)) {
    passThrough.push(token.rawName);
    if (token.value !== undefined) passThrough.push(token.value);
  } else if (token.kind === 'positional') passThrough.push(token.value);
}

const contract = JSON.parse(readFileSync(join(ROOT, `generated/openapi.${values.lang}.json`), 'utf8'));
contract.paths = Object.fromEntries(
  Object.entries(contract.paths as Record<string, unknown>).map(([path, item]) => [`${API_PREFIX}${path}`, item]),
);
const origin = `http://${values.host}:${values.port}`;
contract.servers = [{ url: origin, description: values.proxy ? `Prism proxy to ${values.proxy}` : 'Prism mock' }];
const dir = mkdtempSync(join(tmpdir(), 'crm-mock-'));
const file = join(dir, 'openapi.json');
writeFileSync(file, JSON.stringify(contract));

const mode = values.proxy
  ? [
      'proxy',
      file,
      String(values.proxy)
        .replace(/\/+$/, '')
        .replace(/\/api\/v1$/, ''),
    ]
  : ['mock', file];
const prism = spawn(
  join(ROOT, 'node_modules/.bin/prism'),
  [...mode, '--host', String(values.host), '--port', String(values.port), '--errors', ...passThrough],
  { stdio: ['ignore', 'inherit', 'inherit'] },
);
console.log(
  values.proxy
    ? `Prism validating proxy: ${origin}${API_PREFIX} → ${values.proxy} (requests and answers checked against the contract)`
    : `Prism mock of the contract: ${origin}${API_PREFIX} (answers are the contract's examples)`,
);

const cleanUp = () => rmSync(dir, { recursive: true, force: true });
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (prism.exitCode === null) prism.kill(signal);
  });
}
prism.on('exit', (code, signal) => {
  cleanUp();
  process.exit(code ?? (signal ? 0 : 1));
});
