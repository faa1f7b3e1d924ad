// npm run build:client [-- --out DIR]: the typed client of src/client/ as a package an integrator installs
// outside this repository: built JavaScript with type declarations (no TypeScript at run time), its own
// package.json (name, the contract's version, `exports`, `engines`, its one runtime dependency), its README and
// LICENSE, produced by `npm pack`. Prints the tarball's path. Built in a temporary folder, so nothing is left in the clone.
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';

const ROOT = resolve(import.meta.dirname, '..');
const { values } = parseArgs({ options: { out: { type: 'string' } } });
const out = resolve(values.out ?? mkdtempSync(join(tmpdir(), 'crm-client-pack-')));

const versionOf = (name: string): string =>
  JSON.parse(readFileSync(join(ROOT, 'node_modules', name, 'package.json'), 'utf8')).version;
const contract = JSON.parse(readFileSync(join(ROOT, 'generated/openapi.en.json'), 'utf8'));

const stage = mkdtempSync(join(tmpdir(), 'crm-client-build-'));
try {
  mkdirSync(join(stage, 'src'));
  // The SDK's sources and the two files `npm run generate` writes for it, side by side in the package; imports of
  // `.ts` files become the `.js` files tsc emits.
  const sources: Record<string, string> = {
    'index.ts': 'src/client/sdk.ts',
    'caller.ts': 'src/client/caller.ts',
    'errors.ts': 'src/client/errors.ts',
    'custom-fields.ts': 'src/client/custom-fields.ts',
    'webhooks.ts': 'src/client/webhooks.ts',
    'client-methods.ts': 'generated/client-methods.ts',
    'client-api.d.ts': 'generated/client-api.d.ts',
  };
  for (const [name, from] of Object.entries(sources)) {
    const text = readFileSync(join(ROOT, from), 'utf8')
      .replace(/from '(?:\.\.\/\.\.\/generated\/|\.\/)([\w-]+)(\.d)?\.ts'/g, "from './$1.js'")
      .replace(/from '\.\.\/src\/client\/([\w-]+)\.ts'/g, "from './$1.js'");
    writeFileSync(join(stage, 'src', name), text);
  }
  symlinkSync(join(ROOT, 'node_modules'), join(stage, 'node_modules'));
  writeFileSync(
    join(stage, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        target: 'ES2022',
        module: 'NodeNext',
        moduleResolution: 'NodeNext',
        lib: ['ES2022'],
        types: ['node'],
        strict: true,
        declaration: true,
        skipLibCheck: true,
        rootDir: 'src',
        outDir: 'dist',
      },
      include: ['src'],
    }),
  );
  // Written first: `type: module` makes tsc emit ES modules (NodeNext follows the nearest package.json).
  writeFileSync(
    join(stage, 'package.json'),
    `${JSON.stringify(
      {
        name: '@crm-workflow/client',
        version: contract.info.version,
        description: `Typed client of ${contract.info.title}`,
        license: 'MIT',
        type: 'module',
        exports: { '.': { types: './dist/index.d.ts', default: './dist/index.js' } },
        types: './dist/index.d.ts',
        files: ['dist', 'README.md', 'LICENSE'],
        engines: { node: '>=20.19' },
        dependencies: { standardwebhooks: versionOf('standardwebhooks') },
      },
      null,
      2,
    )}\n`,
  );
  execFileSync(join(ROOT, 'node_modules/.bin/tsc'), ['-p', join(stage, 'tsconfig.json')], { stdio: 'inherit' });
  copyFileSync(join(stage, 'src/client-api.d.ts'), join(stage, 'dist/client-api.d.ts'));
  copyFileSync(join(ROOT, 'LICENSE'), join(stage, 'LICENSE'));
  // Its README: the guide (src/client/README.md) and every method, written from the contract by `npm run generate`.
  const reference = readFileSync(join(ROOT, 'generated/client-reference.md'), 'utf8').replace(/^<!--.*-->\n\n/, '');
  writeFileSync(join(stage, 'README.md'), `${readFileSync(join(ROOT, 'src/client/README.md'), 'utf8')}\n${reference}`);
  rmSync(join(stage, 'node_modules'));
  mkdirSync(out, { recursive: true });
  const packed = execFileSync('npm', ['pack', '--pack-destination', out, '--json'], { cwd: stage, encoding: 'utf8' });
  const [{ filename }] = JSON.parse(packed) as { filename: string }[];
  console.log(join(out, filename));
} finally {
  rmSync(stage, { recursive: true, force: true });
}
