// npm run build:client [-- --out DIR]: the typed client of src/client/ as a package an integrator installs
// outside this repository: built JavaScript with type declarations (no TypeScript at run time), its own
// package.json (name, the contract's version, `exports`, `engines`, its two runtime dependencies), produced by
// `npm pack`. Prints the tarball's path. Built in a temporary folder, so nothing is left in the clone.
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
  // The client imports the contract's types from generated/: next to it in the package.
  // The import as src/client/index.ts writes it (built from parts, so it reads as no path of this script's own).
  const contractImport = ['..', '..', 'generated', 'api.d.ts'].join('/');
  const source = readFileSync(join(ROOT, 'src/client/index.ts'), 'utf8').replace(`'${contractImport}'`, "'./api.js'");
  writeFileSync(join(stage, 'src/index.ts'), source);
  copyFileSync(join(ROOT, 'generated/api.d.ts'), join(stage, 'src/api.d.ts'));
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
        files: ['dist', 'README.md'],
        engines: { node: '>=20.19' },
        dependencies: { 'openapi-fetch': versionOf('openapi-fetch'), standardwebhooks: versionOf('standardwebhooks') },
      },
      null,
      2,
    )}\n`,
  );
  execFileSync(join(ROOT, 'node_modules/.bin/tsc'), ['-p', join(stage, 'tsconfig.json')], { stdio: 'inherit' });
  copyFileSync(join(stage, 'src/api.d.ts'), join(stage, 'dist/api.d.ts'));
  writeFileSync(
    join(stage, 'README.md'),
    `# @crm-workflow/client\n\nThe typed client of the CRM and workflow API ${contract.info.version}: see the service's README, "For integrators".\n`,
  );
  rmSync(join(stage, 'node_modules'));
  mkdirSync(out, { recursive: true });
  const packed = execFileSync('npm', ['pack', '--pack-destination', out, '--json'], { cwd: stage, encoding: 'utf8' });
  const [{ filename }] = JSON.parse(packed) as { filename: string }[];
  console.log(join(out, filename));
} finally {
  rmSync(stage, { recursive: true, force: true });
}
