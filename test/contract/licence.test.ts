// One licence, said everywhere: MIT in LICENSE, the service's package.json, the contract in every language (what
// /docs and GET /api/v1/openapi.json show) and the client package (test/integrator/client-package.test.ts).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '../..');
const read = (file: string) => readFileSync(join(root, file), 'utf8');

describe('licence', () => {
  it('is MIT in LICENSE, package.json, README and the contract of every language', () => {
    expect(read('LICENSE')).toMatch(/^MIT License\n/);
    expect(JSON.parse(read('package.json')).license).toBe('MIT');
    expect(read('README.md')).toMatch(/^## Licence\n\nMIT \(`LICENSE`\)/m);
    for (const lang of ['en', 'nl', 'de', 'fr']) {
      const contract = JSON.parse(read(`generated/openapi.${lang}.json`));
      expect(contract.info.license, lang).toEqual({ name: 'MIT', identifier: 'MIT' });
    }
    expect(read('src/client/README.md')).toContain('Licence: MIT.');
  });
});
