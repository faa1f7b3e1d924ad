// Nothing of the service, its scripts or its tests reads outside the repository: a clone anywhere runs
// `npm test` (the endpoint table once came from the specification next to the repository).
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');
const SOURCES = ['src', 'test', 'scripts'];
const TOP_FILES = ['package.json', 'vitest.config.ts', 'drizzle.config.ts', 'tsconfig.json', 'biome.json'];

function sourceFiles(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && /\.(ts|mts|mjs|js|json)$/.test(e.name))
    .map((e) => relative(ROOT, join(e.parentPath, e.name)));
}

/** Relative path literals (`'../…'`) resolved against their file's folder that land outside the repository. */
function escapingPaths(file: string): string[] {
  const text = readFileSync(join(ROOT, file), 'utf8');
  const literals = [...text.matchAll(/['"`]((?:\.\.\/)+[^'"`\s]*)['"`]/g)].map((m) => m[1]);
  return literals.filter((p) => relative(ROOT, resolve(ROOT, dirname(file), p)).startsWith('..'));
}

describe('the repository reads only itself', () => {
  const files = [...SOURCES.flatMap(sourceFiles), ...TOP_FILES];

  it('finds the sources it checks', () => {
    expect(files).toContain('test/contract/endpoint-table.test.ts');
    expect(files.length).toBeGreaterThan(100);
  });

  it('no relative path leaves the repository', () => {
    const found = files.flatMap((file) => escapingPaths(file).map((p) => `${file}: ${p}`));
    expect(found).toEqual([]);
  });
});
